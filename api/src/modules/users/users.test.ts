import { TestClock } from '../../../test/clock';
import mongoose from 'mongoose';
import { AVATAR_URL_MESSAGE } from '@campus/contracts';
import { createUploadStorage, UPLOADS_BUCKET } from '../../platform/storage';
import { useTestApp } from '../../../test/test-app';

const UPLOAD_NAME = '0123456789abcdef0123456789abcdef.webp';

const t = useTestApp({ activityThrottleMs: 60 * 60 * 1000 });

/** Puts a file under `name` in the database's upload store, as the upload route would; returns its path. */
async function storedUpload(name: string): Promise<string> {
  const bucket = new mongoose.mongo.GridFSBucket(t.database.connection.db!, {
    bucketName: UPLOADS_BUCKET,
  });
  await new Promise<void>((resolve, reject) => {
    const upload = bucket.openUploadStream(name, { metadata: { contentType: 'image/webp' } });
    upload.once('error', reject);
    upload.end(Buffer.from('webp'), () => resolve());
  });
  return `/uploads/${name}`;
}

const uploadExists = (stored: string) =>
  createUploadStorage(t.database.connection, t.config.publicUrl).has(stored);

beforeAll(() => storedUpload(UPLOAD_NAME));

describe('GET /api/users/:id', () => {
  test('when a member opens a profile, then the §3 profile shape comes back with counts, isFollowing and an empty posts list', async () => {
    const viewer = await t.createMember();
    const target = await t.createMember({ name: 'Target', bio: 'Hello' });
    const other = await t.createMember();
    await t
      .http()
      .post(`/api/users/${target.id}/follow`)
      .set('Authorization', viewer.auth)
      .expect(200);
    await t
      .http()
      .post(`/api/users/${target.id}/follow`)
      .set('Authorization', other.auth)
      .expect(200);
    await t
      .http()
      .post(`/api/users/${other.id}/follow`)
      .set('Authorization', target.auth)
      .expect(200);

    const res = await t.http().get(`/api/users/${target.id}`).set('Authorization', viewer.auth);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      id: target.id,
      name: 'Target',
      email: target.email,
      avatarUrl: null,
      bio: 'Hello',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      followingCount: 1,
      followersCount: 2,
      isFollowing: true,
      posts: [],
    });
  });

  test('when the viewer does not follow the user, then isFollowing is false', async () => {
    const viewer = await t.createMember();
    const target = await t.createMember();
    const res = await t.http().get(`/api/users/${target.id}`).set('Authorization', viewer.auth);
    expect(res.body.isFollowing).toBe(false);
  });

  test.each(['999999', 'abc', '0', '-1', '1.5'])(
    'when the id is %s, then 404 User not found',
    async (id) => {
      const viewer = await t.createMember();
      const res = await t.http().get(`/api/users/${id}`).set('Authorization', viewer.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'User not found' });
    },
  );

  test('when there is no token, then 401', async () => {
    const target = await t.createMember();
    const res = await t.http().get(`/api/users/${target.id}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Authentication required' });
  });

  test('when the account behind the token was deleted, then 401', async () => {
    const member = await t.createMember();
    await t.models.User.deleteOne({ _id: member.id });
    await t.http().get(`/api/users/${member.id}`).set('Authorization', member.auth).expect(401);
  });
});

describe('PUT /api/users/:id', () => {
  test('when members edit their own profile, then name, bio and avatar are stored trimmed and the updated user is returned', async () => {
    const member = await t.createMember();
    const res = await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({
        name: '  New Name ',
        bio: ' Bio text ',
        avatarUrl: ` http://api.test/uploads/${UPLOAD_NAME} `,
      });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: member.id,
      name: 'New Name',
      email: member.email,
      bio: 'Bio text',
      avatarUrl: `http://api.test/uploads/${UPLOAD_NAME}`,
      createdAt: expect.any(String),
    });
    const stored = await t.storedUser(member.id);
    expect(stored).toMatchObject({
      name: 'New Name',
      bio: 'Bio text',
      avatarUrl: `/uploads/${UPLOAD_NAME}`,
    });
  });

  test('when the avatar is an upload URL of the API or empty, then it is accepted (empty removes it)', async () => {
    const member = await t.createMember();
    const upload = 'http://api.test/uploads/0123456789abcdef0123456789abcdef.webp';
    const path = '/uploads/0123456789abcdef0123456789abcdef.webp';
    const res = await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ name: 'A', avatarUrl: upload });
    expect(res.body.avatarUrl).toBe(upload);
    // Stored as a path, so a new PUBLIC_URL (another host or port) keeps avatars working.
    expect((await t.storedUser(member.id))?.avatarUrl).toBe(path);
    const moved = await t
      .withConfig({ publicUrl: 'https://campus.example' })
      .get(`/api/users/${member.id}`)
      .set('Authorization', member.auth);
    expect(moved.body.avatarUrl).toBe(`https://campus.example${path}`);

    const relative = await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ name: 'A', avatarUrl: path });
    expect(relative.body.avatarUrl).toBe(upload);
    // Another site's /uploads/ URL is not ours: every viewer's browser would fetch it.
    const foreign = 'https://elsewhere.example/uploads/0123456789abcdef0123456789abcdef.webp';
    const refused = await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ name: 'A', avatarUrl: foreign });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: AVATAR_URL_MESSAGE });
    expect((await t.storedUser(member.id))?.avatarUrl).toBe(path);
    await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ name: 'A', avatarUrl: '' })
      .expect(200);
    expect((await t.storedUser(member.id))?.avatarUrl).toBeNull();
  });

  test('when an avatar is replaced or removed, then the old file is deleted, unless another member shows it', async () => {
    const member = await t.createMember();
    const put = (avatarUrl: string) =>
      t
        .http()
        .put(`/api/users/${member.id}`)
        .set('Authorization', member.auth)
        .send({ name: 'A', avatarUrl });
    const first = await storedUpload(`${'1'.repeat(32)}.webp`);
    const second = await storedUpload(`${'2'.repeat(32)}.webp`);
    await put(first).expect(200);
    await put(`http://api.test${second}`).expect(200);
    expect(await uploadExists(first)).toBe(false);
    expect(await uploadExists(second)).toBe(true);
    // Saving the profile with the same avatar keeps it.
    await put(second).expect(200);
    expect(await uploadExists(second)).toBe(true);

    const other = await t.createMember();
    await t
      .http()
      .put(`/api/users/${other.id}`)
      .set('Authorization', other.auth)
      .send({ name: 'B', avatarUrl: second })
      .expect(200);
    await put('').expect(200);
    expect(await uploadExists(second)).toBe(true); // still the other member's avatar
  });

  test('when the avatar names an upload that does not exist (removed, or made up), then 400 and nothing changes', async () => {
    const member = await t.createMember();
    const before = await t.storedUser(member.id);
    const res = await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ name: 'A', avatarUrl: `/uploads/${'f'.repeat(32)}.webp` });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: AVATAR_URL_MESSAGE });
    expect(await t.storedUser(member.id)).toEqual(before);
  });

  test('when only the name is sent, then bio and avatar stay as they were', async () => {
    const member = await t.createMember({ bio: 'Keep me' });
    await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ name: 'Only name' })
      .expect(200);
    expect(await t.storedUser(member.id)).toMatchObject({ name: 'Only name', bio: 'Keep me' });
  });

  test.each([
    ['the name is empty', { name: '' }, 'Name is required'],
    ['the name is blank', { name: '   ' }, 'Name is required'],
    ['the name is missing', { bio: 'x' }, 'Name is required'],
    [
      'the name has 101 characters',
      { name: 'n'.repeat(101) },
      'Name must be less than 100 characters',
    ],
    [
      'the bio has 501 characters',
      { name: 'Ok', bio: 'b'.repeat(501) },
      'Bio must be less than 500 characters',
    ],
    [
      'the avatar is javascript:',
      { name: 'Ok', avatarUrl: 'javascript:alert(1)' },
      AVATAR_URL_MESSAGE,
    ],
    [
      'the avatar is JavaScript: with spaces',
      { name: 'Ok', avatarUrl: '  JaVaScRiPt:alert(1)' },
      AVATAR_URL_MESSAGE,
    ],
    [
      'the avatar is data:',
      { name: 'Ok', avatarUrl: 'data:image/svg+xml;base64,PHN2Zy8+' },
      AVATAR_URL_MESSAGE,
    ],
    [
      'the avatar is ftp:',
      { name: 'Ok', avatarUrl: 'ftp://example.org/a.png' },
      AVATAR_URL_MESSAGE,
    ],
    [
      'the avatar is another site’s image (a tracking pixel every viewer would fetch)',
      { name: 'Ok', avatarUrl: 'https://images.example.org/me.png' },
      AVATAR_URL_MESSAGE,
    ],
    [
      'the name carries a right-to-left override',
      { name: 'Ada \u202Enimda' },
      'Name cannot contain control, invisible or text-direction characters',
    ],
    [
      'the name carries a NUL',
      { name: 'Ada\u0000' },
      'Name cannot contain control, invisible or text-direction characters',
    ],
    [
      'the bio carries a zero-width space',
      { name: 'Ok', bio: 'hid\u200Bden' },
      'Bio cannot contain control, invisible or text-direction characters',
    ],
    [
      'the avatar is a relative path outside uploads',
      { name: 'Ok', avatarUrl: '/api/users/1' },
      AVATAR_URL_MESSAGE,
    ],
  ])('when %s, then 400 with the message and nothing changes', async (_case, body, message) => {
    const member = await t.createMember({ name: 'Before', bio: 'Before bio' });
    const before = await t.storedUser(member.id);
    const res = await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
    expect(await t.storedUser(member.id)).toEqual(before);
  });

  test('when the name has exactly 100 and the bio 500 characters, then they are accepted', async () => {
    const member = await t.createMember();
    await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ name: 'n'.repeat(100), bio: 'b'.repeat(500) })
      .expect(200);
  });

  test("when a member edits someone else's profile, then 403 and the other profile is unchanged", async () => {
    const attacker = await t.createMember();
    const victim = await t.createMember({ name: 'Victim' });
    const before = await t.storedUser(victim.id);
    const res = await t
      .http()
      .put(`/api/users/${victim.id}`)
      .set('Authorization', attacker.auth)
      .send({ name: 'Hacked' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'You can only edit your own profile' });
    expect(await t.storedUser(victim.id)).toEqual(before);
  });
});

describe('last activity', () => {
  test('when a member makes authenticated requests, then lastActiveAt is recorded once per throttle window', async () => {
    const member = await t.createMember();
    expect(await t.lastActiveAt(member.id)).toBeNull();
    await t.http().get(`/api/users/${member.id}`).set('Authorization', member.auth).expect(200);
    const first = await t.lastActiveAt(member.id);
    expect(first).toBeInstanceOf(Date);
    await t.http().get(`/api/users/${member.id}`).set('Authorization', member.auth).expect(200);
    expect(await t.lastActiveAt(member.id)).toEqual(first);
  });

  test('when the throttle window has passed, then the next request records it again', async () => {
    const clock = new TestClock();
    const client = t.withConfig({ activityThrottleMs: 1_000 }, clock);
    const member = await t.createMember();
    await client.get(`/api/users/${member.id}`).set('Authorization', member.auth).expect(200);
    const first = (await t.lastActiveAt(member.id))!;
    clock.advance(1_000);
    await client.get(`/api/users/${member.id}`).set('Authorization', member.auth).expect(200);
    expect((await t.lastActiveAt(member.id))!.getTime()).toBeGreaterThan(first.getTime());
  });
});
