/**
 * Atomic counts (modules/counters/atomic.ts): a write and the count it moves commit together or
 * not at all; concurrent writers, also through two apps with their own in-process queues (as
 * two API processes), end with every stored count equal to a recount; read caches hear of the
 * writes again once the transaction has committed.
 */
import { atomicallyOn } from '../src/modules/counters/atomic';
import { findCountMismatches } from '../src/modules/posts/recount';
import { onWrites } from '../src/platform/write-events';
import { publish } from './content';
import { useTestApp } from './test-app';

const app = useTestApp();

const storedPost = async (id: number) => (await app.models.Post.findById(id).lean())!;

describe('atomically', () => {
  test('when the work fails after moving a count and writing a like, then neither is stored', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'all or nothing');
    const atomically = atomicallyOn(app.database.connection);
    await expect(
      atomically(async () => {
        await app.models.Post.updateOne({ _id: post.id }, { $inc: { likesCount: 1 } });
        await app.models.Like.create({ _id: 999_001, userId: bob.id, postId: post.id });
        throw new Error('crash before the commit');
      }),
    ).rejects.toThrow('crash before the commit');
    expect((await storedPost(post.id)).likesCount).toBe(0);
    expect(await app.models.Like.countDocuments({ postId: post.id })).toBe(0);
  });

  test('when two transactions move the same count at once, then the conflict is retried and both count', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'conflict');
    const atomically = atomicallyOn(app.database.connection);
    let attempts = 0;
    // Both read the count, then both write it: without a retry one increment would be lost.
    let bothRead!: () => void;
    const reading = new Promise<void>((resolve) => (bothRead = resolve));
    let readers = 0;
    const increment = () =>
      atomically(async () => {
        attempts += 1;
        await app.models.Post.findById(post.id, { likesCount: 1 }).lean();
        if (++readers === 2) bothRead();
        await Promise.race([reading, new Promise((r) => setTimeout(r, 2_000))]);
        await app.models.Post.updateOne({ _id: post.id }, { $inc: { likesCount: 1 } });
      });
    await Promise.all([increment(), increment()]);
    expect((await storedPost(post.id)).likesCount).toBe(2);
    expect(attempts).toBeGreaterThan(2); // one of them ran again after its write conflict
    await app.models.Post.updateOne({ _id: post.id }, { $set: { likesCount: 0 } }); // no likes
  });

  test('when a transaction commits, then its writes are announced again after the work', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'announced');
    const atomically = atomicallyOn(app.database.connection);
    let workDone = false;
    const afterWork: string[] = [];
    const stop = onWrites(app.database.connection, (collection) => {
      if (workDone) afterWork.push(collection);
    });
    try {
      await atomically(async () => {
        await app.models.Post.updateOne({ _id: post.id }, { $inc: { commentsCount: 1 } });
        workDone = true;
      });
    } finally {
      stop();
    }
    // Only the commit and the announcement come after the work: a reader that cached the post
    // while the transaction was open is told again.
    expect(afterWork).toEqual(['posts']);
    await app.models.Post.updateOne({ _id: post.id }, { $set: { commentsCount: 0 } }); // none
  });
});

describe('concurrent writes on one post', () => {
  test('when members toggle likes, double-click, comment and repost at once through two apps, then every count is exact', async () => {
    const other = app.another({});
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'busy');
    const members = await Promise.all(Array.from({ length: 24 }, () => app.createMember()));
    const client = (i: number) => (i % 2 === 0 ? app.http() : other.http());
    const calls = members.flatMap((m, i) => {
      const auth = { Authorization: m.auth };
      const like = () => client(i).post(`/api/posts/${post.id}/like`).set(auth);
      return [
        like(),
        // A third of them double-click: two toggles at once.
        ...(i % 3 === 0 ? [like()] : []),
        client(i + 1)
          .post(`/api/posts/${post.id}/comments`)
          .set(auth)
          .send({ content: `c${i}` }),
        ...(i % 4 === 0 ? [client(i).post(`/api/posts/${post.id}/repost`).set(auth).send({})] : []),
      ];
    });
    const results = await Promise.all(calls);
    expect(results.filter((r) => r.status >= 300)).toEqual([]);

    const likes = await app.models.Like.countDocuments({ postId: post.id });
    const stored = await storedPost(post.id);
    expect(stored.likesCount).toBe(likes);
    // Members who clicked once like it; a double click is like + unlike or one like, never two.
    expect(likes).toBeGreaterThanOrEqual(members.length - Math.ceil(members.length / 3));
    expect(stored.commentsCount).toBe(members.length);
    expect(stored.repostsCount).toBe(members.length / 4);
    expect(await findCountMismatches({ models: app.models, ...app.services })).toEqual([]);
  }, 120_000);

  test('when one member likes the same post from two apps at once, then it is one like', async () => {
    const other = app.another({});
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'twice');
    const [first, second] = await Promise.all(
      [app.http(), other.http()].map((client) =>
        client.post(`/api/posts/${post.id}/like`).set('Authorization', bob.auth),
      ),
    );
    const likes = await app.models.Like.countDocuments({ postId: post.id, userId: bob.id });
    expect((await storedPost(post.id)).likesCount).toBe(likes);
    expect(likes).toBeLessThanOrEqual(1);
    // Each answer is a state that existed: liked with 1, or unliked with 0.
    for (const r of [first!, second!]) {
      expect(r.status).toBe(200);
      expect(r.body.likesCount).toBe(r.body.liked ? 1 : 0);
    }
  }, 60_000);
});
