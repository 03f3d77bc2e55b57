/**
 * Issue 41: the same applicant's applications are one row of the queue, the newest with the
 * others as its history, and one decision answers all their pending ones.
 */
import { trusted } from 'mongoose';
import { createLogger } from '../src/platform/logger';
import { apply } from './admin-support';
import { useTestApp } from './test-app';

const t = useTestApp();
let admin: Awaited<ReturnType<typeof t.createMember>>;

beforeAll(async () => {
  admin = await t.createMember({ id: t.config.adminUserId, name: 'Admin' });
});

const asAdmin = () => ({
  get: (url: string) => t.http().get(url).set('Authorization', admin.auth),
  post: (url: string, body: object = {}) =>
    t.http().post(url).set('Authorization', admin.auth).send(body),
});

type Listed = { id: number; name: string; earlier?: Array<{ id: number; status: string }> };

async function listed(status: string): Promise<{ items: Listed[]; total: number }> {
  return (await asAdmin().get(`/api/admin/applications?status=${status}&pageSize=100`).expect(200))
    .body;
}

test('when one applicant applies three times, then the queue shows one row, the newest, with the two others, and one approval answers all three', async () => {
  const first = await apply(t, { name: 'Grace Hopper', contactInfo: 'grace@navy.example' });
  const second = await apply(t, {
    name: 'Grace B. Hopper',
    contactInfo: 'Mail: GRACE@navy.example, phone 555',
  });
  const other = await apply(t, { name: 'Alan Turing', contactInfo: 'Phone +44 20 0000' });
  const third = await apply(t, { name: 'Grace Hopper', contactInfo: 'grace@navy.example' });
  // Without an address: the same contact information, however spaced and cased.
  const alanAgain = await apply(t, { name: 'Alan Turing', contactInfo: '  phone +44  20 0000 ' });

  const pending = await listed('pending');
  expect(pending.items.map((a) => a.id)).toEqual([alanAgain, third]);
  expect(pending.total).toBe(2);
  const grace = pending.items.find((a) => a.id === third)!;
  expect(grace.earlier!.map((e) => [e.id, e.status])).toEqual([
    [second, 'pending'],
    [first, 'pending'],
  ]);
  expect(pending.items.find((a) => a.id === alanAgain)!.earlier!.map((e) => e.id)).toEqual([other]);
  const summary = await asAdmin().get('/api/admin/summary').expect(200);
  expect(summary.body.pendingApplications).toBe(2);

  await asAdmin().post(`/api/admin/applications/${third}/approve`).expect(200);

  const after = await listed('pending');
  expect(after.items.map((a) => a.id)).toEqual([alanAgain]);
  const approved = await listed('approved');
  const row = approved.items.find((a) => a.id === third)!;
  expect(row.earlier!.map((e) => [e.id, e.status])).toEqual([
    [second, 'approved'],
    [first, 'approved'],
  ]);
  expect(approved.items.filter((a) => [first, second].includes(a.id))).toEqual([]);
  // One invitation for the applicant, not three.
  expect(
    await t.models.Invitation.countDocuments({ applicationId: trusted({ $in: [first, second] }) }),
  ).toBe(0);
});

test('when applications were stored before applicants, then each is its own row until the migration groups them', async () => {
  const a = await apply(t, { name: 'Ada', contactInfo: 'ada@lovelace.example' });
  const b = await apply(t, { name: 'Ada', contactInfo: 'ada@lovelace.example' });
  await t.models.AccountApplication.collection.updateMany(
    { _id: { $in: [a, b] } as never },
    { $unset: { applicant: '' } },
  );
  const before = await listed('pending');
  expect(before.items.map((x) => x.id)).toEqual(expect.arrayContaining([a, b]));

  const { up } = await import('../src/migrations/0003-applicants');
  const { connection } = t.database;
  await up({ db: connection.db!, connection, models: t.models, logger: createLogger('silent') });
  const grouped = await listed('pending');
  expect(grouped.items.map((x) => x.id)).toContain(b);
  expect(grouped.items.map((x) => x.id)).not.toContain(a);
});
