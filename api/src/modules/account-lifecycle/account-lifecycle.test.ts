import fs from 'node:fs/promises';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { SESSION_REVOKED_MESSAGE } from '@campus/contracts';
import { clearOfWindowEnd } from '../../../test/rate-windows';
import {
  buildTestApp,
  TEST_JWT_SECRET,
  TEST_PASSWORD,
  uniqueEmail,
  useTestApp,
} from '../../../test/test-app';
import { createModels } from '../../models';
import { TestClock } from '../../../test/clock';
import { connectDatabase } from '../../platform/db';
import { INVALID_RESET_LINK, RESET_LINK_SENT, WRONG_CURRENT_PASSWORD } from './passwords';
import { VERIFICATION_LINK_SENT } from './resend-verification';

const t = useTestApp();

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  links: { verification?: string; reset?: string };
}

/** What the mail queue has delivered to the outbox directory, once it has nothing due. */
async function outbox(): Promise<OutboxMail[]> {
  await t.mailSent();
  const dir = path.join(t.dataDir, 'outbox');
  const files = (await fs.readdir(dir).catch(() => [])).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (f) => JSON.parse(await fs.readFile(path.join(dir, f), 'utf8')) as OutboxMail),
  );
}

async function mailsTo(email: string): Promise<OutboxMail[]> {
  return (await outbox()).filter((m) => m.to === email);
}

async function lastLink(email: string, kind: 'verification' | 'reset'): Promise<string> {
  const link = (await mailsTo(email)).filter((m) => m.links[kind]).at(-1)?.links[kind];
  if (!link) throw new Error(`no ${kind} e-mail to ${email}`);
  return link.slice(link.lastIndexOf('/') + 1);
}

async function login(email: string, password: string) {
  return t.http().post('/api/auth/login').send({ email, password });
}

async function forgot(email: string) {
  return t.http().post('/api/auth/forgot-password').send({ email });
}

async function reset(token: string, password: string) {
  return t.http().post('/api/auth/reset-password').send({ token, password });
}

const me = (auth: string) => t.http().get('/api/auth/me').set('Authorization', auth);

describe('POST /api/auth/forgot-password', () => {
  test('when the account exists, then 202 and an e-mail with a reset link whose token is stored only as a hash, valid 1 hour', async () => {
    const ada = await t.createMember();
    const res = await forgot(ada.email.toUpperCase());
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: RESET_LINK_SENT });
    const [mail] = await mailsTo(ada.email);
    expect(mail?.subject).toBe('Reset your Campus password');
    expect(mail?.links.reset).toMatch(/^http:\/\/web\.test\/reset-password\/[A-Za-z0-9_-]{43}$/);
    const token = await lastLink(ada.email, 'reset');
    const stored = await t.storedUser(ada.id);
    expect(stored?.passwordResetToken).toMatch(/^[a-f0-9]{64}$/);
    expect(stored?.passwordResetToken).not.toContain(token);
    const ttl = stored!.passwordResetExpires!.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000);
  });

  test('when no account has the address, then the same 202 answer and no e-mail (no enumeration)', async () => {
    const email = uniqueEmail('nobody');
    const res = await forgot(email);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: RESET_LINK_SENT });
    expect(await mailsTo(email)).toEqual([]);
  });

  test('when the same address asks too often, then the answer stays 202 but past the allowance only one e-mail per cooldown goes out', async () => {
    await clearOfWindowEnd(60_000);
    const client = t.withConfig({
      rateLimits: {
        accountEmails: { max: 2, windowMs: 60_000 },
        accountEmailsCooldown: { max: 1, windowMs: 60_000 },
      },
    });
    const ada = await t.createMember();
    for (let i = 0; i < 6; i += 1) {
      const res = await client.post('/api/auth/forgot-password').send({ email: ada.email });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ message: RESET_LINK_SENT });
    }
    expect(await mailsTo(ada.email)).toHaveLength(3);
    // The requests that sent nothing changed nothing: the latest e-mail's link works.
    expect((await reset(await lastLink(ada.email, 'reset'), 'a new password')).status).toBe(200);
  });

  test('when one IP asks too often, then 429 with Retry-After', async () => {
    await clearOfWindowEnd(60_000);
    const client = t.withConfig({ rateLimits: { passwordReset: { max: 1, windowMs: 60_000 } } });
    const email = uniqueEmail('ip');
    expect((await client.post('/api/auth/forgot-password').send({ email })).status).toBe(202);
    const res = await client.post('/api/auth/forgot-password').send({ email });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('POST /api/auth/reset-password', () => {
  test('when the token is fresh, then the password changes, the token is cleared, the e-mail counts as verified and older sessions are refused', async () => {
    const ada = await t.createMember({ isVerified: false });
    await forgot(ada.email);
    const token = await lastLink(ada.email, 'reset');
    const res = await reset(token, 'a brand new password');
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/reset/i);

    const stored = await t.storedUser(ada.id);
    expect(stored).toMatchObject({
      isVerified: true,
      passwordResetToken: null,
      passwordResetExpires: null,
    });
    expect(stored?.lastPasswordChange).toBeInstanceOf(Date);
    expect(stored?.unverifiedExpiresAt).toBeUndefined();
    expect((await login(ada.email, TEST_PASSWORD)).status).toBe(401);
    expect((await login(ada.email, 'a brand new password')).status).toBe(200);
    const old = await me(ada.auth);
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ message: SESSION_REVOKED_MESSAGE });
  });

  test('when the token was used once already, then 400 and the password stays', async () => {
    const ada = await t.createMember();
    await forgot(ada.email);
    const token = await lastLink(ada.email, 'reset');
    expect((await reset(token, 'first new password')).status).toBe(200);
    const again = await reset(token, 'second new password');
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: INVALID_RESET_LINK });
    expect((await login(ada.email, 'first new password')).status).toBe(200);
  });

  test('when a newer link was requested, then the older one no longer works', async () => {
    const ada = await t.createMember();
    await forgot(ada.email);
    const older = await lastLink(ada.email, 'reset');
    await forgot(ada.email);
    const newer = await lastLink(ada.email, 'reset');
    expect(newer).not.toBe(older);
    expect((await reset(older, 'a brand new password')).status).toBe(400);
    expect((await reset(newer, 'a brand new password')).status).toBe(200);
  });

  test('when the link is older than an hour, then 400', async () => {
    const ada = await t.createMember();
    await forgot(ada.email);
    const token = await lastLink(ada.email, 'reset');
    await t.models.User.updateOne(
      { _id: ada.id },
      { $set: { passwordResetExpires: new Date(Date.now() - 1000) } },
    );
    expect((await reset(token, 'a brand new password')).status).toBe(400);
    expect((await login(ada.email, TEST_PASSWORD)).status).toBe(200);
  });

  test('when the input is hostile or malformed, then 400 and nothing changes', async () => {
    const ada = await t.createMember();
    await forgot(ada.email);
    await t.mailSent(); // the reset link is made when the mail is written
    const before = await t.storedUser(ada.id);
    for (const body of [
      { token: { $ne: null }, password: 'a brand new password' },
      { token: { $gt: '' }, password: 'a brand new password' },
      { token: ['x'], password: 'a brand new password' },
      { token: 'x'.repeat(43), password: 'short' },
      { token: 'x'.repeat(43), password: 'x'.repeat(129) },
      { token: 'x'.repeat(43), password: 12345678 },
      { token: 'x'.repeat(43), password: 'a brand new password', isVerified: true },
      { token: 'not-a-token', password: 'a brand new password' },
      {},
    ]) {
      const res = await t.http().post('/api/auth/reset-password').send(body);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['message']);
    }
    expect(await t.storedUser(ada.id)).toEqual(before);
  });
});

describe('GET /api/auth/reset-password/:token (issue 41)', () => {
  const status = (token: string) => t.http().get(`/api/auth/reset-password/${token}`);

  test('when the link is fresh, then it is valid, and looking at it changes nothing', async () => {
    const ada = await t.createMember();
    await forgot(ada.email);
    const token = await lastLink(ada.email, 'reset');
    const before = await t.storedUser(ada.id);
    const res = await status(token);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ valid: true });
    expect(await t.storedUser(ada.id)).toEqual(before);
    expect((await reset(token, 'a brand new password')).status).toBe(200);
  });

  test('when the link was used, replaced or is older than an hour, then it is not valid, with the reason', async () => {
    const ada = await t.createMember();
    await forgot(ada.email);
    const used = await lastLink(ada.email, 'reset');
    expect((await reset(used, 'a brand new password')).status).toBe(200);
    expect((await status(used)).body).toEqual({ valid: false, message: INVALID_RESET_LINK });

    await forgot(ada.email);
    const older = await lastLink(ada.email, 'reset');
    await forgot(ada.email);
    const newer = await lastLink(ada.email, 'reset');
    expect((await status(older)).body.valid).toBe(false);
    expect((await status(newer)).body.valid).toBe(true);

    await t.models.User.updateOne(
      { _id: ada.id },
      { $set: { passwordResetExpires: new Date(Date.now() - 1000) } },
    );
    expect((await status(newer)).body).toEqual({ valid: false, message: INVALID_RESET_LINK });
  });

  test.each(['not-a-token', 'x'.repeat(43), 'x'.repeat(300), '%24ne'])(
    'when the token is %s, then it is not valid',
    async (token) => {
      const res = await status(token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ valid: false, message: INVALID_RESET_LINK });
    },
  );
});

describe('PUT /api/auth/password', () => {
  test('when the current password is right, then it changes, this session gets a fresh token and every older token is refused', async () => {
    const ada = await t.createMember();
    const other = await login(ada.email, TEST_PASSWORD);
    const res = await t
      .http()
      .put('/api/auth/password')
      .set('Authorization', ada.auth)
      .send({ currentPassword: TEST_PASSWORD, newPassword: 'a changed password' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['token']);
    expect((await me(`Bearer ${res.body.token}`)).status).toBe(200);
    for (const revoked of [ada.auth, `Bearer ${other.body.token}`]) {
      const answer = await me(revoked);
      expect(answer.status).toBe(401);
      expect(answer.body.message).toBe(SESSION_REVOKED_MESSAGE);
    }
    expect((await t.storedUser(ada.id))?.lastPasswordChange).toBeInstanceOf(Date);
    expect((await login(ada.email, 'a changed password')).status).toBe(200);
  });

  test('when the current password is wrong, then 400 and nothing changes', async () => {
    const ada = await t.createMember();
    const res = await t
      .http()
      .put('/api/auth/password')
      .set('Authorization', ada.auth)
      .send({ currentPassword: 'not my password', newPassword: 'a changed password' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: WRONG_CURRENT_PASSWORD });
    expect((await me(ada.auth)).status).toBe(200);
  });

  test('when the input is hostile or malformed, or there is no token, then 400 / 401', async () => {
    const ada = await t.createMember();
    for (const body of [
      { currentPassword: { $ne: null }, newPassword: 'a changed password' },
      { currentPassword: TEST_PASSWORD, newPassword: 'short' },
      { currentPassword: TEST_PASSWORD, newPassword: ['a changed password'] },
      { currentPassword: TEST_PASSWORD, newPassword: 'a changed password', userId: 1 },
    ]) {
      const res = await t
        .http()
        .put('/api/auth/password')
        .set('Authorization', ada.auth)
        .send(body);
      expect(res.status).toBe(400);
    }
    const anonymous = await t
      .http()
      .put('/api/auth/password')
      .send({ currentPassword: TEST_PASSWORD, newPassword: 'a changed password' });
    expect(anonymous.status).toBe(401);
    expect((await login(ada.email, TEST_PASSWORD)).status).toBe(200);
  });
});

describe('POST /api/auth/logout-all', () => {
  test('when a member signs out everywhere, then 204 and every token issued before is refused, by this app and another one on the database', async () => {
    const ada = await t.createMember();
    const second = t.another({});
    // Both apps have seen (and cached) the token as valid.
    expect((await me(ada.auth)).status).toBe(200);
    expect((await second.http().get('/api/auth/me').set('Authorization', ada.auth)).status).toBe(
      200,
    );
    const res = await t.http().post('/api/auth/logout-all').set('Authorization', ada.auth);
    expect(res.status).toBe(204);
    expect((await me(ada.auth)).body).toEqual({ message: SESSION_REVOKED_MESSAGE });
    const elsewhere = await second.http().get('/api/auth/me').set('Authorization', ada.auth);
    expect(elsewhere.status).toBe(401);
    // Signing in again works.
    const fresh = await login(ada.email, TEST_PASSWORD);
    expect((await me(`Bearer ${fresh.body.token}`)).status).toBe(200);
  });

  test('when another API process (its own connection, its account cache warm for a minute) serves the revoked token, then it refuses it at once too', async () => {
    const { host, port, name } = t.database.connection;
    const otherProcess = await connectDatabase(`mongodb://${host}:${port}/?directConnection=true`, {
      dbName: name,
      models: createModels,
    });
    const { app, callback } = buildTestApp(otherProcess, t.dataDir, { authCacheMs: 60_000 });
    try {
      const ada = await t.createMember();
      const viaOther = () => request(callback).get('/api/auth/me').set('Authorization', ada.auth);
      expect((await viaOther()).status).toBe(200); // now cached there
      await t.http().post('/api/auth/logout-all').set('Authorization', ada.auth).expect(204);
      // `session.revoked` reaches the other process through the outbox.
      await app.caughtUp();
      const answer = await viaOther();
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ message: SESSION_REVOKED_MESSAGE });
    } finally {
      await app.close();
      await otherProcess.close();
    }
  });

  test('when a token was signed before the claim with milliseconds existed, then `iat` decides', async () => {
    const ada = await t.createMember();
    const legacy = jwt.sign({}, TEST_JWT_SECRET, {
      algorithm: 'HS256',
      subject: String(ada.id),
      issuer: 'campus-api',
      expiresIn: '1h',
    });
    expect((await me(`Bearer ${legacy}`)).status).toBe(200);
    // Signed out a second later (the claim has whole seconds): by an app whose clock is ahead.
    const clock = new TestClock();
    clock.advance(1_100);
    await t
      .withConfig({}, clock)
      .post('/api/auth/logout-all')
      .set('Authorization', ada.auth)
      .expect(204);
    expect((await me(`Bearer ${legacy}`)).status).toBe(401);
  });

  test('when there is no token, then 401', async () => {
    expect((await t.http().post('/api/auth/logout-all')).status).toBe(401);
  });
});

describe('POST /api/auth/resend-verification', () => {
  test('when the account is unverified, then 202, a new link, and the old link stops working', async () => {
    const email = uniqueEmail('resend');
    const browser = t.browser(); // the one that registered: its link verifies in one click
    await browser
      .post('/api/auth/register')
      .send({ name: 'Resender', email, password: 'long enough' })
      .expect(201);
    const first = await lastLink(email, 'verification');
    const res = await t.http().post('/api/auth/resend-verification').send({ email });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: VERIFICATION_LINK_SENT });
    const second = await lastLink(email, 'verification');
    expect(second).not.toBe(first);
    expect((await browser.get(`/api/auth/verify/${first}`)).status).toBe(400);
    expect((await browser.get(`/api/auth/verify/${second}`)).status).toBe(200);
  });

  test('when the account is verified or unknown, then the same 202 and no e-mail', async () => {
    const ada = await t.createMember();
    const nobody = uniqueEmail('nobody');
    for (const email of [ada.email, nobody]) {
      const res = await t.http().post('/api/auth/resend-verification').send({ email });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ message: VERIFICATION_LINK_SENT });
      expect(await mailsTo(email)).toEqual([]);
    }
  });

  test('when the input is hostile, then 400', async () => {
    for (const body of [{ email: { $ne: null } }, { email: ['a@campus.edu'] }, {}, { e: 1 }]) {
      expect((await t.http().post('/api/auth/resend-verification').send(body)).status).toBe(400);
      expect((await t.http().post('/api/auth/forgot-password').send(body)).status).toBe(400);
    }
  });
});

describe('unverified sign-ups do not hold an address', () => {
  test('when someone registers an address whose sign-up is unverified, then it replaces it: new password, new link, old link dead', async () => {
    const email = uniqueEmail('squat');
    const squatter = await t
      .browser()
      .post('/api/auth/register')
      .send({ name: 'Squatter', email, password: 'squatter password' });
    expect(squatter.status).toBe(201);
    const squatterLink = await lastLink(email, 'verification');
    const ownersBrowser = t.browser();
    const owner = await ownersBrowser
      .post('/api/auth/register')
      .send({ name: 'Owner', email, password: 'owner password' });
    expect(owner.status).toBe(201);
    expect(owner.body.user.id).toBe(squatter.body.user.id);
    expect(owner.body.user.name).toBe('Owner');
    const ownerLink = await lastLink(email, 'verification');
    expect((await ownersBrowser.get(`/api/auth/verify/${squatterLink}`)).status).toBe(400);
    expect((await ownersBrowser.get(`/api/auth/verify/${ownerLink}`)).status).toBe(200);
    expect((await login(email, 'squatter password')).status).toBe(401);
    expect((await login(email, 'owner password')).status).toBe(200);
    expect(await t.models.User.countDocuments({ email })).toBe(1);
  });

  test('when the address is verified, then registering it again is still a 409', async () => {
    const ada = await t.createMember();
    const res = await t
      .http()
      .post('/api/auth/register')
      .send({ name: 'Other', email: ada.email, password: 'long enough' });
    expect(res.status).toBe(409);
  });

  test('when an unverified sign-up is stored, then it carries an expiry 48 hours out under a TTL index, removed on verification', async () => {
    const email = uniqueEmail('ttl');
    const browser = t.browser();
    await browser
      .post('/api/auth/register')
      .send({ name: 'Later', email, password: 'long enough' })
      .expect(201);
    const stored = await t.models.User.findOne({ email }).lean();
    const ttl = stored!.unverifiedExpiresAt!.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(47.9 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(48 * 3600_000);
    const indexes = await t.models.User.collection.indexes();
    expect(indexes).toContainEqual(
      expect.objectContaining({ key: { unverifiedExpiresAt: 1 }, expireAfterSeconds: 0 }),
    );
    await browser.get(`/api/auth/verify/${await lastLink(email, 'verification')}`).expect(200);
    const verified = await t.models.User.findOne({ email }).lean();
    expect(verified?.unverifiedExpiresAt).toBeUndefined();
  });

  test('when a member looks up an unverified account, then it is a 404', async () => {
    const ada = await t.createMember();
    const pending = await t.createMember({ isVerified: false });
    const res = await t.http().get(`/api/users/${pending.id}`).set('Authorization', ada.auth);
    expect(res.status).toBe(404);
  });
});
