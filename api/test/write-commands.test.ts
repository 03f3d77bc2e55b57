/**
 * What the writes of the mixed load send to the database (issue 21): a like and a follow are
 * tried first and the unique index says when the toggle is the other way; like, follow and
 * comment ids come from blocks taken once per app; a caller's account is looked up once per
 * activity window, and their activity is still recorded on time.
 */
import { trusted, type Connection } from 'mongoose';
import type { Post } from '@campus/contracts';
import { ID_BLOCK_SIZE } from '../src/modules/counters/ids';
import { publish } from './content';
import { TestClock } from './clock';
import { countQueries } from './query-counter';
import { useTestApp } from './test-app';

const app = useTestApp();

/** The account lookups behind tokens (the caller's `tokensValidAfter` read) while `fn` runs. */
async function accountLookups(connection: Connection, fn: () => Promise<unknown>) {
  let lookups = 0;
  connection.set('debug', (collection: string, method: string, ...args: unknown[]) => {
    if (
      collection === 'users' &&
      method === 'findOne' &&
      JSON.stringify(args).includes('tokensValidAfter')
    )
      lookups += 1;
  });
  try {
    await fn();
  } finally {
    connection.set('debug', false);
  }
  return lookups;
}

/** The `_id`s of the counters taken (findOneAndUpdate on `counters`) while `fn` runs. */
async function countersTaken(connection: Connection, fn: () => Promise<unknown>) {
  const taken: string[] = [];
  connection.set('debug', (collection: string, method: string, filter: { _id?: string }) => {
    if (collection === 'counters' && method === 'findOneAndUpdate') taken.push(String(filter._id));
  });
  try {
    await fn();
  } finally {
    connection.set('debug', false);
  }
  return taken;
}

describe('like toggles', () => {
  test('when a member likes, then nothing is read before the like; when they like again, then the unique index makes it an unlike', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'liked once');
    const like = () =>
      app.http().post(`/api/posts/${post.id}/like`).set('Authorization', bob.auth).expect(200);

    const liked = await countQueries(app.database.connection, like);
    expect(liked.result.body).toEqual({ liked: true, likesCount: 1 });
    expect(liked.queries.filter((q) => q.startsWith('likes.'))).toEqual(['likes.insertOne']);

    const unliked = await countQueries(app.database.connection, like);
    expect(unliked.result.body).toEqual({ liked: false, likesCount: 0 });
    // The like tried first and rolled back, then the unlike.
    expect(unliked.queries.filter((q) => q.startsWith('likes.'))).toEqual([
      'likes.insertOne',
      'likes.deleteOne',
    ]);
    expect(await app.models.Like.countDocuments({ postId: post.id })).toBe(0);
    expect((await app.models.Post.findById(post.id).lean())?.likesCount).toBe(0);
  });
});

describe('follow toggles', () => {
  test('when a member follows, then no transaction deletes first; when they follow again, then it is an unfollow that withdraws the notification', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const follow = () =>
      app.http().post(`/api/users/${ada.id}/follow`).set('Authorization', bob.auth).expect(200);

    const followed = await countQueries(app.database.connection, follow);
    expect(followed.result.body).toEqual({ following: true, followersCount: 1 });
    expect(followed.queries.filter((q) => q.startsWith('follows.'))).toEqual([
      'follows.insertOne',
      'follows.countDocuments',
    ]);
    expect(await app.models.Notification.countDocuments({ userId: ada.id, type: 'follow' })).toBe(
      1,
    );

    const unfollowed = await follow();
    expect(unfollowed.body).toEqual({ following: false, followersCount: 0 });
    expect(await app.models.Follow.countDocuments({ followerId: bob.id })).toBe(0);
    expect(await app.models.Notification.countDocuments({ userId: ada.id, type: 'follow' })).toBe(
      0,
    );
  });
});

describe('ids from blocks', () => {
  test('when members like many posts through two apps, then each app takes one block of like ids per ID_BLOCK_SIZE likes and no id is handed out twice', async () => {
    const other = app.another({});
    const ada = await app.createMember();
    const members = await Promise.all(Array.from({ length: 6 }, () => app.createMember()));
    const posts: Post[] = [];
    for (let i = 0; i < 6; i++) posts.push(await publish(app.http, ada, `post ${i}`));
    const likes = members.flatMap((m, i) =>
      posts.map((p) =>
        (i % 2 === 0 ? app.http() : other.http())
          .post(`/api/posts/${p.id}/like`)
          .set('Authorization', m.auth),
      ),
    );
    const taken = await countersTaken(app.database.connection, async () => {
      const results = await Promise.all(likes);
      // Every answer, so that a failure shows which ones were not a like.
      expect(
        results
          .filter((r) => r.status !== 200 || r.body.liked !== true)
          .map((r) => [r.status, r.body]),
      ).toEqual([]);
    });
    // 18 likes through each app: one block each (at most), whatever the concurrency.
    expect(taken.filter((id) => id === 'likes').length).toBeLessThanOrEqual(2);
    expect(ID_BLOCK_SIZE).toBeGreaterThan(18);
    const stored = await app.models.Like.find({
      postId: trusted({ $in: posts.map((p) => p.id) }),
    }).lean();
    expect(stored).toHaveLength(36);
    expect(new Set(stored.map((l) => l._id)).size).toBe(36);
    for (const p of posts)
      expect((await app.models.Post.findById(p.id).lean())?.likesCount).toBe(6);
  });
});

describe('the caller behind a token', () => {
  test('when a member calls again within the activity window, then their account is not read again; after it, it is read and the activity recorded', async () => {
    const clock = new TestClock();
    const another = app.another({ authCacheMs: 60_000, activityThrottleMs: 1_000 }, clock);
    const member = await app.createMember();
    const me = () => another.http().get('/api/auth/me').set('Authorization', member.auth);
    await me().expect(200);
    const first = (await app.lastActiveAt(member.id))!;
    expect(first).toBeInstanceOf(Date);

    expect(await accountLookups(app.database.connection, () => me().expect(200))).toBe(0);

    // Past the window the account is read again (the cache keeps it no longer), so the
    // activity is recorded on time even though AUTH_CACHE_MS is longer.
    clock.advance(1_100);
    expect(await accountLookups(app.database.connection, () => me().expect(200))).toBe(1);
    expect((await app.lastActiveAt(member.id))!.getTime()).toBeGreaterThan(first.getTime());
  });
});
