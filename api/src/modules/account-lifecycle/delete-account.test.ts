import sharp from 'sharp';
import { createUploadStorage } from '../../platform/storage';
import { findCountMismatches } from '../posts/recount';
import { TEST_PASSWORD, useTestApp } from '../../../test/test-app';
import { CANNOT_DELETE_ACCOUNT, CANNOT_DELETE_ADMIN } from './delete-account';
import { WRONG_PASSWORD } from './passwords';

const t = useTestApp();

type Member = Awaited<ReturnType<typeof t.createMember>>;
let admin: Member;
beforeAll(async () => {
  admin = await t.createMember({ id: t.config.adminUserId, name: 'Admin' });
});

async function call(
  member: Member,
  method: 'post' | 'put' | 'delete',
  url: string,
  body: object = {},
) {
  const res = await t.http()[method](url).set('Authorization', member.auth).send(body);
  if (res.status >= 300)
    throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; avatarUrl?: string };
}

function deleteAccount(member: Member, id: number, body: object) {
  return t.http().delete(`/api/users/${id}`).set('Authorization', member.auth).send(body);
}

describe('DELETE /api/users/:id', () => {
  test('when a member deletes their account, then it and everything it made go, every count it touched is right again, and the address can register again', async () => {
    const ada = await t.createMember({ name: 'Ada' });
    const ben = await t.createMember({ name: 'Ben' });

    // Ada's avatar, post, likes, comments, reposts, follows and feedback.
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#3366ff' },
    })
      .png()
      .toBuffer();
    const upload = await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', ada.auth)
      .attach('avatar', png, 'me.png');
    expect(upload.status).toBe(201);
    await call(ada, 'put', `/api/users/${ada.id}`, {
      name: 'Ada',
      avatarUrl: upload.body.avatarUrl,
    });
    const uploads = createUploadStorage(t.database.connection, t.config.publicUrl);
    const avatarFile = new URL(upload.body.avatarUrl).pathname;
    expect(await uploads.has(avatarFile)).toBe(true);

    const adaPost = await call(ada, 'post', '/api/posts', { content: 'Ada was here' });
    const benPost = await call(ben, 'post', '/api/posts', { content: 'Ben was here' });
    await call(ben, 'post', `/api/posts/${adaPost.id}/like`);
    await call(ben, 'post', `/api/posts/${adaPost.id}/comments`, { content: 'Nice, Ada' });
    const benRepostOfAda = await call(ben, 'post', `/api/posts/${adaPost.id}/repost`);
    await call(ada, 'post', `/api/posts/${benPost.id}/like`);
    const adaComment = await call(ada, 'post', `/api/posts/${benPost.id}/comments`, {
      content: 'Hi Ben',
      syncToTimeline: true,
    });
    await call(ben, 'post', `/api/posts/${benPost.id}/comments`, {
      content: 'Hi Ada',
      parentId: adaComment.id,
    });
    await call(ben, 'post', `/api/comments/${adaComment.id}/like`);
    const benComment = await call(ben, 'post', `/api/posts/${benPost.id}/comments`, {
      content: 'Anyone else?',
    });
    await call(ada, 'post', `/api/comments/${benComment.id}/like`);
    await call(ada, 'post', `/api/posts/${benPost.id}/repost`, { comment: 'Look' });
    await call(ada, 'post', `/api/users/${ben.id}/follow`);
    await call(ben, 'post', `/api/users/${ada.id}/follow`);
    await call(ada, 'post', '/api/feedback', { feedback: 'Great app' });
    // Read through the caches first, so the test also shows they forget what went.
    await t.http().get('/api/posts').set('Authorization', ben.auth).expect(200);

    const res = await deleteAccount(ada, ada.id, { password: TEST_PASSWORD });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    const { models } = t;
    expect(await models.User.exists({ _id: ada.id })).toBeNull();
    expect(await models.Post.countDocuments({ authorId: ada.id })).toBe(0);
    expect(await models.Comment.countDocuments({ authorId: ada.id })).toBe(0);
    // Ben's reply to Ada's comment went with it; Ben's comment on Ada's post with the post.
    expect(await models.Comment.countDocuments({})).toBe(1);
    expect(await models.Like.countDocuments({})).toBe(0);
    expect(await models.Repost.countDocuments({ userId: ada.id })).toBe(0);
    expect(await models.Repost.countDocuments({ postId: adaPost.id })).toBe(0);
    expect(
      await models.Follow.countDocuments({
        $or: [{ followerId: ada.id }, { followingId: ada.id }],
      }),
    ).toBe(0);
    expect(
      await models.Notification.countDocuments({ $or: [{ userId: ada.id }, { actorId: ada.id }] }),
    ).toBe(0);
    expect(await models.Feedback.countDocuments({ userId: ada.id })).toBe(0);
    expect(await uploads.has(avatarFile)).toBe(false);
    expect(await findCountMismatches({ models })).toEqual([]);

    // What other members see: Ben's post with its counts fixed, his repost of Ada's post empty.
    const detail = await t.http().get(`/api/posts/${benPost.id}`).set('Authorization', ben.auth);
    expect(detail.body).toMatchObject({ likesCount: 0, commentsCount: 1, repostsCount: 0 });
    expect(detail.body.comments).toHaveLength(1);
    expect(detail.body.comments[0]).toMatchObject({ id: benComment.id, likesCount: 0 });
    const repost = await t
      .http()
      .get(`/api/posts/${benRepostOfAda.id}`)
      .set('Authorization', ben.auth);
    expect(repost.body.originalPost).toBeNull();
    const feed = await t.http().get('/api/posts').set('Authorization', ben.auth);
    expect(feed.body.map((p: { author: { id: number } }) => p.author.id)).not.toContain(ada.id);
    expect((await t.http().get(`/api/users/${ada.id}`).set('Authorization', ben.auth)).status).toBe(
      404,
    );
    const followers = await t
      .http()
      .get(`/api/users/${ben.id}/followers`)
      .set('Authorization', ben.auth);
    expect(followers.body).toEqual([]);
    const adminNotifications = await t
      .http()
      .get('/api/notifications')
      .set('Authorization', admin.auth);
    expect(adminNotifications.body).toEqual([]);

    // The token is dead, and the address is free again.
    const after = await t.http().get('/api/auth/me').set('Authorization', ada.auth);
    expect(after.status).toBe(401);
    const again = await t
      .http()
      .post('/api/auth/register')
      .send({ name: 'Ada again', email: ada.email, password: 'long enough' });
    expect(again.status).toBe(201);
  });

  test('when a step fails midway, then the transaction leaves everything as it was', async () => {
    const ada = await t.createMember();
    const ben = await t.createMember();
    const benPost = await call(ben, 'post', '/api/posts', { content: 'Still here' });
    await call(ada, 'post', `/api/posts/${benPost.id}/like`);
    const adaPost = await call(ada, 'post', '/api/posts', { content: 'Mine' });
    await call(ada, 'post', `/api/users/${ben.id}/follow`);
    // The database refuses the deletion's third delete, after two have been made in it.
    const admin = t.database.connection.db!.admin();
    await admin.command({
      configureFailPoint: 'failCommand',
      mode: { skip: 2 },
      data: { failCommands: ['delete'], errorCode: 8 },
    });
    try {
      const res = await deleteAccount(ada, ada.id, { password: TEST_PASSWORD });
      expect(res.status).toBe(500);
    } finally {
      await admin.command({ configureFailPoint: 'failCommand', mode: 'off' });
    }
    expect(await t.models.User.exists({ _id: ada.id })).not.toBeNull();
    expect(await t.models.Post.exists({ _id: adaPost.id })).not.toBeNull();
    expect(await t.models.Like.countDocuments({ userId: ada.id })).toBe(1);
    expect((await t.models.Post.findById(benPost.id).lean())?.likesCount).toBe(1);
    expect(await t.models.Follow.countDocuments({ followerId: ada.id })).toBe(1);
    // And the member can still delete the account afterwards.
    expect((await deleteAccount(ada, ada.id, { password: TEST_PASSWORD })).status).toBe(204);
    expect((await t.models.Post.findById(benPost.id).lean())?.likesCount).toBe(0);
  });

  test('when the password is wrong, then 400 and nothing is deleted', async () => {
    const ada = await t.createMember();
    const res = await deleteAccount(ada, ada.id, { password: 'not my password' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: WRONG_PASSWORD });
    expect(await t.models.User.exists({ _id: ada.id })).not.toBeNull();
  });

  test("when a member tries to delete another member's account, then 403 and nothing is deleted", async () => {
    const ada = await t.createMember();
    const ben = await t.createMember();
    const res = await deleteAccount(ada, ben.id, { password: TEST_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: CANNOT_DELETE_ACCOUNT });
    expect(await t.models.User.exists({ _id: ben.id })).not.toBeNull();
  });

  test('when the administrator tries to delete their own account, then 403', async () => {
    const res = await deleteAccount(admin, admin.id, { password: TEST_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: CANNOT_DELETE_ADMIN });
    expect(await t.models.User.exists({ _id: admin.id })).not.toBeNull();
  });

  test('when the input is hostile or malformed, then 400 / 404 / 401 and nothing is deleted', async () => {
    const ada = await t.createMember();
    for (const body of [
      { password: { $ne: null } },
      { password: ['x'] },
      { password: 12345678 },
      {},
      { password: TEST_PASSWORD, cascade: false },
    ]) {
      expect((await deleteAccount(ada, ada.id, body)).status).toBe(400);
    }
    for (const id of ['abc', '0', '-1', '1e3', '{"$gt":0}']) {
      const res = await t
        .http()
        .delete(`/api/users/${encodeURIComponent(id)}`)
        .set('Authorization', ada.auth)
        .send({ password: TEST_PASSWORD });
      expect(res.status).toBe(404);
    }
    expect(
      (await t.http().delete(`/api/users/${ada.id}`).send({ password: TEST_PASSWORD })).status,
    ).toBe(401);
    const text = await t
      .http()
      .delete(`/api/users/${ada.id}`)
      .set('Authorization', ada.auth)
      .set('Content-Type', 'text/plain')
      .send('password');
    expect(text.status).toBe(415);
    expect(await t.models.User.exists({ _id: ada.id })).not.toBeNull();
  });
});
