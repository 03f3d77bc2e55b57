import { countQueries } from '../../../test/query-counter';
import { TEST_PASSWORD, useTestApp } from '../../../test/test-app';

const t = useTestApp();

describe('POST /api/users/:id/follow', () => {
  test('when a member follows and then follows again, then it toggles between following and not', async () => {
    const me = await t.createMember();
    const them = await t.createMember();
    const follow = await t
      .http()
      .post(`/api/users/${them.id}/follow`)
      .set('Authorization', me.auth);
    expect(follow.status).toBe(200);
    expect(follow.body).toEqual({ following: true, followersCount: 1 });
    expect(await t.models.Follow.countDocuments({ followerId: me.id, followingId: them.id })).toBe(
      1,
    );
    expect(
      await t.models.Notification.countDocuments({
        userId: them.id,
        type: 'follow',
        actorId: me.id,
      }),
    ).toBe(1);

    const unfollow = await t
      .http()
      .post(`/api/users/${them.id}/follow`)
      .set('Authorization', me.auth);
    expect(unfollow.body).toEqual({ following: false, followersCount: 0 });
    expect(await t.models.Follow.countDocuments({ followerId: me.id, followingId: them.id })).toBe(
      0,
    );
    expect(
      await t.models.Notification.countDocuments({
        userId: them.id,
        type: 'follow',
        actorId: me.id,
      }),
    ).toBe(0);
  });

  test('when the follow call carries an empty JSON body or a JSON content type without a body, then it works', async () => {
    const me = await t.createMember();
    const them = await t.createMember();
    const withEmptyObject = await t
      .http()
      .post(`/api/users/${them.id}/follow`)
      .set('Authorization', me.auth)
      .send({});
    expect(withEmptyObject.body.following).toBe(true);
    const withoutBody = await t
      .http()
      .post(`/api/users/${them.id}/follow`)
      .set('Authorization', me.auth)
      .set('Content-Type', 'application/json');
    expect(withoutBody.status).toBe(200);
    expect(withoutBody.body.following).toBe(false);
  });

  test('when two follow requests race, then there is still one follow', async () => {
    const me = await t.createMember();
    const them = await t.createMember();
    await Promise.all([
      t.http().post(`/api/users/${them.id}/follow`).set('Authorization', me.auth),
      t.http().post(`/api/users/${them.id}/follow`).set('Authorization', me.auth),
    ]);
    expect(
      await t.models.Follow.countDocuments({ followerId: me.id, followingId: them.id }),
    ).toBeLessThanOrEqual(1);
  });

  test('when members follow themselves, then 400 and no follow is stored', async () => {
    const me = await t.createMember();
    const res = await t.http().post(`/api/users/${me.id}/follow`).set('Authorization', me.auth);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'You cannot follow yourself' });
    expect(await t.models.Follow.countDocuments({ followerId: me.id })).toBe(0);
  });

  test('when a member follows an author the app holds, then the account is not looked up again; once the account is deleted, a 404', async () => {
    const me = await t.createMember();
    const them = await t.createMember();
    await t.http().get('/api/auth/me').set('Authorization', me.auth).expect(200);
    await t.caches.authors.byId([them.id]);
    const { result, queries } = await countQueries(t.database.connection, () =>
      t.http().post(`/api/users/${them.id}/follow`).set('Authorization', me.auth),
    );
    expect(result.body).toEqual({ following: true, followersCount: 1 });
    expect(queries.filter((q) => q.startsWith('users.') && q !== 'users.updateOne')).toEqual([]);

    await t
      .http()
      .delete(`/api/users/${them.id}`)
      .set('Authorization', them.auth)
      .send({ password: TEST_PASSWORD })
      .expect(204);
    await t.http().post(`/api/users/${them.id}/follow`).set('Authorization', me.auth).expect(404);
  });

  test('when the user does not exist, then 404 and nothing is stored', async () => {
    const me = await t.createMember();
    const res = await t.http().post('/api/users/987654/follow').set('Authorization', me.auth);
    expect(res.status).toBe(404);
    expect(await t.models.Follow.countDocuments({ followerId: me.id })).toBe(0);
  });

  test('when there is no token, then 401 and nothing is stored', async () => {
    const them = await t.createMember();
    await t.http().post(`/api/users/${them.id}/follow`).expect(401);
    expect(await t.models.Follow.countDocuments({ followingId: them.id })).toBe(0);
  });
});

describe('GET /api/users/:id/following and /followers', () => {
  test('when lists are read, then they hold the users in list shape, newest first, with isFollowing for the caller', async () => {
    const viewer = await t.createMember();
    const subject = await t.createMember();
    const a = await t.createMember({ name: 'A', bio: 'bio a' });
    const b = await t.createMember({ name: 'B' });
    for (const other of [a, b]) {
      await t
        .http()
        .post(`/api/users/${other.id}/follow`)
        .set('Authorization', subject.auth)
        .expect(200);
    }
    await t.http().post(`/api/users/${subject.id}/follow`).set('Authorization', a.auth).expect(200);
    await t.http().post(`/api/users/${a.id}/follow`).set('Authorization', viewer.auth).expect(200);

    const following = await t
      .http()
      .get(`/api/users/${subject.id}/following`)
      .set('Authorization', viewer.auth);
    expect(following.status).toBe(200);
    expect(following.body).toEqual([
      { id: b.id, name: 'B', email: b.email, bio: '', avatarUrl: null, isFollowing: false },
      { id: a.id, name: 'A', email: a.email, bio: 'bio a', avatarUrl: null, isFollowing: true },
    ]);

    const followers = await t
      .http()
      .get(`/api/users/${subject.id}/followers`)
      .set('Authorization', viewer.auth);
    expect(followers.body).toEqual([
      { id: a.id, name: 'A', email: a.email, bio: 'bio a', avatarUrl: null, isFollowing: true },
    ]);
  });

  test('when the user follows nobody, then both lists are empty arrays', async () => {
    const viewer = await t.createMember();
    const loner = await t.createMember();
    await t
      .http()
      .get(`/api/users/${loner.id}/following`)
      .set('Authorization', viewer.auth)
      .expect(200, []);
    await t
      .http()
      .get(`/api/users/${loner.id}/followers`)
      .set('Authorization', viewer.auth)
      .expect(200, []);
  });

  test('when the user does not exist, then 404', async () => {
    const viewer = await t.createMember();
    await t.http().get('/api/users/424242/followers').set('Authorization', viewer.auth).expect(404);
    await t.http().get('/api/users/nope/following').set('Authorization', viewer.auth).expect(404);
  });

  test('when there is no token, then 401', async () => {
    const subject = await t.createMember();
    await t.http().get(`/api/users/${subject.id}/followers`).expect(401);
  });
});
