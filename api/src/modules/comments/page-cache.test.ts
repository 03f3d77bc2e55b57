import type { Comment, CommentPage, PostDetail } from '@campus/contracts';
import type request from 'supertest';
import { publish } from '../../../test/content';
import { removeCommentByModeration } from './moderation';
import { countQueries } from '../../../test/query-counter';
import { startOtherProcessApp, useTestApp } from '../../../test/test-app';

const app = useTestApp();
// A page and a half of comments, each through the API, on a busy machine.
jest.setTimeout(120_000);
type Member = Awaited<ReturnType<typeof app.createMember>>;
type Http = () => ReturnType<typeof request>;

async function detail(http: Http, viewer: Member, postId: number): Promise<PostDetail> {
  return (await http().get(`/api/posts/${postId}`).set('Authorization', viewer.auth).expect(200))
    .body as PostDetail;
}

async function comment(author: Member, postId: number, content: string, parentId?: number) {
  const res = await app
    .http()
    .post(`/api/posts/${postId}/comments`)
    .set('Authorization', author.auth)
    .send({ content, ...(parentId === undefined ? {} : { parentId }) })
    .expect(201);
  return res.body as Comment;
}

describe('post detail and its comment pages (read cache)', () => {
  test('when a post with comments is opened again, then the detail and the next page come without a database round trip', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'talked about');
    for (let i = 1; i <= 21; i++) await comment(bob, post.id, `comment ${i}`);
    const first = await detail(app.http, ada, post.id);
    const pageTwo = () =>
      app
        .http()
        .get(`/api/posts/${post.id}/comments`)
        .query({ cursor: first.commentsNextCursor })
        .set('Authorization', ada.auth)
        .expect(200)
        .then((res) => res.body as CommentPage);
    const second = await pageTwo();
    expect(second.comments).toHaveLength(1);
    const again = await countQueries(app.database.connection, async () => [
      await detail(app.http, ada, post.id),
      await pageTwo(),
    ]);
    expect(again.queries).toEqual([]);
    expect(again.result).toEqual([first, second]);
  });

  test('when a comment, a reply or a like is added, or a comment removed, then the next detail shows it at once', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'busy');
    const c1 = await comment(bob, post.id, 'first');
    expect((await detail(app.http, ada, post.id)).comments.map((c) => c.id)).toEqual([c1.id]);

    const r1 = await comment(ada, post.id, 'a reply', c1.id);
    const c2 = await comment(bob, post.id, 'second');
    const shown = await detail(app.http, ada, post.id);
    expect(shown.comments.map((c) => c.id)).toEqual([c1.id, c2.id]);
    expect(shown.comments[0]!.replies!.map((r) => r.id)).toEqual([r1.id]);
    expect(shown.commentsCount).toBe(3);

    await app.http().post(`/api/comments/${c2.id}/like`).set('Authorization', ada.auth).expect(200);
    expect((await detail(app.http, ada, post.id)).comments[1]).toMatchObject({
      likesCount: 1,
      isLiked: true,
    });
    // Bob sees the count, not Ada's like.
    expect((await detail(app.http, bob, post.id)).comments[1]).toMatchObject({
      likesCount: 1,
      isLiked: false,
    });

    const removed = await app.context.transaction(() =>
      removeCommentByModeration(app.context, c1.id, new Date()),
    );
    expect(removed?.commentIds).toEqual([c1.id, r1.id]);
    expect((await detail(app.http, ada, post.id)).comments.map((c) => c.id)).toEqual([c2.id]);

    await app.http().delete(`/api/posts/${post.id}`).set('Authorization', ada.auth).expect(200);
    await app.http().get(`/api/posts/${post.id}`).set('Authorization', ada.auth).expect(404);
    await app
      .http()
      .get(`/api/posts/${post.id}/comments`)
      .set('Authorization', ada.auth)
      .expect(404);
  });

  test('when the API keeps nothing (READ_CACHE_MS=0), then the viewer’s likes are looked up only for comments with likes', async () => {
    const uncached = app.another({ readCacheMs: 0, authorCacheMs: 0 });
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'quiet comments');
    const c1 = await comment(bob, post.id, 'first');
    await comment(ada, post.id, 'a reply', c1.id);
    const c2 = await comment(bob, post.id, 'second');
    const likesOf = (queries: string[]) => queries.filter((q) => q.startsWith('likes.'));
    // The post has no likes either: nothing of the viewer's is looked up.
    const quiet = await countQueries(app.database.connection, () =>
      detail(uncached.http, ada, post.id),
    );
    expect(likesOf(quiet.queries)).toEqual([]);
    expect(quiet.result.comments.map((c) => c.isLiked)).toEqual([false, false]);

    await app.http().post(`/api/comments/${c2.id}/like`).set('Authorization', ada.auth).expect(200);
    const liked = await countQueries(app.database.connection, () =>
      detail(uncached.http, ada, post.id),
    );
    expect(likesOf(liked.queries)).toHaveLength(1);
    expect(liked.result.comments[1]).toMatchObject({ id: c2.id, likesCount: 1, isLiked: true });
    expect(liked.result.comments[0]).toMatchObject({ likesCount: 0, isLiked: false });
    expect((await detail(uncached.http, bob, post.id)).comments[1]).toMatchObject({
      likesCount: 1,
      isLiked: false,
    });
  });

  test('when many viewers open the same post at once, then its comments are read from the database once (single flight)', async () => {
    const ada = await app.createMember();
    const viewers: Member[] = [];
    for (let i = 0; i < 5; i++) viewers.push(await app.createMember());
    const post = await publish(app.http, ada, 'popular');
    await comment(ada, post.id, 'hello');
    for (const v of viewers) await detail(app.http, v, post.id); // accounts and likes known
    const reads = (queries: string[]) => queries.filter((q) => q === 'comments.find').length;
    app.caches.comments.clear();
    const one = await countQueries(app.database.connection, () =>
      detail(app.http, viewers[0]!, post.id),
    );
    app.caches.comments.clear();
    const many = await countQueries(app.database.connection, () =>
      Promise.all(viewers.map((v) => detail(app.http, v, post.id))),
    );
    expect(reads(one.queries)).toBeGreaterThan(0);
    expect(reads(many.queries)).toBe(reads(one.queries));
  });

  test('when another API process (its own connection, caches kept for a minute) serves the detail, then a comment and a comment like made here are in its next read', async () => {
    const other = await startOtherProcessApp(app);
    const viaOther = other.http;
    try {
      const ada = await app.createMember();
      const bob = await app.createMember();
      const post = await publish(app.http, ada, 'watched elsewhere');
      const c1 = await comment(bob, post.id, 'first');
      await detail(viaOther, ada, post.id);
      expect(
        (await countQueries(other.connection, () => detail(viaOther, ada, post.id))).queries,
      ).toEqual([]);

      const c2 = await comment(bob, post.id, 'second');
      await other.caughtUp();
      expect((await detail(viaOther, ada, post.id)).comments.map((c) => c.id)).toEqual([
        c1.id,
        c2.id,
      ]);

      await app
        .http()
        .post(`/api/comments/${c1.id}/like`)
        .set('Authorization', ada.auth)
        .expect(200);
      await other.caughtUp();
      expect((await detail(viaOther, ada, post.id)).comments[0]).toMatchObject({
        id: c1.id,
        likesCount: 1,
        isLiked: true,
      });
    } finally {
      await other.close();
    }
  });
});
