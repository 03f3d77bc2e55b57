/**
 * Transactions (platform/transactions.ts): a write, the count it moves and the events that tell
 * of it commit together or not at all; concurrent writers, also through two apps with their own
 * in-process queues (as two API processes), end with every stored count equal to a recount; the
 * events reach the app's subscribers once, after the commit.
 */
import { findCountMismatches } from '../src/modules/posts/recount';
import { publish } from './content';
import { useTestApp } from './test-app';

const app = useTestApp();

const storedPost = async (id: number) => (await app.models.Post.findById(id).lean())!;
const outboxed = async (postId: number) =>
  app.models.Outbox.countDocuments({ 'events.postId': postId, 'events.type': 'post.liked' });

describe('transactions', () => {
  test('when the work fails after moving a count, writing a like and publishing its event, then none of them is stored or heard', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'all or nothing');
    const { transaction, publish: tell } = app.context;
    const heard: string[] = [];
    const stop = app.events.on('post.liked', (e) => heard.push(e.type));
    try {
      await expect(
        transaction(async () => {
          await app.models.Post.updateOne({ _id: post.id }, { $inc: { likesCount: 1 } });
          await app.models.Like.create({ _id: 999_001, userId: bob.id, postId: post.id });
          tell({ type: 'post.liked', postId: post.id, userId: bob.id });
          throw new Error('crash before the commit');
        }),
      ).rejects.toThrow('crash before the commit');
    } finally {
      stop();
    }
    expect((await storedPost(post.id)).likesCount).toBe(0);
    expect(await app.models.Like.countDocuments({ postId: post.id })).toBe(0);
    expect(await outboxed(post.id)).toBe(0);
    expect(heard).toEqual([]);
  });

  test('when two transactions move the same count at once, then the conflict is retried and both count', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'conflict');
    const { transaction } = app.context;
    let attempts = 0;
    // Both read the count, then both write it: without a retry one increment would be lost.
    let bothRead!: () => void;
    const reading = new Promise<void>((resolve) => (bothRead = resolve));
    let readers = 0;
    const increment = () =>
      transaction(async () => {
        attempts += 1;
        await app.models.Post.findById(post.id, { likesCount: 1 }).lean();
        // The first attempts wait for each other; a retry (after the conflict) goes on at once.
        if (++readers === 2) bothRead();
        if (readers <= 2) await reading;
        await app.models.Post.updateOne({ _id: post.id }, { $inc: { likesCount: 1 } });
      });
    await Promise.all([increment(), increment()]);
    expect((await storedPost(post.id)).likesCount).toBe(2);
    expect(attempts).toBeGreaterThan(2); // one of them ran again after its write conflict
    await app.models.Post.updateOne({ _id: post.id }, { $set: { likesCount: 0 } }); // no likes
  });

  test('when a transaction commits, then its events are in one outbox document and heard once, after the work', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'announced');
    const { transaction, publish: tell } = app.context;
    let workDone = false;
    const heard: Array<{ type: string; afterWork: boolean; local: boolean }> = [];
    const stop = app.events.on(['post.liked', 'post.unliked'], (e, delivery) =>
      heard.push({ type: e.type, afterWork: workDone, local: delivery.local }),
    );
    try {
      await transaction(async () => {
        tell({ type: 'post.liked', postId: post.id, userId: ada.id });
        tell({ type: 'post.unliked', postId: post.id, userId: ada.id });
        workDone = true;
      });
    } finally {
      stop();
    }
    expect(heard).toEqual([
      { type: 'post.liked', afterWork: true, local: true },
      { type: 'post.unliked', afterWork: true, local: true },
    ]);
    const docs = await app.models.Outbox.find({
      'events.type': 'post.liked',
      'events.postId': post.id,
    }).lean();
    expect(docs.map((d) => d.events.map((e) => e.type))).toEqual([['post.liked', 'post.unliked']]);
  });

  test('when an event is published outside a transaction, then it is refused (nothing would tell it)', () => {
    expect(() => app.context.publish({ type: 'profile.updated', userId: 1 })).toThrow(
      'profile.updated published outside a transaction',
    );
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
    expect(await findCountMismatches({ models: app.models })).toEqual([]);
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
  });
});
