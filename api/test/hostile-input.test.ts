import jwt from 'jsonwebtoken';
import mongoose from 'mongoose';
import { TEST_JWT_SECRET, TEST_PASSWORD, uniqueEmail, useTestApp } from './test-app';

const t = useTestApp();

const OPERATOR_VALUES: unknown[] = [
  { $gt: '' },
  { $ne: null },
  { $where: 'sleep(1000)' },
  { $regex: '.*' },
  ['array', 'value'],
  { nested: { $gt: '' } },
  42,
  true,
  null,
];

async function collectionCounts() {
  return {
    users: await t.models.User.countDocuments(),
    follows: await t.models.Follow.countDocuments(),
    feedback: await t.models.Feedback.countDocuments(),
    applications: await t.models.AccountApplication.countDocuments(),
  };
}

describe('MongoDB operator objects and wrong types in every body field', () => {
  const registerBody = () => ({ name: 'Valid', email: uniqueEmail('op'), password: 'long enough' });
  const profileBody = { name: 'Valid', bio: 'Valid', avatarUrl: '' };
  const feedbackBody = { feedback: 'Valid' };
  const applicationBody = { name: 'Valid', contactInfo: 'Valid', message: 'Valid' };

  const cases = (fields: string[]) =>
    fields.flatMap((field) => OPERATOR_VALUES.map((value) => [field, value] as const));

  test.each(cases(['name', 'email', 'password']))(
    'when register gets %s = %j, then 400 and no account',
    async (field, value) => {
      const before = await collectionCounts();
      const res = await t
        .http()
        .post('/api/auth/register')
        .send({ ...registerBody(), [field]: value });
      expect(res.status).toBe(400);
      expect(await collectionCounts()).toEqual(before);
    },
  );

  test.each(cases(['email', 'password']))(
    'when login gets %s = %j, then 400 and no token',
    async (field, value) => {
      const member = await t.createMember();
      const res = await t
        .http()
        .post('/api/auth/login')
        .send({ email: member.email, password: TEST_PASSWORD, [field]: value });
      expect(res.status).toBe(400);
      expect(res.body).not.toHaveProperty('token');
    },
  );

  test.each(cases(['name', 'bio', 'avatarUrl']).filter(([f, v]) => !(f !== 'name' && v === null)))(
    'when a profile update gets %s = %j, then 400 and the profile is unchanged',
    async (field, value) => {
      const member = await t.createMember({ name: 'Before', bio: 'Before' });
      const before = await t.storedUser(member.id);
      const res = await t
        .http()
        .put(`/api/users/${member.id}`)
        .set('Authorization', member.auth)
        .send({ ...profileBody, [field]: value });
      expect(res.status).toBe(400);
      expect(await t.storedUser(member.id)).toEqual(before);
    },
  );

  test.each(cases(['feedback']))(
    'when feedback gets %s = %j, then 400 and nothing is stored',
    async (field, value) => {
      const member = await t.createMember();
      const before = await collectionCounts();
      const res = await t
        .http()
        .post('/api/feedback')
        .set('Authorization', member.auth)
        .send({ ...feedbackBody, [field]: value });
      expect(res.status).toBe(400);
      expect(await collectionCounts()).toEqual(before);
    },
  );

  test.each(cases(['name', 'contactInfo', 'message']))(
    'when an application gets %s = %j, then 400 and nothing is stored',
    async (field, value) => {
      const before = await collectionCounts();
      const res = await t
        .http()
        .post('/api/account-application')
        .send({ ...applicationBody, [field]: value });
      expect(res.status).toBe(400);
      expect(await collectionCounts()).toEqual(before);
    },
  );

  test('when a filter built from untrusted input carries an operator, then mongoose refuses it instead of matching (sanitizeFilter is on)', async () => {
    await t.createMember();
    expect(mongoose.get('sanitizeFilter')).toBe(true);
    const untrusted = JSON.parse('{"$gt": ""}') as string;
    await expect(t.models.User.findOne({ email: untrusted }).lean()).rejects.toThrow(
      /Cast to string failed/,
    );
  });
});

describe('mass assignment', () => {
  test.each([
    ['_id', 1],
    ['id', 1],
    ['isVerified', true],
    ['verificationToken', 'x'],
    ['createdAt', '2000-01-01T00:00:00.000Z'],
    ['passwordResetToken', 'x'],
    ['avatarUrl', 'https://example.org/a.png'],
  ])('when register sends %s, then 400 and no account is created', async (field, value) => {
    const email = uniqueEmail('mass');
    const res = await t
      .http()
      .post('/api/auth/register')
      .send({ name: 'M', email, password: 'long enough', [field]: value });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`Unrecognized key: "${field}"`);
    expect(await t.models.User.exists({ email })).toBeNull();
  });

  test.each([
    ['_id', 999],
    ['id', 999],
    ['email', 'other@campus.edu'],
    ['password', 'new password'],
    ['isVerified', false],
    ['verificationToken', 'x'],
    ['createdAt', '2000-01-01T00:00:00.000Z'],
    ['lastActiveAt', '2000-01-01T00:00:00.000Z'],
  ])(
    'when a profile update sends %s, then 400 and the stored user is unchanged',
    async (field, value) => {
      const member = await t.createMember();
      const before = await t.storedUser(member.id);
      const res = await t
        .http()
        .put(`/api/users/${member.id}`)
        .set('Authorization', member.auth)
        .send({ name: 'N', [field]: value });
      expect(res.status).toBe(400);
      expect(await t.storedUser(member.id)).toEqual(before);
    },
  );

  test.each([
    ['status', 'resolved'],
    ['userId', 1],
    ['id', 5],
  ])('when feedback sends %s, then 400 and nothing is stored', async (field, value) => {
    const member = await t.createMember();
    const before = await collectionCounts();
    await t
      .http()
      .post('/api/feedback')
      .set('Authorization', member.auth)
      .send({ feedback: 'x', [field]: value })
      .expect(400);
    expect(await collectionCounts()).toEqual(before);
  });

  test('when an application sends a status, then 400 and nothing is stored', async () => {
    const before = await collectionCounts();
    await t
      .http()
      .post('/api/account-application')
      .send({ name: 'a', contactInfo: 'b', message: 'c', status: 'approved' })
      .expect(400);
    expect(await collectionCounts()).toEqual(before);
  });
});

describe('tokens that must not authenticate', () => {
  async function forgedTokens(memberId: number, otherId: number) {
    const valid = jwt.sign({}, TEST_JWT_SECRET, {
      algorithm: 'HS256',
      subject: String(memberId),
      issuer: 'campus-api',
      expiresIn: '1h',
    });
    const [header, , signature] = valid.split('.');
    const editedPayload = Buffer.from(
      JSON.stringify({
        sub: String(otherId),
        iss: 'campus-api',
        iat: Math.floor(Date.now() / 1000),
        exp: Math.floor(Date.now() / 1000) + 3600,
      }),
    ).toString('base64url');
    const noneHeader = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString(
      'base64url',
    );
    return {
      'alg none': `${noneHeader}.${editedPayload}.`,
      'wrong secret': jwt.sign({}, 'another-secret-another-secret-another-secret', {
        algorithm: 'HS256',
        subject: String(otherId),
        issuer: 'campus-api',
        expiresIn: '1h',
      }),
      expired: jwt.sign({ exp: Math.floor(Date.now() / 1000) - 60 }, TEST_JWT_SECRET, {
        algorithm: 'HS256',
        subject: String(otherId),
        issuer: 'campus-api',
      }),
      'edited payload': `${header}.${editedPayload}.${signature}`,
      'wrong issuer': jwt.sign({}, TEST_JWT_SECRET, {
        algorithm: 'HS256',
        subject: String(otherId),
        issuer: 'someone-else',
        expiresIn: '1h',
      }),
      'HS512 instead of the pinned HS256': jwt.sign({}, TEST_JWT_SECRET, {
        algorithm: 'HS512',
        subject: String(otherId),
        issuer: 'campus-api',
        expiresIn: '1h',
      }),
      'no subject': jwt.sign({}, TEST_JWT_SECRET, {
        algorithm: 'HS256',
        issuer: 'campus-api',
        expiresIn: '1h',
      }),
      'operator subject': jwt.sign({ sub: { $gt: 0 } }, TEST_JWT_SECRET, {
        algorithm: 'HS256',
        issuer: 'campus-api',
        expiresIn: '1h',
      }),
      garbage: 'not.a.jwt',
    };
  }

  test('when any forged, expired or mis-signed token is used, then 401 and the victim profile is unchanged', async () => {
    const member = await t.createMember();
    const victim = await t.createMember({ name: 'Victim' });
    const before = await t.storedUser(victim.id);
    for (const [kind, token] of Object.entries(await forgedTokens(member.id, victim.id))) {
      const read = await t
        .http()
        .get(`/api/users/${victim.id}`)
        .set('Authorization', `Bearer ${token}`);
      expect({ kind, status: read.status }).toEqual({ kind, status: 401 });
      const write = await t
        .http()
        .put(`/api/users/${victim.id}`)
        .set('Authorization', `Bearer ${token}`)
        .send({ name: 'Hacked' });
      expect({ kind, status: write.status }).toEqual({ kind, status: 401 });
      const follow = await t
        .http()
        .post(`/api/users/${member.id}/follow`)
        .set('Authorization', `Bearer ${token}`);
      expect({ kind, status: follow.status }).toEqual({ kind, status: 401 });
    }
    expect(await t.storedUser(victim.id)).toEqual(before);
    expect(await t.models.Follow.countDocuments({ followerId: victim.id })).toBe(0);
  });

  test.each(['Basic dXNlcjpwYXNz', 'Bearer', 'bearer x', 'Token abc', ''])(
    'when the Authorization header is %j, then 401',
    async (header) => {
      const member = await t.createMember();
      await t.http().get(`/api/users/${member.id}`).set('Authorization', header).expect(401);
    },
  );
});

describe('acting as someone else', () => {
  test('when a follow request names another follower in its body, then 400 and nobody follows anyone', async () => {
    const me = await t.createMember();
    const victim = await t.createMember();
    const target = await t.createMember();
    const res = await t
      .http()
      .post(`/api/users/${target.id}/follow`)
      .set('Authorization', me.auth)
      .send({ followerId: victim.id });
    expect(res.status).toBe(400);
    expect(await t.models.Follow.countDocuments({ followingId: target.id })).toBe(0);
  });

  test("when a member edits another member's profile with their own valid token, then 403 and it is unchanged", async () => {
    const me = await t.createMember();
    const victim = await t.createMember();
    const before = await t.storedUser(victim.id);
    await t
      .http()
      .put(`/api/users/${victim.id}`)
      .set('Authorization', me.auth)
      .send({ name: 'Hacked', bio: 'owned' })
      .expect(403);
    expect(await t.storedUser(victim.id)).toEqual(before);
  });

  test('when an unverified account holds a signed token, then 401', async () => {
    const pending = await t.createMember({ isVerified: false });
    await t.http().get(`/api/users/${pending.id}`).set('Authorization', pending.auth).expect(401);
  });
});

describe('oversize and malformed bodies', () => {
  test('when a JSON body exceeds the limit, then 413 and the profile is unchanged', async () => {
    const member = await t.createMember();
    const before = await t.storedUser(member.id);
    const res = await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ name: 'x', bio: 'b'.repeat(200_000) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Request body is too large' });
    expect(await t.storedUser(member.id)).toEqual(before);
  });

  test.each(['{"name": "x",', '{name: x}', '"just a string"', 'null', '[1,2]'])(
    'when the JSON body is %s, then 400',
    async (raw) => {
      const before = await collectionCounts();
      const res = await t
        .http()
        .post('/api/account-application')
        .set('Content-Type', 'application/json')
        .send(raw);
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
      expect(await collectionCounts()).toEqual(before);
    },
  );

  test.each([
    ['text/plain', 'name=a'],
    ['application/x-www-form-urlencoded', 'name=a&contactInfo=b&message=c'],
    ['application/xml', '<a/>'],
  ])('when the body is %s, then 415 and nothing is stored', async (type, raw) => {
    const before = await collectionCounts();
    const res = await t.http().post('/api/account-application').set('Content-Type', type).send(raw);
    expect(res.status).toBe(415);
    expect(await collectionCounts()).toEqual(before);
  });

  test('when a multipart body is sent to a JSON route, then 415', async () => {
    const member = await t.createMember();
    const res = await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .field('name', 'Multipart');
    expect(res.status).toBe(415);
    expect((await t.storedUser(member.id))?.name).not.toBe('Multipart');
  });
});

describe('script payloads are data', () => {
  test('when name and bio contain markup, then they are stored and returned verbatim as JSON text', async () => {
    const member = await t.createMember();
    const name = '<script>alert("x")</script>';
    const bio = '<img src=x onerror=alert(1)> \u2028 & "quotes" </textarea>';
    const res = await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ name, bio });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toMatchObject({ name, bio });
    expect(await t.storedUser(member.id)).toMatchObject({ name, bio });
    const profile = await t.http().get(`/api/users/${member.id}`).set('Authorization', member.auth);
    expect(profile.body).toMatchObject({ name, bio });
  });

  test.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    '\tjavascript:alert(1)',
    'java\nscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example/a.png',
    'https://',
    'https://tracker.example/pixel.gif?member=1',
    `https://tracker.example/uploads/${'a'.repeat(32)}.webp`,
    `http://api.test.evil.example/uploads/${'a'.repeat(32)}.webp`,
    `http://api.test@evil.example/uploads/${'a'.repeat(32)}.webp`,
    `http://api.test/uploads/${'a'.repeat(32)}.webp?x=1`,
  ])('when the avatar URL is %j, then 400 and the avatar is unchanged', async (avatarUrl) => {
    const member = await t.createMember();
    const before = await t.storedUser(member.id);
    const res = await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ name: 'A', avatarUrl });
    expect(res.status).toBe(400);
    expect(await t.storedUser(member.id)).toEqual(before);
  });
});

describe('invisible characters in names and bios', () => {
  const INVISIBLE_MESSAGE = 'cannot contain control, invisible or text-direction characters';
  const samples = [
    ['NUL', 'Ada\u0000Admin'],
    ['an escape sequence', 'Ada\u001b[2J'],
    ['a right-to-left override', 'Ada \u202Egnp.exe'],
    ['a first-strong isolate', 'Ada \u2068x'],
    ['a zero-width space', 'Ad\u200Ba'],
    ['a zero-width joiner between letters', 'ad\u200Dmin'],
  ] as const;

  test.each(samples)(
    'when a registration name carries %s, then 400 and no account',
    async (_case, name) => {
      const email = uniqueEmail('invisible');
      const res = await t
        .http()
        .post('/api/auth/register')
        .send({ name, email, password: 'long enough' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: `Name ${INVISIBLE_MESSAGE}` });
      expect(await t.models.User.exists({ email })).toBeNull();
    },
  );

  test.each(samples)(
    'when a profile name or bio carries %s, then 400 and the profile is unchanged',
    async (_case, text) => {
      const member = await t.createMember();
      const before = await t.storedUser(member.id);
      for (const [body, field] of [
        [{ name: text }, 'Name'],
        [{ name: 'Ada', bio: text }, 'Bio'],
      ] as const) {
        const res = await t
          .http()
          .put(`/api/users/${member.id}`)
          .set('Authorization', member.auth)
          .send(body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: `${field} ${INVISIBLE_MESSAGE}` });
      }
      expect(await t.storedUser(member.id)).toEqual(before);
    },
  );

  test('when an applicant’s name carries a right-to-left override, then 400 and nothing reaches the admin', async () => {
    const before = await collectionCounts();
    const res = await t
      .http()
      .post('/api/account-application')
      .send({ name: 'Ada \u202Enimda', contactInfo: 'ada@example.org', message: 'Hello' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `Full name ${INVISIBLE_MESSAGE}` });
    expect(await collectionCounts()).toEqual(before);
  });

  test('when names and bios use other scripts, accents, emoji and line breaks, then they are kept', async () => {
    const member = await t.createMember();
    const res = await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ name: 'Zoë محمد 李 👩‍💻', bio: 'שלום\nLine two' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Zoë محمد 李 👩‍💻', bio: 'שלום\nLine two' });
  });
});

describe('paging far back', () => {
  test('when the feed is asked for an offset beyond 1000, then 400 with a clear message', async () => {
    const member = await t.createMember();
    for (const offset of ['1001', '1000000']) {
      const res = await t
        .http()
        .get(`/api/posts?offset=${offset}`)
        .set('Authorization', member.auth);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: 'The feed can only be paged 1000 posts back (offset must be at most 1000)',
      });
    }
    await t.http().get('/api/posts?offset=1000').set('Authorization', member.auth).expect(200);
  });
});

describe('CORS and headers', () => {
  test('when an allowed app origin calls, then it gets CORS headers with credentials', async () => {
    const res = await t.http().get('/api/settings').set('Origin', 'http://localhost:3002');
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3002');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    // Retry-After for 429s and 503s; X-Request-Id, to quote when reporting a failure.
    expect(res.headers['access-control-expose-headers']).toBe('Retry-After,X-Request-Id');
  });

  test('when any other origin calls or preflights, then its origin is never reflected', async () => {
    const simple = await t.http().get('/api/settings').set('Origin', 'https://evil.example');
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t
      .http()
      .options('/api/auth/login')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const nullOrigin = await t.http().get('/api/settings').set('Origin', 'null');
    expect(nullOrigin.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('when an allowed origin preflights a JSON call with a token, then it may send Authorization', async () => {
    const res = await t
      .http()
      .options('/api/users/1')
      .set('Origin', 'http://localhost:3000')
      .set('Access-Control-Request-Method', 'PUT')
      .set('Access-Control-Request-Headers', 'authorization,content-type');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(res.headers['access-control-allow-headers']).toMatch(/Authorization/);
  });

  test('when any response is sent, then helmet headers are present', async () => {
    const res = await t.http().get('/api/settings');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBeDefined();
    expect(res.headers['content-security-policy']).toBeDefined();
  });

  test('when an unknown API path or method is used, then a JSON 404 or 405', async () => {
    await t.http().get('/api/nothing-here').expect(404, { message: 'Not found' });
    const res = await t.http().delete('/api/settings');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ message: 'Method not allowed' });
  });
});
