import { startOfDayIn } from '../platform/time';
import { trusted } from 'mongoose';
import { useTestApp } from '../../test/test-app';
import { createLogger } from '../platform/logger';
import { createUploadStorage } from '../platform/storage';
import { findCountMismatches } from '../modules/posts/recount';
import { DEMO_ADMIN, DEMO_MEMBERS, DEMO_PASSWORD } from './demo-users';
import { demoLogins, isDatabaseEmpty, SEED_LOCK_COLLECTION, seedDemoDataOnce } from './seed';

const t = useTestApp();

describe('seedDemoData', () => {
  test('when several processes seed an empty database together (one lock left by a process that died), then exactly one seeds: the admin is user 107, 20+ verified members have avatars and follows, and the demo password signs in', async () => {
    expect(await isDatabaseEmpty(t.context)).toBe(true);
    const storage = createUploadStorage(t.database.connection, t.config.publicUrl);
    const options = {
      adminUserId: 107,
      storage,
      logger: createLogger('silent'),
      bcryptRounds: 4,
    };
    const locks = t.database.connection.db!.collection<{ _id: string; until: Date }>(
      SEED_LOCK_COLLECTION,
    );
    await locks.insertOne({ _id: 'demo-data', until: new Date(Date.now() - 1_000) });
    // Three starts on one database, the third through an app of its own.
    const other = t.another({}).app;
    const seeded = await Promise.all([
      seedDemoDataOnce(t.context, options),
      seedDemoDataOnce(t.context, options),
      seedDemoDataOnce(other.appContext, { ...options, storage: other.appContext.storage }),
    ]);
    expect(seeded.filter(Boolean)).toHaveLength(1);
    expect(await locks.countDocuments()).toBe(0);
    expect(await seedDemoDataOnce(t.context, options)).toBe(false);

    const admin = await t.models.User.findById(107).lean();
    expect(admin).toMatchObject({ email: DEMO_ADMIN.email, isVerified: true });
    const members = await t.models.User.find({ _id: trusted({ $ne: 107 }) }).lean();
    expect(members.length).toBeGreaterThanOrEqual(20);
    expect(members.length).toBe(DEMO_MEMBERS.length);
    for (const member of members) {
      expect(member).toMatchObject({
        isVerified: true,
        firstSignedInAt: expect.any(Date),
        bio: expect.stringMatching(/\w/),
        avatarUrl: expect.stringMatching(/^\/uploads\/[a-f0-9]{32}\.webp$/),
      });
      expect(await storage.has(member.avatarUrl!)).toBe(true);
    }
    expect(await t.models.Follow.countDocuments()).toBeGreaterThan(members.length * 2);

    const login = await t
      .http()
      .post('/api/auth/login')
      .send({ email: DEMO_MEMBERS[0]!.email, password: DEMO_PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.firstSignIn).toBeUndefined();
    const profile = await t
      .http()
      .get('/api/users/107')
      .set('Authorization', `Bearer ${login.body.token}`);
    expect(profile.body.followersCount).toBe(DEMO_MEMBERS.length);
    expect(profile.body.avatarUrl).toMatch(/^http:\/\/api\.test\/uploads\/[a-f0-9]{32}\.webp$/);
    const avatar = await t.http().get(new URL(profile.body.avatarUrl).pathname);
    expect(avatar.status).toBe(200);
    expect(avatar.headers['content-type']).toBe('image/webp');

    // The next registration continues after the admin.
    const registered = await t
      .http()
      .post('/api/auth/register')
      .send({ name: 'New', email: 'new.student@campus.edu', password: 'long enough' });
    expect(registered.body.user.id).toBe(108);

    // Content for every screen: 200+ posts over 30 days, some today, JD posts, quoted reposts,
    // replies, likes and notifications, with counts that agree with a recount.
    expect(await t.models.Post.countDocuments({ originalPostId: null })).toBeGreaterThanOrEqual(
      200,
    );
    expect(await t.models.Post.countDocuments({ isJdTagged: true })).toBeGreaterThan(10);
    expect(
      await t.models.Post.countDocuments({ repostComment: trusted({ $ne: null }) }),
    ).toBeGreaterThan(5);
    expect(
      await t.models.Comment.countDocuments({ parentId: trusted({ $ne: null }) }),
    ).toBeGreaterThan(20);
    expect(await t.models.Like.countDocuments()).toBeGreaterThan(200);
    expect(await t.models.Notification.countDocuments({ userId: 107 })).toBeGreaterThan(0);
    const dayAgo = new Date(Date.now() - 86_400_000);
    expect(
      await t.models.Post.countDocuments({ createdAt: trusted({ $gte: dayAgo }) }),
    ).toBeGreaterThanOrEqual(15);
    const oldest = await t.models.Post.findOne().sort({ createdAt: 1 }).lean();
    expect(Date.now() - oldest!.createdAt.getTime()).toBeGreaterThan(25 * 86_400_000);
    expect(await findCountMismatches({ models: t.models })).toEqual([]);
    const top = await t
      .http()
      .get('/api/posts?topFilter=true')
      .set('Authorization', `Bearer ${login.body.token}`);
    // Top Posts is today's posts (APP_TIMEZONE, UTC here): the newest demo posts are from the
    // last three hours, so just after midnight there may be none yet.
    const today = startOfDayIn(t.context.config.timezone, new Date());
    const postedToday = await t.models.Post.countDocuments({
      createdAt: trusted({ $gte: today }),
      deletedAt: null,
    });
    if (postedToday > 0) expect(top.body.length).toBeGreaterThan(0);
    else expect(top.body).toEqual([]);

    expect(await demoLogins(t.context, 107)).toContain(`${DEMO_ADMIN.email} (admin, user 107)`);
    expect(await isDatabaseEmpty(t.context)).toBe(false);
  });
});
