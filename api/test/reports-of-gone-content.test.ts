/**
 * Issue 41: a report of content that is already gone (a post deleted or removed, a comment
 * deleted, an account deleted) closes itself, and the queue never offers to remove it.
 */
import { eventually } from './eventually';
import { TEST_PASSWORD, useTestApp } from './test-app';

const t = useTestApp();
let admin: Awaited<ReturnType<typeof t.createMember>>;

beforeAll(async () => {
  admin = await t.createMember({ id: t.config.adminUserId, name: 'Admin' });
});

const as = (auth: string) => ({
  get: (url: string) => t.http().get(url).set('Authorization', auth),
  post: (url: string, body: object = {}) =>
    t.http().post(url).set('Authorization', auth).send(body),
  delete: (url: string, body: object = {}) =>
    t.http().delete(url).set('Authorization', auth).send(body),
});
const asAdmin = () => as(admin.auth);

/** Files a report and answers the id of the case it joined. */
async function report(
  reporter: { auth: string },
  targetType: 'post' | 'comment' | 'user',
  targetId: number,
): Promise<number> {
  await as(reporter.auth)
    .post('/api/reports', { targetType, targetId, reason: 'Spam' })
    .expect(201);
  const found = await t.models.ReportCase.findOne({ targetType, targetId, status: 'open' }).lean();
  return found!._id;
}

/** The stored case, as the database holds it (not through the listing, which closes too). */
const storedCase = (id: number) => t.models.ReportCase.findById(id).lean();

/** Resolves once the case is closed by the deletion's event, answering it. */
async function closedByItsEvent(id: number) {
  expect(await eventually(async () => (await storedCase(id))?.status === 'resolved')).toBe(true);
  return (await storedCase(id))!;
}

describe('reports of content that is gone', () => {
  test('when a reported post is deleted by its author, then its case closes as gone, by nobody, and leaves the open queue', async () => {
    const author = await t.createMember();
    const reporter = await t.createMember();
    const post = await as(author.auth).post('/api/posts', { content: 'Buy now' }).expect(201);
    const caseId = await report(reporter, 'post', post.body.id);

    await as(author.auth).delete(`/api/posts/${post.body.id}`).expect(200);

    const closed = await closedByItsEvent(caseId);
    expect(closed.resolution).toMatchObject({ action: 'gone', resolvedBy: null });
    const open = await asAdmin().get('/api/admin/reports?status=open&pageSize=100').expect(200);
    expect(open.body.items.map((r: { id: number }) => r.id)).not.toContain(caseId);
    const resolved = await asAdmin()
      .get('/api/admin/reports?status=resolved&pageSize=100')
      .expect(200);
    expect(resolved.body.items.find((r: { id: number }) => r.id === caseId)).toMatchObject({
      status: 'resolved',
      target: { removed: true },
      resolution: { action: 'gone', reason: null },
    });
    // Nothing left to act on: the administrator's resolution is refused as already made.
    const remove = await asAdmin().post(`/api/admin/reports/${caseId}/resolve`, {
      action: 'remove',
    });
    expect(remove.status).toBe(409);
  });

  test('when a reported comment is deleted, or the post it was on, then their cases close; a report of something still there stays open', async () => {
    const author = await t.createMember();
    const reporter = await t.createMember();
    const post = await as(author.auth).post('/api/posts', { content: 'A thread' }).expect(201);
    const comment = await as(author.auth)
      .post(`/api/posts/${post.body.id}/comments`, { content: 'Rude words' })
      .expect(201);
    const other = await as(author.auth)
      .post(`/api/posts/${post.body.id}/comments`, { content: 'More rude words' })
      .expect(201);
    const kept = await as(author.auth).post('/api/posts', { content: 'Still here' }).expect(201);
    const commentCase = await report(reporter, 'comment', comment.body.id);
    const otherCase = await report(reporter, 'comment', other.body.id);
    const keptCase = await report(reporter, 'post', kept.body.id);

    await as(author.auth).delete(`/api/comments/${comment.body.id}`).expect(200);
    expect((await closedByItsEvent(commentCase)).resolution?.action).toBe('gone');
    // The other comment's post goes: the comment with it.
    await as(author.auth).delete(`/api/posts/${post.body.id}`).expect(200);
    expect((await closedByItsEvent(otherCase)).resolution?.action).toBe('gone');

    await t.caughtUp();
    expect((await storedCase(keptCase))?.status).toBe('open');
    const open = await asAdmin().get('/api/admin/reports?status=open&pageSize=100').expect(200);
    expect(open.body.items.map((r: { id: number }) => r.id)).toContain(keptCase);
  });

  test('when a reported member deletes their account, then the reports of them and of what they wrote close', async () => {
    const leaver = await t.createMember(); // every test member signs in with TEST_PASSWORD
    const reporter = await t.createMember();
    const post = await as(leaver.auth).post('/api/posts', { content: 'Goodbye' }).expect(201);
    const userCase = await report(reporter, 'user', leaver.id);
    const postCase = await report(reporter, 'post', post.body.id);

    await as(leaver.auth)
      .delete(`/api/users/${leaver.id}`, { password: TEST_PASSWORD })
      .expect(204);

    expect((await closedByItsEvent(userCase)).resolution?.action).toBe('gone');
    expect((await closedByItsEvent(postCase)).resolution?.action).toBe('gone');
  });

  test('when content went without its event being handled, then listing the open reports closes its case first; a suspended member stays open', async () => {
    const author = await t.createMember();
    const suspended = await t.createMember();
    const reporter = await t.createMember();
    const post = await as(author.auth).post('/api/posts', { content: 'Vanishing' }).expect(201);
    const postCase = await report(reporter, 'post', post.body.id);
    const userCase = await report(reporter, 'user', suspended.id);
    await asAdmin()
      .post(`/api/admin/users/${suspended.id}/suspend`, { reason: 'Spam' })
      .expect(200);
    // Deleted behind the API's back: no event is published, as if its process had stopped.
    await t.models.Post.collection.updateOne(
      { _id: post.body.id as never },
      { $set: { deletedAt: new Date() } },
    );

    const open = await asAdmin().get('/api/admin/reports?status=open&pageSize=100').expect(200);
    const ids = open.body.items.map((r: { id: number }) => r.id);
    expect(ids).not.toContain(postCase);
    expect(ids).toContain(userCase);
    expect(open.body.total).toBe(open.body.items.length);
    expect((await storedCase(postCase))?.resolution?.action).toBe('gone');
  });
});
