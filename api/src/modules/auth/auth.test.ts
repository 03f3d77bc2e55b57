import fs from 'node:fs/promises';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { TEST_JWT_SECRET, TEST_PASSWORD, uniqueEmail, useTestApp } from '../../../test/test-app';
import { clearOfWindowEnd } from '../../../test/rate-windows';
import { createLogger } from '../../platform/logger';
import { TOO_MANY_FAILED_SIGN_INS_FROM_ADDRESS as FLOODED } from './routes';

const t = useTestApp();

async function outboxMessages(): Promise<
  Array<{ to: string; subject: string; links: { verification: string } }>
> {
  await t.mailSent();
  const dir = path.join(t.dataDir, 'outbox');
  const files = (await fs.readdir(dir).catch(() => [])).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (f) => JSON.parse(await fs.readFile(path.join(dir, f), 'utf8'))),
  );
}

async function verificationLinkFor(email: string): Promise<string> {
  const message = (await outboxMessages()).filter((m) => m.to === email).at(-1);
  if (!message) throw new Error(`no e-mail to ${email}`);
  return message.links.verification;
}

function tokenFromLink(link: string): string {
  return link.slice(link.lastIndexOf('/') + 1);
}

describe('POST /api/auth/register', () => {
  test('when a new institutional address registers, then the account is stored unverified with a bcrypt hash and a verification e-mail is written', async () => {
    const email = uniqueEmail('reg');
    const res = await t
      .http()
      .post('/api/auth/register')
      .send({ name: '  Ada  ', email, password: 'long enough' });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ name: 'Ada', email, avatarUrl: null, bio: '' });
    expect(res.body.user).not.toHaveProperty('password');
    expect(res.body.user).not.toHaveProperty('verificationToken');
    expect(res.body.message).toMatch(/check your inbox/i);

    const stored = await t.models.User.findOne({ email }).lean();
    expect(stored?.isVerified).toBe(false);
    expect(stored?.password).toMatch(/^\$2[aby]\$/);
    const link = await verificationLinkFor(email);
    expect(link).toMatch(/^http:\/\/web\.test\/verify\/[A-Za-z0-9_-]{43}$/);
    // Only a hash of the token is stored.
    expect(stored?.verificationToken).not.toBe(tokenFromLink(link));
  });

  test('when the e-mail differs only by case from an existing verified one, then 409 and no second account', async () => {
    const email = uniqueEmail('case');
    await t.createMember({ email });
    const res = await t
      .http()
      .post('/api/auth/register')
      .send({ name: 'B', email: email.toUpperCase(), password: 'long enough' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('An account with this email already exists');
    expect(await t.models.User.countDocuments({ email })).toBe(1);
  });

  test.each(['campus.edu', 'mail.campus.edu', 'cu.edu', 'CAMPUS.EDU'])(
    'when the domain is %s, then registration is accepted',
    async (domain) => {
      const res = await t
        .http()
        .post('/api/auth/register')
        .send({ name: 'X', email: uniqueEmail('d', domain), password: 'long enough' });
      expect(res.status).toBe(201);
    },
  );

  test.each(['gmail.com', 'campus.edu.evil.com', 'notcampus.edu', 'evil.com'])(
    'when the domain is %s, then 400 says only institutional addresses are accepted and nothing is stored',
    async (domain) => {
      const email = uniqueEmail('out', domain);
      const res = await t
        .http()
        .post('/api/auth/register')
        .send({ name: 'X', email, password: 'long enough' });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^Only institutional email addresses are accepted/);
      expect(await t.models.User.exists({ email })).toBeNull();
    },
  );

  test('when INSTITUTION_DOMAINS is configured, then only those domains are accepted', async () => {
    const client = t.withConfig({ institutionDomains: ['other.ac.uk'] });
    await client
      .post('/api/auth/register')
      .send({ name: 'X', email: uniqueEmail('o', 'other.ac.uk'), password: 'long enough' })
      .expect(201);
    await client
      .post('/api/auth/register')
      .send({ name: 'X', email: uniqueEmail('o'), password: 'long enough' })
      .expect(400);
  });

  test('when the registration form asks for the rules, then the configured domains and the password minimum come back, to anyone (issue 41)', async () => {
    const defaults = await t.http().get('/api/auth/registration-rules').expect(200);
    expect(defaults.body).toEqual({
      institutionDomains: ['campus.edu', 'mail.campus.edu', 'cu.edu'],
      passwordMinLength: 8,
    });
    const configured = await t
      .withConfig({ institutionDomains: ['other.ac.uk'] })
      .get('/api/auth/registration-rules')
      .expect(200);
    expect(configured.body.institutionDomains).toEqual(['other.ac.uk']);
  });

  test.each([
    [
      'the password has 7 characters',
      { password: '1234567' },
      'Password must be at least 8 characters',
    ],
    [
      'the password has 129 characters',
      { password: 'x'.repeat(129) },
      'Password must be at most 128 characters',
    ],
    ['the name is blank', { name: '   ' }, 'Name is required'],
    ['the name is missing', { name: undefined }, 'Name is required'],
    [
      'the e-mail is not an address',
      { email: 'not-an-email' },
      'Please enter a valid email address',
    ],
    ['the password is missing', { password: undefined }, 'Password is required'],
  ])('when %s, then 400 with a clear message', async (_case, change, message) => {
    const body = { name: 'Valid', email: uniqueEmail('v'), password: 'long enough', ...change };
    const res = await t.http().post('/api/auth/register').send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
    expect(await t.models.User.exists({ email: body.email })).toBeNull();
  });

  test('when SMTP is down, then the sign-up is still answered 201 and its verification e-mail waits in the mail queue', async () => {
    const client = t.withConfig({ smtpUrl: 'smtp://127.0.0.1:1' });
    const email = uniqueEmail('nomail');
    const res = await client
      .post('/api/auth/register')
      .send({ name: 'N', email, password: 'long enough' });
    expect(res.status).toBe(201);
    expect(await t.models.User.exists({ email })).not.toBeNull();
    // Queued in the request; sent by a worker, tried again while SMTP is down (mail-queue.test.ts).
    expect(await t.models.QueuedMail.exists({ to: email })).not.toBeNull();
  });

  test('when the password is 8 characters without any composition, then it is accepted', async () => {
    await t
      .http()
      .post('/api/auth/register')
      .send({ name: 'X', email: uniqueEmail('p'), password: 'aaaaaaaa' })
      .expect(201);
  });
});

describe('GET /api/auth/verify/:token', () => {
  test('when the link is followed, then the account is verified, and the same link then fails with an error field', async () => {
    const email = uniqueEmail('ver');
    const browser = t.browser(); // the browser that registered (account-takeover.test.ts: others)
    await browser
      .post('/api/auth/register')
      .send({ name: 'V', email, password: 'long enough' })
      .expect(201);
    const token = tokenFromLink(await verificationLinkFor(email));

    const first = await browser.get(`/api/auth/verify/${token}`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      message: 'Email verified successfully! You can now log in.',
      user: expect.objectContaining({ name: 'V', email }),
      firstSignIn: true,
    });
    expect((await t.models.User.findOne({ email }).lean())?.isVerified).toBe(true);

    const second = await browser.get(`/api/auth/verify/${token}`);
    expect(second.status).toBe(400);
    expect(second.body.error).toMatch(/invalid or has already been used/);
    expect(second.body.message).toBe(second.body.error);
  });

  test('when the browser that registered opens its link, then it is signed in at once (issue 41)', async () => {
    const email = uniqueEmail('ver-in');
    const browser = t.browser();
    await browser
      .post('/api/auth/register')
      .send({ name: 'Vi', email, password: 'long enough' })
      .expect(201);
    await browser.get('/api/auth/me').expect(401);
    const token = tokenFromLink(await verificationLinkFor(email));

    const opened = await browser.get(`/api/auth/verify/${token}`).expect(200);
    const me = await browser.get('/api/auth/me').expect(200);
    expect(me.body.user).toEqual(opened.body.user);
    expect(me.body.user).toMatchObject({ name: 'Vi', email });
    // It is the member's first sign-in (issue 41: the first run); the next one is not.
    expect(opened.body.firstSignIn).toBe(true);
    const again = await t.http().post('/api/auth/login').send({ email, password: 'long enough' });
    expect(again.status).toBe(200);
    expect(again.body).not.toHaveProperty('firstSignIn');
  });

  test('when another browser verifies the link with a password, then it is not signed in: its holder signs in with that password', async () => {
    const email = uniqueEmail('ver-out');
    await t
      .browser()
      .post('/api/auth/register')
      .send({ name: 'Vo', email, password: 'long enough' })
      .expect(201);
    const token = tokenFromLink(await verificationLinkFor(email));
    const elsewhere = t.browser();

    const opened = await elsewhere.get(`/api/auth/verify/${token}`).expect(200);
    expect(opened.body).toEqual({
      message: 'Choose a password to finish verifying your email.',
      passwordRequired: true,
    });
    await elsewhere.get('/api/auth/me').expect(401);
    const chosen = await elsewhere
      .post(`/api/auth/verify/${token}`)
      .send({ password: 'chosen password' });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toEqual({ message: 'Email verified successfully! You can now log in.' });
    await elsewhere.get('/api/auth/me').expect(401);
  });

  test.each(['unknown-token-unknown-token-unknown-token', 'short', '%24ne'])(
    'when the token is %s, then 400 with an error field',
    async (token) => {
      const res = await t.http().get(`/api/auth/verify/${token}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBeDefined();
    },
  );
});

describe('POST /api/auth/login', () => {
  test('when a verified member signs in, then the user and an HS256 token with expiry and issuer come back', async () => {
    const member = await t.createMember();
    const res = await t
      .http()
      .post('/api/auth/login')
      .send({ email: member.email.toUpperCase(), password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: member.id, email: member.email, name: member.name });
    expect(res.body.user).not.toHaveProperty('password');
    const decoded = jwt.decode(res.body.token, { complete: true });
    expect(decoded?.header.alg).toBe('HS256');
    const payload = jwt.verify(res.body.token, TEST_JWT_SECRET, {
      algorithms: ['HS256'],
    }) as jwt.JwtPayload;
    expect(payload).toMatchObject({ sub: String(member.id), iss: 'campus-api' });
    expect(payload.exp! - payload.iat!).toBe(7 * 24 * 3600);
    await t
      .http()
      .get(`/api/users/${member.id}`)
      .set('Authorization', `Bearer ${res.body.token}`)
      .expect(200);
  });

  test('when the e-mail is unknown or the password wrong, then both get the same 401 message', async () => {
    const member = await t.createMember();
    const unknown = await t
      .http()
      .post('/api/auth/login')
      .send({ email: uniqueEmail('nobody'), password: TEST_PASSWORD });
    const wrong = await t
      .http()
      .post('/api/auth/login')
      .send({ email: member.email, password: 'wrong password' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual({ message: 'Invalid email or password' });
    expect(wrong.body).toEqual(unknown.body);
  });

  test('when the account is not verified, then 403 tells the user to verify the e-mail', async () => {
    const member = await t.createMember({ isVerified: false });
    const res = await t
      .http()
      .post('/api/auth/login')
      .send({ email: member.email, password: TEST_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/verify your email/);
    expect(res.body).not.toHaveProperty('token');
  });

  test('when the registered, verified account signs in, then the whole journey works', async () => {
    const email = uniqueEmail('journey');
    const browser = t.browser();
    await browser
      .post('/api/auth/register')
      .send({ name: 'J', email, password: 'my password' })
      .expect(201);
    await t.http().post('/api/auth/login').send({ email, password: 'my password' }).expect(403);
    await browser
      .get(`/api/auth/verify/${tokenFromLink(await verificationLinkFor(email))}`)
      .expect(200);
    const res = await t.http().post('/api/auth/login').send({ email, password: 'my password' });
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe('string');
  });

  test('when a member signs in for the first time, then the answer says so once and the date is stored; the next sign-in does not say it (issue 41)', async () => {
    const member = await t.createMember();
    expect(await t.storedUser(member.id)).not.toHaveProperty('firstSignedInAt');
    const signIn = () =>
      t.http().post('/api/auth/login').send({ email: member.email, password: TEST_PASSWORD });

    const first = await signIn();
    expect(first.status).toBe(200);
    expect(first.body.firstSignIn).toBe(true);
    const stored = (await t.storedUser(member.id))?.firstSignedInAt;
    expect(stored).toBeInstanceOf(Date);

    const second = await signIn();
    expect(second.status).toBe(200);
    expect(second.body).not.toHaveProperty('firstSignIn');
    expect((await t.storedUser(member.id))?.firstSignedInAt).toEqual(stored);
  });

  test('when two first sign-ins of one member run at once, then exactly one of them is the first (issue 41)', async () => {
    const member = await t.createMember();
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        t.http().post('/api/auth/login').send({ email: member.email, password: TEST_PASSWORD }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.body.firstSignIn === true)).toHaveLength(1);
    expect(answers.filter((a) => 'firstSignIn' in a.body)).toHaveLength(1);
  });

  test('when a wrong password or an unverified account tries, then no first sign-in is recorded (issue 41)', async () => {
    const member = await t.createMember();
    await t
      .http()
      .post('/api/auth/login')
      .send({ email: member.email, password: 'wrong password' })
      .expect(401);
    const unverified = await t.createMember({ isVerified: false });
    await t
      .http()
      .post('/api/auth/login')
      .send({ email: unverified.email, password: TEST_PASSWORD })
      .expect(403);
    expect(await t.storedUser(member.id)).not.toHaveProperty('firstSignedInAt');
    expect(await t.storedUser(unverified.id)).not.toHaveProperty('firstSignedInAt');
    const first = await t
      .http()
      .post('/api/auth/login')
      .send({ email: member.email, password: TEST_PASSWORD });
    expect(first.body.firstSignIn).toBe(true);
  });

  test('when the migration 0004-first-signed-in runs, then members of older versions are not asked for a first run (issue 41)', async () => {
    const older = await t.createMember();
    const { up } = await import('../../migrations/0004-first-signed-in');
    const { connection } = t.database;
    const context = {
      db: connection.db!,
      connection,
      models: t.models,
      logger: createLogger('silent'),
    };
    await up(context);
    const set = (await t.storedUser(older.id))?.firstSignedInAt;
    expect(set).toBeInstanceOf(Date);
    // Safe to run again: nothing changes.
    await up(context);
    expect((await t.storedUser(older.id))?.firstSignedInAt).toEqual(set);
    const signIn = await t
      .http()
      .post('/api/auth/login')
      .send({ email: older.email, password: TEST_PASSWORD });
    expect(signIn.status).toBe(200);
    expect(signIn.body).not.toHaveProperty('firstSignIn');
    // A member who registers after the upgrade still gets theirs.
    const newer = await t.createMember();
    const theirs = await t
      .http()
      .post('/api/auth/login')
      .send({ email: newer.email, password: TEST_PASSWORD });
    expect(theirs.body.firstSignIn).toBe(true);
  });

  test('when the password is empty, then 400', async () => {
    const res = await t.http().post('/api/auth/login').send({ email: uniqueEmail(), password: '' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Password is required' });
  });
});

describe('GET /api/auth/me', () => {
  test('when a member asks, then they get their public fields and the member role only', async () => {
    const ada = await t.createMember({ name: 'Ada', bio: 'Hi' });
    const res = await t.http().get('/api/auth/me').set('Authorization', ada.auth).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      user: {
        id: ada.id,
        name: 'Ada',
        email: ada.email,
        avatarUrl: null,
        bio: 'Hi',
        createdAt: expect.any(String),
      },
      roles: ['member'],
    });
  });

  test('when the configured administrator asks, then the roles are member and admin', async () => {
    const admin = await t.createMember({ id: t.config.adminUserId });
    const res = await t.http().get('/api/auth/me').set('Authorization', admin.auth).expect(200);
    expect(res.body.roles).toEqual(['member', 'admin']);
  });

  test('when another id is configured as the administrator, then that member is the admin', async () => {
    const grace = await t.createMember();
    const client = t.withConfig({ adminUserId: grace.id });
    expect((await client.get('/api/auth/me').set('Authorization', grace.auth)).body.roles).toEqual([
      'member',
      'admin',
    ]);
    const onDefault = await t.http().get('/api/auth/me').set('Authorization', grace.auth);
    expect(onDefault.body.roles).toEqual(['member']);
  });

  test('when there is no token, or the account is not verified, then it is a 401', async () => {
    await t.http().get('/api/auth/me').expect(401);
    const unverified = await t.createMember({ isVerified: false });
    await t.http().get('/api/auth/me').set('Authorization', unverified.auth).expect(401);
  });
});

describe('rate limits', () => {
  test.each([
    // Per address, only wrong passwords count (a right one always passes: sign-in-guessing.test.ts).
    ['login', 'post', '/api/auth/login', { email: 'x@campus.edu', password: 'x' }, FLOODED],
    ['register', 'post', '/api/auth/register', { name: 'x' }, /Too many requests/],
    [
      'verify',
      'get',
      '/api/auth/verify/abcdefghijklmnopqrstuvwxyz',
      undefined,
      /Too many requests/,
    ],
    ['application', 'post', '/api/account-application', {}, /Too many requests/],
  ] as const)(
    'when %s is called more often than allowed, then 429 with Retry-After',
    async (rule, method, url, body, message) => {
      await clearOfWindowEnd(60_000);
      const client = t.withConfig({ rateLimits: { [rule]: { max: 2, windowMs: 60_000 } } });
      for (let i = 0; i < 2; i += 1) {
        const ok = await client[method](url).send(body);
        expect(ok.status).not.toBe(429);
      }
      const limited = await client[method](url).send(body);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(limited.body.message).toMatch(message);
    },
  );

  test('when a register is rate limited, then the account is not created', async () => {
    // The counts are in the database, shared by every app on it: start this one from zero.
    await t.models.RateLimitWindow.deleteMany({});
    await clearOfWindowEnd(60_000);
    const client = t.withConfig({ rateLimits: { register: { max: 1, windowMs: 60_000 } } });
    await client.post('/api/auth/register').send({ name: 'x' }).expect(400);
    const email = uniqueEmail('limited');
    await client
      .post('/api/auth/register')
      .send({ name: 'X', email, password: 'long enough' })
      .expect(429);
    expect(await t.models.User.exists({ email })).toBeNull();
  });
});
