import { MAX_EDITS, type Comment, type Post, type PostDetail } from '@campus/contracts';
import { feed, publish } from '../../../test/content';
import { TestClock } from '../../../test/clock';
import { startOtherProcessApp, useTestApp } from '../../../test/test-app';
import type { DomainEvent } from '../../domain-events';
import { findCountMismatches } from './recount';

const app = useTestApp();
type Member = Awaited<ReturnType<typeof app.createMember>>;

async function comment(
  member: Member,
  postId: number,
  content: string,
  extra: { parentId?: number; syncToTimeline?: boolean } = {},
): Promise<Comment> {
  const res = await app
    .http()
    .post(`/api/posts/${postId}/comments`)
    .set('Authorization', member.auth)
    .send({ content, ...extra })
    .expect(201);
  return res.body as Comment;
}

async function detail(viewer: Member, postId: number): Promise<PostDetail> {
  const res = await app
    .http()
    .get(`/api/posts/${postId}`)
    .set('Authorization', viewer.auth)
    .expect(200);
  return res.body as PostDetail;
}

const deleteComment = (member: Member, id: number | string) =>
  app.http().delete(`/api/comments/${id}`).set('Authorization', member.auth);
const editComment = (member: Member, id: number | string, body: unknown) =>
  app
    .http()
    .put(`/api/comments/${id}`)
    .set('Authorization', member.auth)
    .send(body as object);
const editPost = (member: Member, id: number | string, body: unknown) =>
  app
    .http()
    .put(`/api/posts/${id}`)
    .set('Authorization', member.auth)
    .send(body as object);

/** The events `work` published, once it has answered. */
async function eventsOf(work: () => Promise<unknown>): Promise<DomainEvent[]> {
  const seen: DomainEvent[] = [];
  const stop = app.events.on(
    ['comment.deleted', 'comment.edited', 'post.edited', 'post.deleted'],
    (e) => void seen.push(e),
  );
  try {
    await work();
    await app.caughtUp();
  } finally {
    stop();
  }
  return seen;
}

describe('DELETE /api/comments/:id', () => {
  test('when its author deletes a comment without replies, then it goes and the count moves with it', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'talk to me');
    const first = await comment(bob, post.id, 'first');
    await comment(ada, post.id, 'second');
    expect((await detail(ada, post.id)).commentsCount).toBe(2); // cached now

    let body: unknown;
    const events = await eventsOf(async () => {
      body = (await deleteComment(bob, first.id).expect(200)).body;
    });
    expect(body).toEqual({
      id: first.id,
      postId: post.id,
      deleted: true,
      placeholder: false,
      commentsCount: 1,
    });
    expect(events).toEqual([
      {
        type: 'comment.deleted',
        commentId: first.id,
        postId: post.id,
        authorId: bob.id,
        parentId: null,
        placeholder: false,
        alsoGone: [],
      },
    ]);
    const after = await detail(ada, post.id);
    expect(after.commentsCount).toBe(1);
    expect(after.comments.map((c) => c.content)).toEqual(['second']);
    expect((await feed(app.http, ada)).find((p) => p.id === post.id)?.commentsCount).toBe(1);
    expect(await findCountMismatches(app.context)).toEqual([]);
  });

  test('when a comment with replies is deleted, then it stays as a placeholder above its replies', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'threaded');
    const top = await comment(bob, post.id, 'a thought worth replying to');
    const reply = await comment(ada, post.id, 'a reply', { parentId: top.id });
    await app.http().post(`/api/comments/${top.id}/like`).set('Authorization', ada.auth);
    expect((await detail(bob, post.id)).commentsCount).toBe(2);

    const res = await deleteComment(bob, top.id).expect(200);
    expect(res.body).toMatchObject({ placeholder: true, commentsCount: 1 });

    const after = await detail(ada, post.id);
    expect(after.commentsCount).toBe(1);
    expect(after.comments).toHaveLength(1);
    expect(after.comments[0]).toMatchObject({
      id: top.id,
      content: '',
      deleted: true,
      likesCount: 0,
      isLiked: false,
    });
    expect(after.comments[0]!.replies!.map((r) => r.content)).toEqual(['a reply']);
    // The text is gone from the database, not only from the answer.
    expect((await app.models.Comment.findById(top.id).lean())?.content).toBe('');
    // A placeholder is not a comment any more: no like, edit, second delete or versions.
    await app
      .http()
      .post(`/api/comments/${top.id}/like`)
      .set('Authorization', ada.auth)
      .expect(404);
    await editComment(bob, top.id, { content: 'back' }).expect(404);
    await deleteComment(bob, top.id).expect(404);
    await app
      .http()
      .get(`/api/comments/${top.id}/versions`)
      .set('Authorization', ada.auth)
      .expect(404);
    // Replying to one of its replies still works, and joins them under the placeholder.
    await comment(bob, post.id, 'still here', { parentId: reply.id });
    const later = await detail(ada, post.id);
    expect(later.comments[0]!.replies!.map((r) => r.content)).toEqual(['a reply', 'still here']);
    expect(later.commentsCount).toBe(2);
    expect(await findCountMismatches(app.context)).toEqual([]);
  });

  test('when the last reply under a placeholder is deleted, then the placeholder goes too', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'short thread');
    const top = await comment(bob, post.id, 'top');
    const reply = await comment(ada, post.id, 'only reply', { parentId: top.id });
    await deleteComment(bob, top.id).expect(200);
    const events = await eventsOf(() => deleteComment(ada, reply.id).expect(200));
    expect(events).toEqual([
      expect.objectContaining({
        type: 'comment.deleted',
        commentId: reply.id,
        parentId: top.id,
        placeholder: false,
        alsoGone: [top.id],
      }),
    ]);
    const after = await detail(ada, post.id);
    expect(after.comments).toEqual([]);
    expect(after.commentsCount).toBe(0);
    expect(await findCountMismatches(app.context)).toEqual([]);
  });

  test('when the comment was shared to the timeline, then its copy is deleted with it and its notification withdrawn', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'share-worthy');
    const shared = await comment(bob, post.id, 'my take', { syncToTimeline: true });
    const copy = (await feed(app.http, bob, '?limit=50')).find(
      (p) => p.sharedCommentId === shared.id,
    );
    expect(copy).toBeDefined();
    expect(
      await app.models.Notification.countDocuments({ userId: ada.id, commentId: shared.id }),
    ).toBe(1);

    const events = await eventsOf(() => deleteComment(bob, shared.id).expect(200));
    expect(events.map((e) => e.type).sort()).toEqual(['comment.deleted', 'post.deleted']);
    expect((await feed(app.http, bob, '?limit=50')).some((p) => p.id === copy!.id)).toBe(false);
    await app.http().get(`/api/posts/${copy!.id}`).set('Authorization', bob.auth).expect(404);
    expect(
      await app.models.Notification.countDocuments({ userId: ada.id, commentId: shared.id }),
    ).toBe(0);
  });

  test('when someone else deletes the comment, then it is 403 and nothing changes; the admin too', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const admin = await app.createMember({ id: app.config.adminUserId, name: 'Admin' });
    const post = await publish(app.http, ada, 'mine');
    const c = await comment(bob, post.id, 'bob says');
    // Not even the post's author: a comment is its author's words.
    const res = await deleteComment(ada, c.id).expect(403);
    expect(res.body).toEqual({ message: 'You can only delete your own comments' });
    await deleteComment(admin, c.id).expect(403);
    expect((await detail(ada, post.id)).comments.map((x) => x.content)).toEqual(['bob says']);
    expect((await app.models.Post.findById(post.id).lean())?.commentsCount).toBe(1);
  });

  test.each([
    ['an unknown id', '999999'],
    ['an id that is no number', 'abc'],
  ])('when the comment has %s, then it is 404', async (_name, id) => {
    const ada = await app.createMember();
    const res = await deleteComment(ada, id).expect(404);
    expect(res.body.message).toEqual(expect.any(String));
  });

  test('when the post was deleted, then its comments cannot be deleted (404)', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'going');
    const c = await comment(ada, post.id, 'with it');
    await app.http().delete(`/api/posts/${post.id}`).set('Authorization', ada.auth).expect(200);
    await deleteComment(ada, c.id).expect(404);
  });

  test('when the same comment is deleted twice at once, then one delete counts and the other is 404', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'race');
    const c = await comment(ada, post.id, 'once');
    await comment(ada, post.id, 'stays');
    const statuses = (await Promise.all([deleteComment(ada, c.id), deleteComment(ada, c.id)])).map(
      (r) => r.status,
    );
    expect(statuses.sort()).toEqual([200, 404]);
    expect((await app.models.Post.findById(post.id).lean())?.commentsCount).toBe(1);
    expect(await findCountMismatches(app.context)).toEqual([]);
  });

  test('when not signed in, then it is 401', async () => {
    await app.http().delete('/api/comments/1').expect(401);
  });
});

describe('PUT /api/posts/:id', () => {
  test('when its author edits a post, then it reads edited, keeps its counts and likes, and quotes show the new text', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'first draft');
    await app.http().post(`/api/posts/${post.id}/like`).set('Authorization', bob.auth).expect(200);
    await comment(bob, post.id, 'nice');
    const quote = await app
      .http()
      .post(`/api/posts/${post.id}/repost`)
      .set('Authorization', bob.auth)
      .send({ comment: 'look at this' })
      .expect(201);
    // Every reader's caches hold the first draft now.
    const before = await feed(app.http, bob, '?limit=50');
    expect(before.find((p) => p.id === quote.body.id)?.originalPost?.content).toBe('first draft');
    await detail(bob, post.id);

    const events = await eventsOf(async () => {
      const res = await editPost(ada, post.id, { content: '  final text  ' }).expect(200);
      expect(res.body).toMatchObject({
        id: post.id,
        content: 'final text',
        likesCount: 1,
        commentsCount: 1,
        repostsCount: 1,
        editedAt: expect.any(String),
      });
    });
    expect(events).toEqual([{ type: 'post.edited', postId: post.id, authorId: ada.id }]);

    const seen = await detail(bob, post.id);
    expect(seen).toMatchObject({ content: 'final text', likesCount: 1, isLiked: true });
    expect(seen.editedAt).toEqual(expect.any(String));
    const after = await feed(app.http, bob, '?limit=50');
    expect(after.find((p) => p.id === post.id)?.content).toBe('final text');
    expect(after.find((p) => p.id === quote.body.id)?.originalPost).toMatchObject({
      content: 'final text',
      editedAt: expect.any(String),
    });
    expect(await findCountMismatches(app.context)).toEqual([]);
  });

  test('when a post is edited twice, then every version is listed, newest first, with when it was written', async () => {
    // The clock of the app that edits, ahead of the post's creation.
    const clock = new TestClock();
    const start = Math.ceil(Date.now() / 60_000) * 60_000 + 3_600_000;
    clock.freeze(start);
    const minute = (n: number) => new Date(start + n * 60_000).toISOString();
    const { http } = app.another({}, clock);
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = (
      await http().post('/api/posts').set('Authorization', ada.auth).send({ content: 'v1' })
    ).body as Post;
    clock.advance(60_000);
    await http()
      .put(`/api/posts/${post.id}`)
      .set('Authorization', ada.auth)
      .send({ content: 'v2' })
      .expect(200);
    clock.advance(60_000);
    await http()
      .put(`/api/posts/${post.id}`)
      .set('Authorization', ada.auth)
      .send({ content: 'v3' })
      .expect(200);
    const res = await app
      .http()
      .get(`/api/posts/${post.id}/versions`)
      .set('Authorization', bob.auth)
      .expect(200);
    expect(res.body).toEqual({
      versions: [
        { content: 'v3', writtenAt: minute(2) },
        { content: 'v2', writtenAt: minute(1) },
        { content: 'v1', writtenAt: post.createdAt },
      ],
    });
    // The same text again is no edit.
    await editPost(ada, post.id, { content: 'v3' }).expect(200);
    const again = await app
      .http()
      .get(`/api/posts/${post.id}/versions`)
      .set('Authorization', ada.auth)
      .expect(200);
    expect(again.body.versions).toHaveLength(3);
  });

  test('when a quote is edited, then its comment changes, at most 280 characters', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'original');
    const quote = await app
      .http()
      .post(`/api/posts/${post.id}/repost`)
      .set('Authorization', bob.auth)
      .send({ comment: 'so true' })
      .expect(201);
    const res = await editPost(bob, quote.body.id, { content: 'so very true' }).expect(200);
    expect(res.body).toMatchObject({
      repostComment: 'so very true',
      content: '',
      originalPost: { id: post.id, content: 'original' },
    });
    const long = await editPost(bob, quote.body.id, { content: 'x'.repeat(281) }).expect(400);
    expect(long.body.message).toBe('Comment must be at most 280 characters');
  });

  test.each([
    ['blank text', { content: '   ' }],
    ['an operator object', { content: { $ne: null } }],
    ['an unknown field', { content: 'ok', isJdTagged: true }],
    ['text over 5000 characters', { content: 'x'.repeat(5001) }],
  ])('when the edit has %s, then it is 400 and nothing changes', async (_name, body) => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'unchanged');
    const res = await editPost(ada, post.id, body).expect(400);
    expect(res.body.message).toEqual(expect.any(String));
    expect(await app.models.Post.findById(post.id).lean()).toMatchObject({
      content: 'unchanged',
      isJdTagged: false,
    });
    expect(await app.models.ContentVersion.countDocuments({ targetId: post.id })).toBe(0);
  });

  test('when someone else edits the post, or it is a plain repost or unknown, then it is refused', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'ada wrote this');
    const other = await editPost(bob, post.id, { content: 'bob did' }).expect(403);
    expect(other.body).toEqual({ message: 'You can only edit your own posts' });
    const repost = await app
      .http()
      .post(`/api/posts/${post.id}/repost`)
      .set('Authorization', bob.auth)
      .send({})
      .expect(201);
    const plain = await editPost(bob, repost.body.id, { content: 'words' }).expect(400);
    expect(plain.body).toEqual({ message: 'A repost without a comment has no text to edit' });
    await editPost(ada, 999999, { content: 'x' }).expect(404);
    await app.http().put(`/api/posts/${post.id}`).send({ content: 'x' }).expect(401);
    expect((await app.models.Post.findById(post.id).lean())?.content).toBe('ada wrote this');
  });

  test(`when a post has been edited ${MAX_EDITS} times, then the next edit is 400`, async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'edit 0');
    for (let i = 1; i <= MAX_EDITS; i++) {
      await editPost(ada, post.id, { content: `edit ${i}` }).expect(200);
    }
    const res = await editPost(ada, post.id, { content: 'one more' }).expect(400);
    expect(res.body).toEqual({ message: `A post can be edited at most ${MAX_EDITS} times` });
    expect((await app.models.Post.findById(post.id).lean())?.content).toBe(`edit ${MAX_EDITS}`);
  });
});

describe('PUT /api/comments/:id', () => {
  test('when its author edits a comment, then readers see the new text, edited, with its likes and earlier versions', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'a post');
    const c = await comment(bob, post.id, 'teh typo', { syncToTimeline: true });
    await app.http().post(`/api/comments/${c.id}/like`).set('Authorization', ada.auth).expect(200);
    expect((await detail(ada, post.id)).comments[0]!.content).toBe('teh typo'); // cached

    const events = await eventsOf(async () => {
      const res = await editComment(bob, c.id, { content: 'the typo, fixed' }).expect(200);
      expect(res.body).toMatchObject({
        id: c.id,
        content: 'the typo, fixed',
        likesCount: 1,
        isLiked: false,
        editedAt: expect.any(String),
      });
    });
    expect(events.map((e) => e.type).sort()).toEqual(['comment.edited', 'post.edited']);

    const seen = (await detail(ada, post.id)).comments[0]!;
    expect(seen).toMatchObject({ content: 'the typo, fixed', likesCount: 1, isLiked: true });
    expect(seen.editedAt).toEqual(expect.any(String));
    // The copy on Bob's timeline shows the new text.
    const copy = (await feed(app.http, ada, '?limit=50')).find((p) => p.sharedCommentId === c.id);
    expect(copy?.repostComment).toBe('the typo, fixed');
    const versions = await app
      .http()
      .get(`/api/comments/${c.id}/versions`)
      .set('Authorization', ada.auth)
      .expect(200);
    expect(versions.body.versions.map((v: { content: string }) => v.content)).toEqual([
      'the typo, fixed',
      'teh typo',
    ]);
    // Deleting the comment erases its earlier versions.
    await deleteComment(bob, c.id).expect(200);
    expect(
      await app.models.ContentVersion.countDocuments({ kind: 'comment', targetId: c.id }),
    ).toBe(0);
  });

  test('when another API process holds the comments cached, then it shows the edit once the event reaches it', async () => {
    const other = await startOtherProcessApp(app);
    try {
      const ada = await app.createMember();
      const post = await publish(app.http, ada, 'seen from afar');
      const c = await comment(ada, post.id, 'before');
      const read = async () =>
        (await other.http().get(`/api/posts/${post.id}`).set('Authorization', ada.auth).expect(200))
          .body as PostDetail;
      expect((await read()).comments[0]!.content).toBe('before');
      await editComment(ada, c.id, { content: 'after' }).expect(200);
      await other.caughtUp();
      expect((await read()).comments[0]!.content).toBe('after');
    } finally {
      await other.close();
    }
  });

  test('when someone else edits the comment, or the text is bad, then it is refused and nothing changes', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'host');
    const c = await comment(bob, post.id, 'original words');
    const other = await editComment(ada, c.id, { content: 'rewritten' }).expect(403);
    expect(other.body).toEqual({ message: 'You can only edit your own comments' });
    await editComment(bob, c.id, { content: '  ' }).expect(400);
    await editComment(bob, c.id, { content: { $gt: '' } }).expect(400);
    await editComment(bob, c.id, { content: 'x'.repeat(2001) }).expect(400);
    await editComment(bob, c.id, { content: 'ok', parentId: 1 }).expect(400);
    await editComment(bob, 999999, { content: 'ok' }).expect(404);
    expect((await app.models.Comment.findById(c.id).lean())?.content).toBe('original words');
    expect(await app.models.ContentVersion.countDocuments({ targetId: c.id })).toBe(0);
  });
});
