import sharp from 'sharp';
import { loadConfig, MEMBER_ACTIONS, type Config, type MemberAction } from '../src/platform/config';
import { TestClock } from './clock';
import { useTestApp } from './test-app';

const t = useTestApp();

/**
 * An app whose only limit is `perMinute` of `action` (each call builds a fresh app: fresh counts).
 * The limits count in windows aligned to the clock (a minute starts at :00): the app's clock is
 * stopped a second into the next minute, so every request of a test falls in one window however
 * slow the machine (and the window's record, in the future, is not one the TTL index removes).
 */
function limitedTo(action: MemberAction, perMinute: number) {
  const memberLimits = Object.fromEntries(
    MEMBER_ACTIONS.map((a) => [a, { perMinute: a === action ? perMinute : 0, perDay: 0 }]),
  ) as Config['memberLimits'];
  const clock = new TestClock();
  clock.freeze(Math.ceil(Date.now() / 60_000) * 60_000 + 1_000);
  return t.another({ memberLimits }, clock);
}

describe('per-member limits on the real routes', () => {
  test('when a member posts more than allowed in a minute, then 429 says so with Retry-After, nothing is stored, and another member may still post', async () => {
    const client = limitedTo('posts', 2);
    const member = await t.createMember();
    const other = await t.createMember();
    const post = (who: typeof member) =>
      client.http().post('/api/posts').set('Authorization', who.auth).send({ content: 'Hello' });
    await post(member).expect(201);
    await post(member).expect(201);
    const limited = await post(member);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      message: expect.stringMatching(
        /^Too many posts: you can make at most 2 posts per minute\. Please try again in \d+ seconds?\.$/,
      ),
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.models.Post.countDocuments({ authorId: member.id })).toBe(2);
    await post(other).expect(201);
  });

  test('when comments arrive all at once, then only the allowed number is stored and notified', async () => {
    const client = limitedTo('comments', 5);
    const author = await t.createMember();
    const commenter = await t.createMember();
    const created = await client
      .http()
      .post('/api/posts')
      .set('Authorization', author.auth)
      .send({ content: 'Comment on me' })
      .expect(201);
    const statuses = await Promise.all(
      Array.from({ length: 25 }, () =>
        client
          .http()
          .post(`/api/posts/${created.body.id}/comments`)
          .set('Authorization', commenter.auth)
          .send({ content: 'x'.repeat(2000) })
          .then((res) => res.status),
      ),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    expect(await t.models.Comment.countDocuments({ postId: created.body.id })).toBe(5);
    expect(await t.models.Notification.countDocuments({ userId: author.id, type: 'comment' })).toBe(
      5,
    );
  });

  test('when a member likes posts and comments, then both count towards the one likes limit', async () => {
    const client = limitedTo('likes', 2);
    const member = await t.createMember();
    const created = await client
      .http()
      .post('/api/posts')
      .set('Authorization', member.auth)
      .send({ content: 'Like me' })
      .expect(201);
    const comment = await client
      .http()
      .post(`/api/posts/${created.body.id}/comments`)
      .set('Authorization', member.auth)
      .send({ content: 'And me' })
      .expect(201);
    await client
      .http()
      .post(`/api/posts/${created.body.id}/like`)
      .set('Authorization', member.auth)
      .expect(200);
    await client
      .http()
      .post(`/api/comments/${comment.body.id}/like`)
      .set('Authorization', member.auth)
      .expect(200);
    const limited = await client
      .http()
      .post(`/api/posts/${created.body.id}/like`)
      .set('Authorization', member.auth);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(
      /^Too many likes: you can make at most 2 likes per minute/,
    );
  });

  test('when a member reposts or follows too often, then 429', async () => {
    const reposting = limitedTo('reposts', 1);
    const following = limitedTo('follows', 1);
    const member = await t.createMember();
    const [a, b] = [await t.createMember(), await t.createMember()];
    const posts = await Promise.all(
      [a, b].map((author) =>
        t.http().post('/api/posts').set('Authorization', author.auth).send({ content: 'Share' }),
      ),
    );
    const repost = (index: number) =>
      reposting
        .http()
        .post(`/api/posts/${posts[index]!.body.id}/repost`)
        .set('Authorization', member.auth)
        .send({});
    await repost(0).expect(201);
    expect((await repost(1)).status).toBe(429);

    const follow = (target: typeof a) =>
      following.http().post(`/api/users/${target.id}/follow`).set('Authorization', member.auth);
    await follow(a).expect(200);
    const limited = await follow(b);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Too many follows: you can make at most 1 follow per/);
  });

  test('when a member uploads more avatars than allowed in a day, then 429 and no file is written', async () => {
    const memberLimits = Object.fromEntries(
      MEMBER_ACTIONS.map((a) => [a, { perMinute: 0, perDay: a === 'avatars' ? 2 : 0 }]),
    ) as Config['memberLimits'];
    const client = t.another({ memberLimits });
    const member = await t.createMember();
    const png = await sharp({
      create: { width: 16, height: 16, channels: 3, background: { r: 1, g: 2, b: 3 } },
    })
      .png()
      .toBuffer();
    const upload = () =>
      client
        .http()
        .post('/api/upload/avatar')
        .set('Authorization', member.auth)
        .attach('avatar', png, 'me.png');
    await upload().expect(201);
    await upload().expect(201);
    const limited = await upload();
    expect(limited.status).toBe(429);
    // Day windows are aligned to the clock, so the wait is what is left of today: the message
    // rounds the Retry-After seconds up to whole hours (or minutes in the last 90 minutes).
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    const wait =
      retryAfter < 90
        ? `${retryAfter} second${retryAfter === 1 ? '' : 's'}`
        : retryAfter < 90 * 60
          ? `${Math.ceil(retryAfter / 60)} minutes`
          : `${Math.ceil(retryAfter / 3600)} hours`;
    expect(limited.body.message).toBe(
      `Too many profile picture uploads: you can make at most 2 profile picture uploads per day. Please try again in ${wait}.`,
    );
  });
});

describe('people search', () => {
  test('when a member searches more often than allowed, then 429 with Retry-After says so, and another member may still search', async () => {
    const client = limitedTo('searches', 3);
    const [member, other] = [await t.createMember(), await t.createMember()];
    const search = (who: typeof member, q: string) =>
      client.http().get(`/api/users?q=${q}`).set('Authorization', who.auth);
    for (const letter of ['a', 'b', 'c']) await search(member, letter).expect(200);
    const limited = await search(member, 'd');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      message: expect.stringMatching(
        /^Too many searches: you can make at most 3 searches per minute\. Please try again in \d+ seconds?\.$/,
      ),
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await search(other, 'd').expect(200);
  });

  test('when nobody is signed in, then search is a 401 that counts against nobody', async () => {
    const client = limitedTo('searches', 1);
    for (let i = 0; i < 3; i += 1) await client.http().get('/api/users?q=a').expect(401);
    const member = await t.createMember();
    await client.http().get('/api/users?q=a').set('Authorization', member.auth).expect(200);
  });

  test('when nothing is configured, then search is limited per minute and per day', () => {
    const { searches } = loadConfig({}).memberLimits;
    expect(searches.perMinute).toBeGreaterThan(0);
    expect(searches.perDay).toBeGreaterThan(0);
    const set = loadConfig({
      RATE_LIMIT_SEARCHES_PER_MINUTE: '7',
      RATE_LIMIT_SEARCHES_PER_DAY: '70',
    }).memberLimits.searches;
    expect(set).toEqual({ perMinute: 7, perDay: 70 });
  });
});
