import { useTestApp } from '../../../test/test-app';
import { publish } from '../../../test/content';

const app = useTestApp();

describe('POST /api/posts/:id/like', () => {
  test('when a member likes and unlikes, then liked and likesCount follow each toggle', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'likeable');
    const like = () =>
      app.http().post(`/api/posts/${post.id}/like`).set('Authorization', bob.auth).expect(200);
    expect((await like()).body).toEqual({ liked: true, likesCount: 1 });
    expect((await like()).body).toEqual({ liked: false, likesCount: 0 });
    expect((await like()).body).toEqual({ liked: true, likesCount: 1 });
    expect(await app.models.Like.countDocuments({ postId: post.id })).toBe(1);
  });

  test('when 60 members toggle at once, then the count is exactly 60', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'popular');
    const members = await Promise.all(Array.from({ length: 60 }, () => app.createMember()));
    const results = await Promise.all(
      members.map((m) =>
        app.http().post(`/api/posts/${post.id}/like`).set('Authorization', m.auth),
      ),
    );
    expect(results.every((r) => r.status === 200 && r.body.liked === true)).toBe(true);
    expect((await app.models.Post.findById(post.id).lean())?.likesCount).toBe(60);
    expect(await app.models.Like.countDocuments({ postId: post.id })).toBe(60);
    // And back down, all at once.
    await Promise.all(
      members
        .slice(0, 36)
        .map((m) => app.http().post(`/api/posts/${post.id}/like`).set('Authorization', m.auth)),
    );
    expect((await app.models.Post.findById(post.id).lean())?.likesCount).toBe(24);
    expect(await app.models.Like.countDocuments({ postId: post.id })).toBe(24);
  });

  test('when the same member double-clicks, then the count moves by at most one', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'double click');
    await Promise.all(
      [1, 2].map(() =>
        app.http().post(`/api/posts/${post.id}/like`).set('Authorization', bob.auth),
      ),
    );
    const likes = await app.models.Like.countDocuments({ postId: post.id });
    expect((await app.models.Post.findById(post.id).lean())?.likesCount).toBe(likes);
  });

  test('when a member likes, unlikes and likes again, then the author has one like notification', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'notify once');
    for (let i = 0; i < 3; i++) {
      await app
        .http()
        .post(`/api/posts/${post.id}/like`)
        .set('Authorization', bob.auth)
        .expect(200);
    }
    expect(
      await app.models.Notification.countDocuments({
        userId: ada.id,
        type: 'like',
        postId: post.id,
      }),
    ).toBe(1);
  });

  test('when authors like their own post, then nobody is notified', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'self like');
    await app.http().post(`/api/posts/${post.id}/like`).set('Authorization', ada.auth).expect(200);
    expect(await app.models.Notification.countDocuments({ userId: ada.id })).toBe(0);
  });

  test('when the post is missing or deleted, then it is a 404 and nothing is stored', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'gone');
    await app.http().delete(`/api/posts/${post.id}`).set('Authorization', ada.auth).expect(200);
    await app.http().post(`/api/posts/${post.id}/like`).set('Authorization', ada.auth).expect(404);
    await app.http().post('/api/posts/987654/like').set('Authorization', ada.auth).expect(404);
    expect(await app.models.Like.countDocuments({ postId: post.id })).toBe(0);
  });
});

describe('POST /api/comments/:id/like', () => {
  test('when a member likes a comment, then the comment shows the like for that member only', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'with a comment');
    const comment = await app
      .http()
      .post(`/api/posts/${post.id}/comments`)
      .set('Authorization', ada.auth)
      .send({ content: 'first', syncToTimeline: false })
      .expect(201);
    const res = await app
      .http()
      .post(`/api/comments/${comment.body.id}/like`)
      .set('Authorization', bob.auth)
      .expect(200);
    expect(res.body).toEqual({ liked: true, likesCount: 1 });
    const asBob = await app.http().get(`/api/posts/${post.id}`).set('Authorization', bob.auth);
    expect(asBob.body.comments[0]).toMatchObject({ likesCount: 1, isLiked: true });
    const asAda = await app.http().get(`/api/posts/${post.id}`).set('Authorization', ada.auth);
    expect(asAda.body.comments[0]).toMatchObject({ likesCount: 1, isLiked: false });
    // A post like and a comment like with the same number are different targets.
    expect((await app.models.Post.findById(post.id).lean())?.likesCount).toBe(0);
    expect((await app.models.Comment.findById(comment.body.id).lean())?.likesCount).toBe(1);
  });

  test('when the comment does not exist, then it is a 404', async () => {
    const ada = await app.createMember();
    const res = await app
      .http()
      .post('/api/comments/999999/like')
      .set('Authorization', ada.auth)
      .expect(404);
    expect(res.body.message).toBe('Comment not found');
  });
});
