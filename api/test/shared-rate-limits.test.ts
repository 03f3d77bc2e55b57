/**
 * The rate limits live in the database, so two API processes on one database count together;
 * here two apps in one process stand for them (each its own Koa app, models and services, both
 * on ONE database). Sign-in guessing is slowed per account (never the right password of a device
 * that signed in before) and per address only wrong passwords count, as a campus behind one NAT
 * address needs, and the address is the one the trusted proxies saw.
 */
import { TOO_MANY_FAILED_SIGN_INS_FROM_ADDRESS } from '../src/modules/auth/routes';
import { TestClock } from './clock';
import { clearOfWindowEnd } from './rate-windows';
import { TEST_PASSWORD, useTestApp } from './test-app';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const t = useTestApp();

// Every test counts from zero: supertest calls come from one address, and names repeat. And each
// test's attempts fall in one window (a few sign-ins through two apps take seconds here).
beforeEach(async () => {
  await t.models.RateLimitWindow.deleteMany({});
  await clearOfWindowEnd(FIFTEEN_MINUTES, 20_000);
});

const signIn = (client: ReturnType<typeof t.http>, email: string, password = TEST_PASSWORD) =>
  client.post('/api/auth/login').send({ email, password });

/** Delays after two failures, on a stopped clock (no attempt outlives a delay by being slow). */
function withDelays(rateLimits = {}) {
  const clock = new TestClock();
  clock.freeze(Date.now());
  const signInDelays = {
    freeFailures: 2,
    firstDelayMs: 10_000,
    maxDelayMs: 30_000,
    forgetAfterMs: FIFTEEN_MINUTES,
  };
  return { clock, overrides: { signInDelays, rateLimits } };
}

test("when an account's guessing is slowed through process A, then process B holds it too, with Retry-After, but not for a device that signed in before", async () => {
  const { clock, overrides } = withDelays();
  const a = t.another(overrides, clock);
  const b = t.another(overrides, clock);
  const member = await t.createMember();
  const known = await signIn(b.http(), member.email).expect(200);
  const deviceCookie = (known.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
  for (let i = 0; i < 2; i += 1) {
    await signIn(a.http(), member.email, 'wrong password').expect(401);
  }
  // Too early, on every process, even with the right password: it is not looked at.
  const early = await signIn(b.http(), member.email);
  expect(early.status).toBe(429);
  expect(Number(early.headers['retry-after'])).toBe(10);
  await signIn(a.http(), member.email).expect(429);
  // The device that signed in before is not slowed by the others' failures.
  await signIn(b.http(), member.email).set('Cookie', deviceCookie).expect(200);
  // After the delay, the right password signs in from anywhere.
  clock.advance(10_000);
  await signIn(a.http(), member.email).expect(200);
});

test('when one account is guessed at, then other members behind the same address sign in, and the address in another case is the same account', async () => {
  const { overrides, clock } = withDelays({ login: { max: 300, windowMs: FIFTEEN_MINUTES } });
  const app = t.another(overrides, clock);
  const [guessed, neighbour] = [await t.createMember(), await t.createMember()];
  for (let i = 0; i < 2; i += 1) {
    await signIn(app.http(), guessed.email, 'wrong password').expect(401);
  }
  await signIn(app.http(), guessed.email, 'wrong password').expect(429);
  const signedIn = await signIn(app.http(), neighbour.email).expect(200);
  expect(signedIn.body.user.id).toBe(neighbour.id);
  await signIn(app.http(), guessed.email.toUpperCase(), 'wrong password').expect(429);
});

test('when a client rotates X-Forwarded-For, then it gets no extra guesses (no trusted proxy, or one)', async () => {
  const perAddress = { login: { max: 3, windowMs: FIFTEEN_MINUTES } };
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

test('when members sign in successfully, then it counts against neither the account nor the address, and a right password passes the address limit', async () => {
  const { overrides, clock } = withDelays({ login: { max: 2, windowMs: FIFTEEN_MINUTES } });
  const app = t.another(overrides, clock);
  const [member, neighbour] = [await t.createMember(), await t.createMember()];
  for (let i = 0; i < 6; i += 1) await signIn(app.http(), member.email).expect(200);
  await signIn(app.http(), member.email, 'wrong password').expect(401);
  await signIn(app.http(), member.email, 'wrong password').expect(401);
  await signIn(app.http(), member.email, 'wrong password').expect(429); // too early
  // The address's limit of wrong passwords is reached: a wrong one is refused, a right one not.
  const flooded = await signIn(app.http(), neighbour.email, 'wrong password').expect(429);
  expect(flooded.body.message).toBe(TOO_MANY_FAILED_SIGN_INS_FROM_ADDRESS);
  await signIn(app.http(), neighbour.email).expect(200);
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
