import { useTestApp } from '../../../test/test-app';
import { publish } from '../../../test/content';

const app = useTestApp();

async function setup() {
  const ada = await app.createMember({ name: 'Ada' });
  const bob = await app.createMember({ name: 'Bob' });
  const post = await publish(app.http, ada, 'p'.repeat(150));
  await app.http().post(`/api/posts/${post.id}/like`).set('Authorization', bob.auth).expect(200);
  await app.http().post(`/api/users/${ada.id}/follow`).set('Authorization', bob.auth).expect(200);
  await app
    .http()
    .post(`/api/posts/${post.id}/repost`)
    .set('Authorization', bob.auth)
    .send({})
    .expect(201);
  return { ada, bob, post };
}

describe('GET /api/notifications', () => {
  test("when a member's post is liked, reposted and they are followed, then they see each, newest first, with actor and post", async () => {
    const { ada, bob, post } = await setup();
    const res = await app
      .http()
      .get('/api/notifications')
      .set('Authorization', ada.auth)
      .expect(200);
    expect(res.body.map((n: { type: string }) => n.type)).toEqual(['repost', 'follow', 'like']);
    expect(res.body[2]).toMatchObject({
      isRead: false,
      actor: { id: bob.id, name: 'Bob', avatarUrl: null },
      post: { id: post.id, content: post.content },
    });
    // Each type carries exactly its own fields: a follow has no post.
    expect(res.body[1]).toEqual({
      id: res.body[1].id,
      type: 'follow',
      isRead: false,
      createdAt: res.body[1].createdAt,
      actor: { id: bob.id, name: 'Bob', avatarUrl: null },
    });
    // Bob sees none of Ada's notifications.
    const asBob = await app
      .http()
      .get('/api/notifications')
      .set('Authorization', bob.auth)
      .expect(200);
    expect(asBob.body).toEqual([]);
  });
});

describe('PUT /api/notifications/:id/read', () => {
  test('when the recipient marks one read, then only that one is read', async () => {
    const { ada } = await setup();
    const list = await app.http().get('/api/notifications').set('Authorization', ada.auth);
    const first = list.body[0].id;
    await app
      .http()
      .put(`/api/notifications/${first}/read`)
      .set('Authorization', ada.auth)
      .expect(200);
    const after = await app.http().get('/api/notifications').set('Authorization', ada.auth);
    expect(after.body.filter((n: { isRead: boolean }) => !n.isRead)).toHaveLength(2);
  });

  test("when someone marks another member's notification read, then it is a 404 and it stays unread", async () => {
    const { ada, bob } = await setup();
    const list = await app.http().get('/api/notifications').set('Authorization', ada.auth);
    const target = list.body[0].id;
    await app
      .http()
      .put(`/api/notifications/${target}/read`)
      .set('Authorization', bob.auth)
      .expect(404);
    expect((await app.models.Notification.findById(target).lean())?.isRead).toBe(false);
  });

  test.each(['abc', '0', '99999999'])('when the id is %s, then it is a 404', async (id) => {
    const ada = await app.createMember();
    await app
      .http()
      .put(`/api/notifications/${id}/read`)
      .set('Authorization', ada.auth)
      .expect(404);
  });
});

describe('PUT /api/notifications/read-all', () => {
  test("when the recipient marks all read, then all of theirs are read and nobody else's", async () => {
    const { ada, bob } = await setup();
    const carol = await app.createMember();
    await app
      .http()
      .post(`/api/users/${bob.id}/follow`)
      .set('Authorization', carol.auth)
      .expect(200);
    const res = await app
      .http()
      .put('/api/notifications/read-all')
      .set('Authorization', ada.auth)
      .expect(200);
    expect(res.body).toEqual({ updated: 3 });
    expect(await app.models.Notification.countDocuments({ userId: ada.id, isRead: false })).toBe(0);
    expect(await app.models.Notification.countDocuments({ userId: bob.id, isRead: false })).toBe(1);
  });

  test('when there is no token, then it is a 401', async () => {
    await app.http().put('/api/notifications/read-all').expect(401);
    await app.http().get('/api/notifications').expect(401);
  });
});
