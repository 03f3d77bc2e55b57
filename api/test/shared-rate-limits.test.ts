/**
 * The rate limits live in the database, so two API processes on one database count together;
 * here two apps in one process stand for them (each its own Koa app, models and services, both
 * on ONE database). Sign-in is limited per account for guessing and per address only for floods,
 * as a campus behind one NAT address needs, and the address is the one the trusted proxies saw.
 */
import { clearOfWindowEnd } from './rate-windows';
import { TEST_PASSWORD, useTestApp } from './test-app';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const OFF = { max: 0, windowMs: 60_000 };
const t = useTestApp();

// Every test counts from zero: supertest calls come from one address, and names repeat. And each
// test's attempts fall in one window (a few sign-ins through two apps take seconds here).
beforeEach(async () => {
  await t.models.RateLimitWindow.deleteMany({});
  await clearOfWindowEnd(FIFTEEN_MINUTES, 20_000);
});

const signIn = (client: ReturnType<typeof t.http>, email: string, password = TEST_PASSWORD) =>
  client.post('/api/auth/login').send({ email, password });

test('when an account reaches its failed sign-in limit through process A, then process B refuses it too, with Retry-After', async () => {
  const limits = { rateLimits: { loginFailures: { max: 3, windowMs: FIFTEEN_MINUTES } } };
  const a = t.another(limits);
  const b = t.another(limits);
  const member = await t.createMember();
  for (let i = 0; i < 3; i += 1) {
    await signIn(a.http(), member.email, 'wrong password').expect(401);
  }
  // Even the right password: the account is locked for this window, on every process.
  const refused = await signIn(b.http(), member.email);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  await signIn(a.http(), member.email).expect(429);
});

test('when one account is locked, then other members behind the same address still sign in, and an unknown address is locked with the same message', async () => {
  const app = t.another({
    rateLimits: {
      login: { max: 300, windowMs: FIFTEEN_MINUTES },
      loginFailures: { max: 2, windowMs: FIFTEEN_MINUTES },
    },
  });
  const [locked, neighbour] = [await t.createMember(), await t.createMember()];
  const unknown = 'nobody.here@campus.edu';
  for (let i = 0; i < 2; i += 1) {
    await signIn(app.http(), locked.email, 'wrong password').expect(401);
    await signIn(app.http(), unknown, 'wrong password').expect(401);
  }
  const lockedAnswer = await signIn(app.http(), locked.email, 'wrong password');
  const unknownAnswer = await signIn(app.http(), unknown, 'wrong password');
  expect(lockedAnswer.status).toBe(429);
  expect(unknownAnswer.status).toBe(429);
  expect(unknownAnswer.body).toEqual(lockedAnswer.body);

  const signedIn = await signIn(app.http(), neighbour.email).expect(200);
  expect(signedIn.body.user.id).toBe(neighbour.id);
  // The address of the case is counted per account: a different case is the same account.
  await signIn(app.http(), locked.email.toUpperCase(), 'wrong password').expect(429);
});

test('when a client rotates X-Forwarded-For, then it gets no extra guesses (no trusted proxy, or one)', async () => {
  const perAddress = { login: { max: 3, windowMs: FIFTEEN_MINUTES }, loginFailures: OFF };
  const member = await t.createMember();
  const direct = t.another({ trustProxyHops: 0, rateLimits: perAddress });
  const statuses: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const res = await signIn(direct.http(), member.email, 'wrong password').set(
      'X-Forwarded-For',
      `203.0.113.${i}`,
    );
    statuses.push(res.status);
  }
  expect(statuses).toEqual([401, 401, 401, 429, 429]);

  // Behind one proxy, the client writes the left part and the proxy appends what it saw.
  await t.models.RateLimitWindow.deleteMany({});
  const proxied = t.another({ trustProxyHops: 1, rateLimits: perAddress });
  const behindProxy: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const res = await signIn(proxied.http(), member.email, 'wrong password').set(
      'X-Forwarded-For',
      `198.51.100.${i}, 192.0.2.7`,
    );
    behindProxy.push(res.status);
  }
  expect(behindProxy).toEqual([401, 401, 401, 429, 429]);
  // Another address seen by the proxy is another client.
  await signIn(proxied.http(), member.email)
    .set('X-Forwarded-For', '198.51.100.1, 192.0.2.8')
    .expect(200);
});

test('when members sign in successfully, then it counts against neither the account nor the address', async () => {
  const app = t.another({
    rateLimits: {
      login: { max: 3, windowMs: FIFTEEN_MINUTES },
      loginFailures: { max: 2, windowMs: FIFTEEN_MINUTES },
    },
  });
  const member = await t.createMember();
  for (let i = 0; i < 6; i += 1) await signIn(app.http(), member.email).expect(200);
  await signIn(app.http(), member.email, 'wrong password').expect(401);
  await signIn(app.http(), member.email, 'wrong password').expect(401);
  await signIn(app.http(), member.email, 'wrong password').expect(429);
});

test('when requests that are not signed in flood the feedback route, then the members behind that address can still send feedback', async () => {
  const app = t.another({
    rateLimits: {
      feedback: { max: 2, windowMs: FIFTEEN_MINUTES },
      feedbackIp: { max: 100, windowMs: FIFTEEN_MINUTES },
    },
  });
  for (let i = 0; i < 20; i += 1) {
    await app.http().post('/api/feedback').send({ feedback: 'spam' }).expect(401);
  }
  const [first, second] = [await t.createMember(), await t.createMember()];
  const send = (auth: string) =>
    app.http().post('/api/feedback').set('Authorization', auth).send({ feedback: 'Nice' });
  await send(first.auth).expect(201);
  await send(first.auth).expect(201);
  await send(first.auth).expect(429); // per member
  await send(second.auth).expect(201);
});
