import { trusted } from 'mongoose';
import { DISCOVERY_PAGE_SIZE, MAX_BOOKMARKS, type Post, type PostPage } from '@campus/contracts';
import { feed, publish } from '../../../test/content';
import { useTestApp } from '../../../test/test-app';
import { TOO_MANY_BOOKMARKS } from './keep-bookmark';

const app = useTestApp();
type Member = Awaited<ReturnType<typeof app.createMember>>;

const keep = (viewer: Member, id: number | string) =>
  app.http().post(`/api/posts/${id}/bookmark`).set('Authorization', viewer.auth).send({});
const drop = (viewer: Member, id: number | string) =>
  app.http().delete(`/api/posts/${id}/bookmark`).set('Authorization', viewer.auth);

async function page(viewer: Member, cursor?: string): Promise<PostPage> {
  const res = await app
    .http()
    .get('/api/bookmarks')
    .query(cursor ? { cursor } : {})
    .set('Authorization', viewer.auth)
    .expect(200);
  return res.body as PostPage;
}

async function allPages(viewer: Member): Promise<number[][]> {
  const pages: number[][] = [];
  let cursor: string | undefined;
  do {
    const next = await page(viewer, cursor);
    pages.push(next.posts.map((p) => p.id));
    cursor = next.nextCursor ?? undefined;
  } while (cursor);
  return pages;
}

async function detail(viewer: Member, id: number): Promise<Post> {
  const res = await app
    .http()
    .get(`/api/posts/${id}`)
    .set('Authorization', viewer.auth)
    .expect(200);
  return res.body as Post;
}

describe('POST and DELETE /api/posts/:id/bookmark', () => {
  test('when a member bookmarks a post twice, then it is kept once and flagged for them alone', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'worth keeping');
    expect((await keep(bob, post.id).expect(200)).body).toEqual({
      postId: post.id,
      bookmarked: true,
    });
    await keep(bob, post.id).expect(200);
    expect(await app.models.Bookmark.countDocuments({ userId: bob.id })).toBe(1);

    // Feed (its cached JSON), detail and profile all say so to bob, and to no one else.
    const inFeed = (viewer: Member) =>
      feed(app.http, viewer).then((posts) => posts.find((p) => p.id === post.id)!);
    expect((await inFeed(bob)).isBookmarked).toBe(true);
    expect((await inFeed(ada)).isBookmarked).toBe(false);
    expect((await detail(bob, post.id)).isBookmarked).toBe(true);
    expect((await detail(ada, post.id)).isBookmarked).toBe(false);
    const profile = await app
      .http()
      .get(`/api/users/${ada.id}`)
      .set('Authorization', bob.auth)
      .expect(200);
    const onProfile = (profile.body as { posts: Post[] }).posts.find((p) => p.id === post.id);
    expect(onProfile?.isBookmarked).toBe(true);
    // No count anywhere.
    expect(JSON.stringify(await detail(ada, post.id))).not.toMatch(/bookmark[a-z]*Count/i);

    expect((await drop(bob, post.id).expect(200)).body).toEqual({
      postId: post.id,
      bookmarked: false,
    });
    await drop(bob, post.id).expect(200);
    expect((await inFeed(bob)).isBookmarked).toBe(false);
    expect((await page(bob)).posts).toEqual([]);
  });

  test('when a bookmarked post is quoted, then the quote shows its original as bookmarked, the quote itself not', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const original = await publish(app.http, ada, 'quoted later');
    await keep(bob, original.id).expect(200);
    const quote = await app
      .http()
      .post(`/api/posts/${original.id}/repost`)
      .set('Authorization', ada.auth)
      .send({ comment: 'my own words' })
      .expect(201);
    const inFeed = (await feed(app.http, bob)).find((p) => p.id === quote.body.id)!;
    expect([inFeed.isBookmarked, inFeed.originalPost?.isBookmarked]).toEqual([false, true]);
    expect((quote.body as Post).isBookmarked).toBe(false);
  });

  test('when the post cannot be seen, then bookmarking it is a 404', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    expect((await keep(bob, 99_999_999).expect(404)).body).toEqual({ message: 'Post not found' });
    await keep(bob, 'abc').expect(404);
    await drop(bob, 99_999_999).expect(404);
    const post = await publish(app.http, ada, 'not for bob');
    await app.http().post(`/api/users/${bob.id}/block`).set('Authorization', ada.auth).expect(200);
    await keep(bob, post.id).expect(404);
    const gone = await publish(app.http, ada, 'deleted soon');
    await app.http().delete(`/api/posts/${gone.id}`).set('Authorization', ada.auth).expect(200);
    await keep(ada, gone.id).expect(404);
    await app.http().post(`/api/posts/${post.id}/bookmark`).send({}).expect(401);
  });

  test(`when a member has ${MAX_BOOKMARKS} bookmarks, then one more is a 400 naming the limit`, async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'one too many');
    const first = await app.context.ids.nextId('bookmarks');
    await app.models.Bookmark.insertMany(
      Array.from({ length: MAX_BOOKMARKS }, (_, i) => ({
        _id: first + 1_000_000 + i,
        userId: bob.id,
        postId: 10_000_000 + i,
        createdAt: new Date(),
      })),
    );
    const res = await keep(bob, post.id).expect(400);
    expect(res.body.message).toBe(TOO_MANY_BOOKMARKS);
    expect(TOO_MANY_BOOKMARKS).toContain('10,000');
    await app.models.Bookmark.deleteMany({ userId: bob.id, postId: trusted({ $gte: 10_000_000 }) });
    await keep(bob, post.id).expect(200);
  });
});

describe('GET /api/bookmarks', () => {
  test('when a member pages their bookmarks, then the newest bookmark comes first, with no post twice or missed', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const posts: Post[] = [];
    for (let i = 0; i < DISCOVERY_PAGE_SIZE + 5; i++)
      posts.push(await publish(app.http, ada, `n${i}`));
    // Kept in another order than written: the bookmark's time decides.
    const order = [...posts].reverse().filter((_, i) => i % 2 === 0);
    order.push(...[...posts].reverse().filter((_, i) => i % 2 === 1));
    for (const p of order) await keep(bob, p.id).expect(200);
    const pages = await allPages(bob);
    expect(pages.map((p) => p.length)).toEqual([DISCOVERY_PAGE_SIZE, 5]);
    expect(pages.flat()).toEqual(order.map((p) => p.id).reverse());
    const first = await page(bob);
    expect(first.posts.every((p) => p.isBookmarked)).toBe(true);
    // Private: another member's page has none of them.
    expect((await page(ada)).posts).toEqual([]);
  });

  test('when a bookmarked post is deleted, or its author blocks or is muted by the member, then it leaves the page', async () => {
    const ada = await app.createMember();
    const cy = await app.createMember();
    const dee = await app.createMember();
    const bob = await app.createMember();
    const kept = await publish(app.http, ada, 'stays');
    const deleted = await publish(app.http, ada, 'deleted');
    const blocked = await publish(app.http, cy, 'cy blocks bob');
    const muted = await publish(app.http, dee, 'bob mutes dee');
    for (const p of [kept, deleted, blocked, muted]) await keep(bob, p.id).expect(200);
    await app.http().delete(`/api/posts/${deleted.id}`).set('Authorization', ada.auth).expect(200);
    await app.http().post(`/api/users/${bob.id}/block`).set('Authorization', cy.auth).expect(200);
    await app
      .http()
      .post(`/api/users/${dee.id}/mute`)
      .set('Authorization', bob.auth)
      .send({})
      .expect(200);
    expect((await page(bob)).posts.map((p) => p.id)).toEqual([kept.id]);
    // The deleted post's bookmark went with it.
    expect(await app.models.Bookmark.exists({ postId: deleted.id })).toBeNull();
    expect(await app.models.Bookmark.exists({ postId: blocked.id, userId: bob.id })).not.toBeNull();
  });

  test('when the cursor is not one a page gave, then it is a 400', async () => {
    const bob = await app.createMember();
    for (const cursor of ['abc', '12', '1.2.3', '$where']) {
      const res = await app
        .http()
        .get('/api/bookmarks')
        .query({ cursor })
        .set('Authorization', bob.auth);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('The cursor must be a nextCursor from a page before');
    }
  });

  test('when a member deletes their account, then their bookmarks and everyone’s of their posts go', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const adaPost = await publish(app.http, ada, 'mine');
    const bobPost = await publish(app.http, bob, 'yours');
    await keep(bob, adaPost.id).expect(200);
    await keep(ada, bobPost.id).expect(200);
    await app
      .http()
      .delete(`/api/users/${ada.id}`)
      .set('Authorization', ada.auth)
      .send({ password: 'correct horse battery' })
      .expect(204);
    expect(await app.models.Bookmark.countDocuments({ userId: ada.id })).toBe(0);
    expect(await app.models.Bookmark.countDocuments({ postId: adaPost.id })).toBe(0);
    expect((await page(bob)).posts).toEqual([]);
  });
});
