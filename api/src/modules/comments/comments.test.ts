import { useTestApp } from '../../../test/test-app';
import { feed, publish } from '../../../test/content';

const app = useTestApp();

function comment(member: { auth: string }, postId: number, body: object) {
  return app
    .http()
    .post(`/api/posts/${postId}/comments`)
    .set('Authorization', member.auth)
    .send(body);
}

describe('POST /api/posts/:id/comments', () => {
  test('when members comment and reply, then the detail lists comments with one level of replies', async () => {
    const ada = await app.createMember({ name: 'Ada' });
    const bob = await app.createMember({ name: 'Bob' });
    const post = await publish(app.http, ada, 'discuss');
    const top = await comment(bob, post.id, {
      content: '  top level  ',
      syncToTimeline: false,
    }).expect(201);
    expect(top.body).toMatchObject({
      content: 'top level',
      author: { id: bob.id, name: 'Bob' },
      likesCount: 0,
      isLiked: false,
      replies: [],
    });
    const reply = await comment(ada, post.id, {
      content: 'a reply',
      syncToTimeline: false,
      parentId: top.body.id,
    }).expect(201);
    // A reply to a reply attaches to the top-level comment.
    await comment(bob, post.id, {
      content: 'reply to reply',
      syncToTimeline: false,
      parentId: reply.body.id,
    }).expect(201);
    const detail = await app
      .http()
      .get(`/api/posts/${post.id}`)
      .set('Authorization', ada.auth)
      .expect(200);
    expect(detail.body.commentsCount).toBe(3);
    expect(detail.body.comments).toHaveLength(1);
    expect(detail.body.comments[0].content).toBe('top level');
    expect(detail.body.comments[0].replies.map((r: { content: string }) => r.content)).toEqual([
      'a reply',
      'reply to reply',
    ]);
    expect((await app.models.Comment.findById(reply.body.id).lean())?.parentId).toBe(top.body.id);
  });

  test('when syncToTimeline is set, then the comment is also published as a quote of the post', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'quotable');
    await comment(bob, post.id, { content: 'my take', syncToTimeline: true }).expect(201);
    const shared = (await feed(app.http, bob, '?limit=50')).find(
      (p) => p.author.id === bob.id && p.originalPostId === post.id,
    );
    expect(shared).toMatchObject({
      repostComment: 'my take',
      originalPost: { id: post.id, content: 'quotable' },
    });
    // It is a comment, not a repost.
    expect(await app.models.Post.findById(post.id).lean()).toMatchObject({
      commentsCount: 1,
      repostsCount: 0,
    });
  });

  test('when the post author is commented on, and a comment author is replied to, then each is notified once', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const carol = await app.createMember();
    const post = await publish(app.http, ada, 'notify');
    const top = await comment(bob, post.id, { content: 'hi', syncToTimeline: false }).expect(201);
    await comment(carol, post.id, {
      content: 'hey bob',
      syncToTimeline: false,
      parentId: top.body.id,
    }).expect(201);
    await comment(ada, post.id, {
      content: 'own reply',
      syncToTimeline: false,
      parentId: top.body.id,
    }).expect(201);
    expect(
      await app.models.Notification.find(
        { postId: post.id },
        { _id: 0, userId: 1, type: 1, actorId: 1 },
      )
        .sort({ _id: 1 })
        .lean(),
    ).toEqual([
      { userId: ada.id, type: 'comment', actorId: bob.id },
      { userId: bob.id, type: 'reply', actorId: carol.id },
      { userId: ada.id, type: 'comment', actorId: carol.id },
      { userId: bob.id, type: 'reply', actorId: ada.id },
    ]);
  });

  test.each([
    ['blank content', { content: '   ', syncToTimeline: false }],
    ['an operator object', { content: { $ne: null } }],
    ['a parent on another post', 'other-post-parent'],
    ['an unknown parent', { content: 'x', parentId: 999999 }],
    ['content over 2000 characters', { content: 'x'.repeat(2001) }],
  ])('when the comment has %s, then it is rejected and nothing changes', async (_name, body) => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'guarded');
    let payload = body;
    if (body === 'other-post-parent') {
      const other = await publish(app.http, ada, 'other');
      const c = await comment(ada, other.id, { content: 'elsewhere' }).expect(201);
      payload = { content: 'x', parentId: c.body.id };
    }
    const res = await comment(ada, post.id, payload as object);
    expect([400, 404]).toContain(res.status);
    expect(await app.models.Comment.countDocuments({ postId: post.id })).toBe(0);
    expect((await app.models.Post.findById(post.id).lean())?.commentsCount).toBe(0);
  });

  test('when the post is deleted, then commenting is a 404', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'closed');
    await app.http().delete(`/api/posts/${post.id}`).set('Authorization', ada.auth).expect(200);
    await comment(ada, post.id, { content: 'late' }).expect(404);
  });
});
