import type { Comment, CommentPage, PostDetail } from '@campus/contracts';
import { publish } from '../../../test/content';
import { useTestApp } from '../../../test/test-app';

const app = useTestApp();

describe("a post's comments, a page at a time", () => {
  test('when a post has 25 comments, then the detail holds the first 20 with their replies and the next page the other 5', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'many comments');
    const ids: number[] = [];
    for (let i = 1; i <= 25; i++) {
      const res = await app
        .http()
        .post(`/api/posts/${post.id}/comments`)
        .set('Authorization', bob.auth)
        .send({ content: `comment ${i}` })
        .expect(201);
      ids.push((res.body as Comment).id);
    }
    // Replies to the first and to the 22nd, made last: they come with their comment's page.
    for (const parentId of [ids[0]!, ids[21]!]) {
      await app
        .http()
        .post(`/api/posts/${post.id}/comments`)
        .set('Authorization', ada.auth)
        .send({ content: `reply to ${parentId}`, parentId })
        .expect(201);
    }

    const detail = (
      await app.http().get(`/api/posts/${post.id}`).set('Authorization', ada.auth).expect(200)
    ).body as PostDetail;
    expect(detail.comments.map((c) => c.id)).toEqual(ids.slice(0, 20));
    expect(detail.comments[0]!.replies!.map((r) => r.content)).toEqual([`reply to ${ids[0]}`]);
    expect(detail.commentsNextCursor).toEqual(expect.any(String));

    const next = (
      await app
        .http()
        .get(`/api/posts/${post.id}/comments`)
        .query({ cursor: detail.commentsNextCursor })
        .set('Authorization', ada.auth)
        .expect(200)
    ).body as CommentPage;
    expect(next.comments.map((c) => c.id)).toEqual(ids.slice(20));
    expect(next.comments[1]!.replies!.map((r) => r.content)).toEqual([`reply to ${ids[21]}`]);
    expect(next.nextCursor).toBeNull();

    // Without a cursor: the first page, as the detail shows it.
    const first = (
      await app.http().get(`/api/posts/${post.id}/comments`).set('Authorization', bob.auth)
    ).body as CommentPage;
    expect(first.comments.map((c) => c.id)).toEqual(ids.slice(0, 20));
    expect(first.nextCursor).toBe(detail.commentsNextCursor);
  });

  test('when the cursor is not one a page gave, then 400 with the reason; an unknown post is 404', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'a post');
    const bad = await app
      .http()
      .get(`/api/posts/${post.id}/comments?cursor=yesterday`)
      .set('Authorization', ada.auth)
      .expect(400);
    expect(bad.body.message).toContain('The cursor must be a nextCursor from a page of comments');
    await app.http().get(`/api/posts/999999/comments`).set('Authorization', ada.auth).expect(404);
    await app.http().get(`/api/posts/${post.id}/comments`).expect(401);
  });
});
