import { trusted } from 'mongoose';
import { useTestApp } from '../../test/test-app';
import { createLogger } from '../platform/logger';
import { createUploadStorage } from '../platform/storage';
import { DEMO_ADMIN, DEMO_MEMBERS, DEMO_PASSWORD } from './demo-users';
import { seedDemoDataOnce } from './seed';

const t = useTestApp();
const DAY = 86_400_000;

/** Demo data that looks alive (issue 20): a campus live for six months, not one minute. */
describe('demo content over time', () => {
  test('when the demo data is seeded, then members joined over six months and everything they did comes after they joined, spread over time', async () => {
    const seeded = await seedDemoDataOnce(t.context, {
      adminUserId: 107,
      storage: createUploadStorage(t.database.connection, t.config.publicUrl),
      logger: createLogger('silent'),
      bcryptRounds: 4,
    });
    expect(seeded).toBe(true);
    const now = Date.now();
    const users = await t.models.User.find({}, { createdAt: 1, lastActiveAt: 1 }).lean();
    const joined = new Map(users.map((u) => [u._id, u.createdAt.getTime()]));
    const daysAgo = (ms: number) => (now - ms) / DAY;

    // Joined: the admin first, about six months ago; members spread over the months since, in
    // id order, some in the last month, none in the future.
    expect(users).toHaveLength(DEMO_MEMBERS.length + 1);
    const admin = joined.get(107)!;
    expect(daysAgo(admin)).toBeGreaterThan(170);
    expect(daysAgo(admin)).toBeLessThan(190);
    const members = [...joined].filter(([id]) => id !== 107).sort(([a], [b]) => a - b);
    for (let i = 1; i < members.length; i++) {
      expect(members[i]![1]).toBeGreaterThan(admin);
      expect(members[i]![1]).toBeLessThan(now);
    }
    const ages = members.map(([, at]) => daysAgo(at));
    expect(ages[0]).toBeGreaterThan(150);
    expect(ages.filter((d) => d > 90).length).toBeGreaterThan(5);
    expect(ages.filter((d) => d > 30 && d <= 90).length).toBeGreaterThan(3);
    const lastMonth = ages.filter((d) => d <= 30).length;
    expect(lastMonth).toBeGreaterThanOrEqual(3);
    expect(lastMonth).toBeLessThan(members.length / 2);
    expect(ages.filter((d) => d < 1).length).toBe(0); // nobody "joined minutes ago"

    // Nothing before its author joined, nothing about something before that something.
    const posts = await t.models.Post.find({}, { authorId: 1, createdAt: 1 }).lean();
    const postAt = new Map(posts.map((p) => [p._id, p.createdAt.getTime()]));
    for (const p of posts) expect(p.createdAt.getTime()).toBeGreaterThan(joined.get(p.authorId)!);
    // Numbered in time order, reposts among them, as the API numbers what it creates: the feed's
    // new-posts pill reads a higher id as a newer post.
    const byTime = [...posts].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    expect(byTime.map((p) => p._id)).toEqual([...posts].map((p) => p._id).sort((a, b) => a - b));
    const reposts = await t.models.Post.find({ originalPostId: trusted({ $ne: null }) }).lean();
    expect(reposts.length).toBeGreaterThan(0);
    for (const r of reposts) expect(r._id).toBeGreaterThan(r.originalPostId!);
    const comments = await t.models.Comment.find(
      {},
      { authorId: 1, postId: 1, createdAt: 1 },
    ).lean();
    for (const c of comments) {
      expect(c.createdAt.getTime()).toBeGreaterThan(joined.get(c.authorId)!);
      expect(c.createdAt.getTime()).toBeGreaterThanOrEqual(postAt.get(c.postId)!);
    }
    const likes = await t.models.Like.find(
      { postId: trusted({ $ne: null }) },
      { userId: 1, postId: 1, createdAt: 1 },
    ).lean();
    for (const l of likes) {
      expect(l.createdAt.getTime()).toBeGreaterThan(joined.get(l.userId)!);
      expect(l.createdAt.getTime()).toBeGreaterThanOrEqual(postAt.get(l.postId!)!);
    }
    const follows = await t.models.Follow.find().lean();
    expect(follows.length).toBeGreaterThan(DEMO_MEMBERS.length * 2);
    for (const f of follows) {
      expect(f.createdAt.getTime()).toBeGreaterThan(joined.get(f.followerId)!);
      expect(f.createdAt.getTime()).toBeGreaterThan(joined.get(f.followingId)!);
      expect(f.createdAt.getTime()).toBeLessThanOrEqual(now);
    }

    // Posts over the whole six months, more of them recently, some today.
    const postAges = posts.map((p) => daysAgo(p.createdAt.getTime()));
    expect(postAges.filter((d) => d > 120).length).toBeGreaterThan(0);
    expect(postAges.filter((d) => d > 90).length).toBeLessThan(
      postAges.filter((d) => d <= 30).length,
    );
    expect(postAges.filter((d) => d < 1).length).toBeGreaterThanOrEqual(15);

    // What the admin dashboard shows: growth over the last 30 days counts the members who
    // joined then; daily and monthly actives from when members last did something.
    const login = await t
      .http()
      .post('/api/auth/login')
      .send({ email: DEMO_ADMIN.email, password: DEMO_PASSWORD })
      .expect(200);
    const auth = `Bearer ${login.body.token}`;
    const growth = await t.http().get('/api/analytics/user-growth').set('Authorization', auth);
    const grown = (growth.body as Array<{ users: number }>).reduce((n, d) => n + d.users, 0);
    expect(grown).toBeGreaterThanOrEqual(lastMonth - 1); // a day boundary may cut the first one
    expect(grown).toBeLessThanOrEqual(lastMonth);
    expect(grown).toBeGreaterThan(0);
    // Issue 41: sign-ups on many days of the month, not one spike; posts on every day of the week,
    // today's not most of them.
    const signUpDays = (growth.body as Array<{ users: number }>).filter((d) => d.users > 0);
    expect(signUpDays.length).toBeGreaterThanOrEqual(8);
    const week = await t.http().get('/api/analytics/engagement').set('Authorization', auth);
    const perDay = (week.body.posts as Array<{ count: number }>).map((d) => d.count);
    expect(perDay).toHaveLength(7);
    for (const count of perDay.slice(0, 6)) expect(count).toBeGreaterThanOrEqual(3);
    const weekTotal = perDay.reduce((n, c) => n + c, 0);
    expect(perDay[6]!).toBeLessThan(weekTotal / 2);
    const active = await t.http().get('/api/analytics/active-users').set('Authorization', auth);
    // The admin just signed in (active now) besides the members active in the last 24 hours.
    expect(active.body.dau).toBeGreaterThan(1);
    expect(active.body.mau).toBeGreaterThan(active.body.dau);
    expect(active.body.mau).toBeLessThanOrEqual(users.length);

    // The profile says when the member joined, months ago for the first of them.
    const ada = await t.http().get(`/api/users/${members[0]![0]}`).set('Authorization', auth);
    expect(daysAgo(new Date(ada.body.createdAt).getTime())).toBeGreaterThan(150);
  }, 120_000);
});
