import { useTestApp } from '../../../test/test-app';
import { publish } from '../../../test/content';
import { percent } from './analytics';

const app = useTestApp({ timezone: 'UTC' });
const ADMIN_ID = 107;
const DAY = 86_400_000;

const ENDPOINTS = ['overview', 'user-growth', 'engagement', 'active-users'];

// Figures first: the authorization tests below add members.
describe('analytics figures', () => {
  let admin: Awaited<ReturnType<typeof app.createMember>>;

  beforeAll(async () => {
    admin = await app.createMember({ id: ADMIN_ID, name: 'Admin' });
    const members = [admin];
    for (let i = 0; i < 4; i++) members.push(await app.createMember());
    await app.createMember({ isVerified: false });
    // One member joined 10 days ago, outside "this week".
    await app.models.User.collection.updateOne(
      { _id: members[1]!.id as never },
      { $set: { createdAt: new Date(Date.now() - 10 * DAY) } },
    );
    const p1 = await publish(app.http, members[1]!, 'one');
    await publish(app.http, members[2]!, 'two');
    const old = await publish(app.http, members[2]!, 'three');
    await app.models.Post.collection.updateOne(
      { _id: old.id as never },
      { $set: { createdAt: new Date(Date.now() - 3 * DAY) } },
    );
    for (const m of members.slice(2))
      await app.http().post(`/api/posts/${p1.id}/like`).set('Authorization', m.auth);
    await app
      .http()
      .post(`/api/posts/${p1.id}/comments`)
      .set('Authorization', admin.auth)
      .send({ content: 'nice' });
    await app.http().post(`/api/users/${members[1]!.id}/follow`).set('Authorization', admin.auth);
  });

  test('when the admin asks for the overview, then every figure is counted from the data', async () => {
    const res = await app
      .http()
      .get('/api/analytics/overview')
      .set('Authorization', admin.auth)
      .expect(200);
    expect(res.body).toEqual({
      totalUsers: 6,
      verifiedUsers: 5,
      verificationRate: 83.3,
      newUsersWeek: 5,
      totalPosts: 3,
      postsMonth: expect.any(Number),
      totalLikes: 3,
      totalComments: 1,
      totalFollows: 1,
    });
  });

  test('when the admin asks for user growth, then there are 30 zero-filled days ending today', async () => {
    const res = await app
      .http()
      .get('/api/analytics/user-growth')
      .set('Authorization', admin.auth)
      .expect(200);
    expect(res.body).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body[29]).toEqual({ date: today, users: 5 });
    const tenDaysAgo = new Date(Date.now() - 10 * DAY).toISOString().slice(0, 10);
    expect(res.body.find((d: { date: string }) => d.date === tenDaysAgo)).toEqual({
      date: tenDaysAgo,
      users: 1,
    });
    expect(res.body.reduce((n: number, d: { users: number }) => n + d.users, 0)).toBe(6);
  });

  test('when the admin asks for engagement, then there are 7 days of post counts', async () => {
    const res = await app
      .http()
      .get('/api/analytics/engagement')
      .set('Authorization', admin.auth)
      .expect(200);
    expect(res.body.posts).toHaveLength(7);
    expect(res.body.posts[6].count).toBe(2);
    expect(res.body.posts[3].count).toBe(1);
  });

  test('when the admin asks for active users, then DAU and MAU come from last activity', async () => {
    const res = await app
      .http()
      .get('/api/analytics/active-users')
      .set('Authorization', admin.auth)
      .expect(200);
    // Every member who made a request above was active just now.
    expect(res.body.dau).toBeGreaterThanOrEqual(4);
    expect(res.body.mau).toBe(res.body.dau);
  });
});

describe('analytics authorization', () => {
  test.each(ENDPOINTS)(
    'when a member who is not the admin asks for %s, then it is a 403',
    async (name) => {
      const member = await app.createMember();
      const res = await app
        .http()
        .get(`/api/analytics/${name}`)
        .set('Authorization', member.auth)
        .expect(403);
      expect(res.body.message).toBe('Admin access required');
    },
  );

  test.each(ENDPOINTS)('when nobody is signed in, then %s is a 401', async (name) => {
    await app.http().get(`/api/analytics/${name}`).expect(401);
  });
});

test('when rates are computed, then they are percentages to one decimal and 0 for no data', () => {
  expect(percent(1, 3)).toBe(33.3);
  expect(percent(2, 3)).toBe(66.7);
  expect(percent(0, 0)).toBe(0);
});
