import { useTestApp } from '../../../test/test-app';
import { feed, publish } from '../../../test/content';
import { findCountMismatches } from './recount';
import { POST_NOT_FOUND } from './queries';
import { NOT_REPOSTED, QUOTED_REPOST } from './repost';

const app = useTestApp();

type Member = Awaited<ReturnType<typeof app.createMember>>;

const repost = (member: Member, postId: number, body: { comment?: string } = {}) =>
  app
    .http()
    .post(`/api/posts/${postId}/repost`)
    .set('Authorization', member.auth)
    .send(body)
    .expect(201);
const undo = (member: Member, postId: number) =>
  app.http().delete(`/api/posts/${postId}/repost`).set('Authorization', member.auth);

describe('DELETE /api/posts/:id/repost', () => {
  test('when a member undoes their plain repost, then the repost is gone, the count moves back and they may repost again', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const original = await publish(app.http, ada, 'worth sharing');
    const shared = await repost(bob, original.id);
    const before = await app.http().get(`/api/posts/${original.id}`).set('Authorization', bob.auth);
    expect(before.body).toMatchObject({ repostsCount: 1, isReposted: true });

    const res = await undo(bob, original.id).expect(200);
    expect(res.body).toEqual({
      postId: original.id,
      repostPostId: shared.body.id,
      reposted: false,
      repostsCount: 0,
    });
    const after = await app.http().get(`/api/posts/${original.id}`).set('Authorization', bob.auth);
    expect(after.body).toMatchObject({ repostsCount: 0, isReposted: false });
    // The repost post is gone from the feeds and from its own address.
    expect((await feed(app.http, bob)).map((p) => p.id)).not.toContain(shared.body.id);
    await app.http().get(`/api/posts/${shared.body.id}`).set('Authorization', bob.auth).expect(404);
    expect(await app.models.Repost.countDocuments({ userId: bob.id })).toBe(0);

    // Reposting again works (the one-repost rule counts live reposts only).
    await repost(bob, original.id);
    expect((await app.models.Post.findById(original.id).lean())?.repostsCount).toBe(1);
    expect(await findCountMismatches({ models: app.models })).toEqual([]);
  });

  test('when the member has not reposted the post, then it is a 404 with a message and nothing moves', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const carol = await app.createMember();
    const original = await publish(app.http, ada, 'not yours');
    await repost(carol, original.id);
    const res = await undo(bob, original.id).expect(404);
    expect(res.body).toEqual({ message: NOT_REPOSTED });
    // Undoing twice: the second finds nothing.
    await undo(carol, original.id).expect(200);
    expect((await undo(carol, original.id).expect(404)).body).toEqual({ message: NOT_REPOSTED });
    expect((await app.models.Post.findById(original.id).lean())?.repostsCount).toBe(0);
  });

  test('when the repost has a quote, then it is a 404 saying to delete it as a post, and it stays', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const original = await publish(app.http, ada, 'quoted');
    const quoted = await repost(bob, original.id, { comment: 'my take' });
    const res = await undo(bob, original.id).expect(404);
    expect(res.body).toEqual({ message: QUOTED_REPOST });
    expect((await app.models.Post.findById(original.id).lean())?.repostsCount).toBe(1);
    expect((await app.models.Post.findById(quoted.body.id).lean())?.deletedAt).toBeNull();
  });

  test('when the post does not exist or the id is malformed, then it is a 404 "Post not found"', async () => {
    const bob = await app.createMember();
    expect((await undo(bob, 987_654).expect(404)).body).toEqual({ message: POST_NOT_FOUND });
    expect(
      (await app.http().delete('/api/posts/abc/repost').set('Authorization', bob.auth).expect(404))
        .body,
    ).toEqual({ message: POST_NOT_FOUND });
  });

  test('when nobody is signed in, then it is a 401', async () => {
    const ada = await app.createMember();
    const original = await publish(app.http, ada, 'anonymous');
    await app.http().delete(`/api/posts/${original.id}/repost`).expect(401);
  });

  test('when a member undoes the same repost twice at once, then one succeeds, the other is a 404, and the count moves once', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const carol = await app.createMember();
    const original = await publish(app.http, ada, 'race');
    await repost(bob, original.id);
    await repost(carol, original.id);
    const statuses = (await Promise.all([undo(bob, original.id), undo(bob, original.id)]))
      .map((r) => r.status)
      .sort();
    expect(statuses).toEqual([200, 404]);
    expect((await app.models.Post.findById(original.id).lean())?.repostsCount).toBe(1);
  });
});
