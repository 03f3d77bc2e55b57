/**
 * Issue 41: the audit log filtered by action, administrator and days (the app's time zone,
 * `until` inclusive), with 400s that say what is wrong; a comment's entries name its post.
 */
import { useTestApp } from './test-app';

const t = useTestApp({ timezone: 'UTC' });
let admin: Awaited<ReturnType<typeof t.createMember>>;

beforeAll(async () => {
  admin = await t.createMember({ id: t.config.adminUserId, name: 'Admin' });
});

const as = (auth: string) => ({
  get: (url: string) => t.http().get(url).set('Authorization', auth),
  post: (url: string, body: object = {}) =>
    t.http().post(url).set('Authorization', auth).send(body),
});
const asAdmin = () => as(admin.auth);

type Entry = { id: number; action: string; admin: { id: number } | null; createdAt: string };

async function audit(query = ''): Promise<{ items: Entry[]; total: number; admins: unknown[] }> {
  return (await asAdmin().get(`/api/admin/audit?pageSize=100${query}`).expect(200)).body;
}

/** Moves an entry to another moment (entries are never changed through the API). */
async function backdate(id: number, at: string) {
  await t.models.AuditEntry.collection.updateOne(
    { _id: id as never },
    { $set: { createdAt: new Date(at) } },
  );
}

describe('audit log filters', () => {
  let suspendId: number;
  let reactivateId: number;
  let formerAdminEntry: number;

  beforeAll(async () => {
    const member = await t.createMember({ name: 'Ben' });
    await asAdmin().post(`/api/admin/users/${member.id}/suspend`, { reason: 'Spam' }).expect(200);
    await asAdmin().post(`/api/admin/users/${member.id}/reactivate`).expect(200);
    const [reactivated, suspended] = (await audit()).items;
    suspendId = suspended!.id;
    reactivateId = reactivated!.id;
    await backdate(suspendId, '2026-03-10T23:30:00Z');
    await backdate(reactivateId, '2026-03-12T08:00:00Z');
    // An entry by a former administrator (ADMIN_USER_ID moved on): written as the log writes.
    const former = await t.createMember({ name: 'Former Admin' });
    formerAdminEntry = 999_001;
    await t.models.AuditEntry.create({
      _id: formerAdminEntry,
      adminId: former.id,
      action: 'user.suspend',
      targetType: 'user',
      targetId: member.id,
      details: { name: 'Ben' },
      createdAt: new Date('2026-03-11T12:00:00Z'),
    });
  });

  test('when the administrator filters by action, then only that action is listed, counted as such', async () => {
    const suspensions = await audit('&action=user.suspend');
    expect(suspensions.items.map((e) => e.id)).toEqual([formerAdminEntry, suspendId]);
    expect(suspensions.total).toBe(2);
    expect(suspensions.items.every((e) => e.action === 'user.suspend')).toBe(true);
  });

  test('when the administrator filters by administrator, then only their entries; everyone who acted is offered', async () => {
    const mine = await audit(`&adminId=${admin.id}`);
    expect(mine.items.map((e) => e.id)).toEqual([reactivateId, suspendId]);
    expect(mine.admins).toHaveLength(2);
    expect(mine.admins).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: admin.id, name: 'Admin' }),
        expect.objectContaining({ name: 'Former Admin' }),
      ]),
    );
  });

  test('when the administrator filters by days, then both days count in full, in the time zone', async () => {
    const day = await audit('&since=2026-03-10&until=2026-03-10');
    expect(day.items.map((e) => e.id)).toEqual([suspendId]);
    const range = await audit('&since=2026-03-11&until=2026-03-12');
    expect(range.items.map((e) => e.id)).toEqual([reactivateId, formerAdminEntry]);
    const from = await audit('&since=2026-03-12');
    expect(from.items.map((e) => e.id)).toEqual([reactivateId]);
    const combined = await audit(`&action=user.suspend&adminId=${admin.id}&until=2026-03-11`);
    expect(combined.items.map((e) => e.id)).toEqual([suspendId]);
  });

  test.each([
    ['&action=user.delete', /^Action must be one of application\.approve, /],
    ['&adminId=abc', /^adminId must be a member id$/],
    ['&adminId=0', /^adminId must be a member id$/],
    ['&since=2026-13-45', /^since must be a real date$/],
    ['&until=yesterday', /^until must be a date \(YYYY-MM-DD\)$/],
    ['&since=2026-03-12&until=2026-03-11', /^since must not be after until$/],
  ])('when the query is %s, then 400 with what is wrong', async (query, message) => {
    const res = await asAdmin().get(`/api/admin/audit?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  test('when a member asks for the audit log, filtered or not, then 403', async () => {
    const member = await t.createMember();
    await as(member.auth).get('/api/admin/audit?action=user.suspend').expect(403);
  });
});

test("when the reports of a comment are resolved, then the audit entry names the comment's post", async () => {
  const author = await t.createMember();
  const reporter = await t.createMember();
  const post = await as(author.auth).post('/api/posts', { content: 'A thread' }).expect(201);
  const comment = await as(author.auth)
    .post(`/api/posts/${post.body.id}/comments`, { content: 'Rude' })
    .expect(201);
  await as(reporter.auth)
    .post('/api/reports', { targetType: 'comment', targetId: comment.body.id, reason: 'Rude' })
    .expect(201);
  const open = await asAdmin().get('/api/admin/reports').expect(200);
  const group = open.body.items.find(
    (r: { targetId: number; targetType: string }) =>
      r.targetType === 'comment' && r.targetId === comment.body.id,
  );
  await asAdmin().post(`/api/admin/reports/${group.id}/resolve`, { action: 'dismiss' }).expect(200);
  const [entry] = (await asAdmin().get('/api/admin/audit?action=report.dismiss').expect(200)).body
    .items;
  expect(entry.details).toMatchObject({
    targetType: 'comment',
    targetId: comment.body.id,
    postId: post.body.id,
  });
});
