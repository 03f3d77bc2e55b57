/**
 * Registration and account e-mails as an attacker tries to abuse them, against the real app: a
 * campus behind one NAT address registers freely, one address cannot be mail-bombed, and the
 * owner of an address always ends up with a working link, whatever anyone else asked for.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../src/platform/config';
import { TestClock } from './clock';
import { TEST_PASSWORD, uniqueEmail, useTestApp } from './test-app';

const t = useTestApp();
const defaults = loadConfig({});
const TEN_MINUTES = 10 * 60_000;

beforeEach(async () => {
  await t.models.RateLimitWindow.deleteMany({});
});

/**
 * A clock stopped at one instant shared by every app of this file (a second into a ten-minute
 * window, at least ten minutes ahead): their mail queues' leases and due times agree, so no
 * app of an earlier test, still open, takes a later test's mail as one whose lease ran out.
 */
const FROZEN_AT = Math.ceil(Date.now() / 600_000) * 600_000 + 600_000 + 1_000;
function stoppedClock() {
  const clock = new TestClock();
  clock.freeze(FROZEN_AT);
  return clock;
}

interface OutboxMail {
  to: string;
  links: { verification?: string; reset?: string };
}

async function mailsTo(email: string): Promise<OutboxMail[]> {
  await t.mailSent(); // the queue's mail written out first
  const dir = path.join(t.dataDir, 'outbox');
  const files = (await fs.readdir(dir).catch(() => [])).filter((f) => f.endsWith('.json')).sort();
  const mails = await Promise.all(
    files.map(async (f) => JSON.parse(await fs.readFile(path.join(dir, f), 'utf8')) as OutboxMail),
  );
  return mails.filter((m) => m.to === email);
}

const tokenOf = (link: string | undefined) => link!.slice(link!.lastIndexOf('/') + 1);

/**
 * The defaults' shape (3 e-mails at once, then one per cooldown) in windows short enough that a
 * reset link, valid an hour of real time, still works at the test's clock.
 */
const accountEmails = {
  accountEmails: { max: defaults.rateLimits.accountEmails.max, windowMs: TEN_MINUTES },
  accountEmailsCooldown: { max: 1, windowMs: TEN_MINUTES / 5 },
};

test('when 1,000 different addresses register from one address within an hour, then all succeed', async () => {
  const { register, accountEmails: perAddress } = defaults.rateLimits;
  expect(register.max).toBeGreaterThanOrEqual(1000);
  const client = t.another({ rateLimits: { register, accountEmails: perAddress } }, stoppedClock());
  const registerTen = () =>
    Promise.all(
      Array.from({ length: 10 }, () =>
        client
          .http()
          .post('/api/auth/register')
          .send({ name: 'Fresh Man', email: uniqueEmail('freshman'), password: 'enrolment week' })
          .then((res) => res.status),
      ),
    );
  const statuses = await registerTen();
  // The campus's address has registered 10 times this hour: count 980 more into its window, as
  // if they had come (registering them for real costs minutes on a busy machine and shows no
  // more), then the last 10 of the 1,000.
  const windows = await t.models.RateLimitWindow.find({ _id: /^register:/ }).lean();
  expect(windows.map((w) => w.count)).toEqual([10]);
  await t.models.RateLimitWindow.updateOne({ _id: windows[0]!._id }, { $inc: { count: 980 } });
  statuses.push(...(await registerTen()));
  expect(statuses.filter((status) => status !== 201)).toEqual([]);
  const after = await t.models.RateLimitWindow.findById(windows[0]!._id).lean();
  expect(after?.count).toBe(1000);
});

test("when an attacker registers victim2's address 5 times, then victim2's own registration succeeds and the newest link in her inbox works", async () => {
  // Every limit at its default (a verification link works 48 hours: an hour's window will do).
  const client = t.another({ rateLimits: defaults.rateLimits }, stoppedClock());
  const victim2 = uniqueEmail('victim2');
  const register = (password: string) =>
    client.http().post('/api/auth/register').send({ name: 'Victim Two', email: victim2, password });
  for (let i = 0; i < 5; i += 1) await register('attacker password').expect(201);
  const own = await register(TEST_PASSWORD);
  expect(own.status).toBe(201);
  expect(own.body.user.email).toBe(victim2);

  // Not a mail bomb: three at once, then one per cooldown, whoever asks.
  for (let i = 0; i < 10; i += 1) await register('attacker password').expect(201);
  const mails = await mailsTo(victim2);
  expect(mails).toHaveLength(4);
  // The newest link is the one that works; the ones before it were superseded.
  const links = mails.map((m) => tokenOf(m.links.verification));
  await t.http().get(`/api/auth/verify/${links[2]}`).expect(400);
  await t.http().get(`/api/auth/verify/${links[3]}`).expect(200);
});

test("when an attacker asks for 3 password resets for ben, then ben's own request still brings a fresh link that works", async () => {
  const client = t.another({ rateLimits: accountEmails }, stoppedClock());
  const ben = await t.createMember({ email: uniqueEmail('ben') });
  // Each request's mail goes out before the next (a request still waiting in the queue for the
  // same address would take the next one in: mail-queue.test.ts).
  const forgot = () => ({
    expect: async (status: number) => {
      await client
        .http()
        .post('/api/auth/forgot-password')
        .send({ email: ben.email })
        .expect(status);
      await t.mailSent();
    },
  });
  for (let i = 0; i < 3; i += 1) await forgot().expect(202);
  expect(await mailsTo(ben.email)).toHaveLength(3);

  await forgot().expect(202); // ben's own
  const mails = await mailsTo(ben.email);
  expect(mails).toHaveLength(4);
  // The attacker keeps asking: no more e-mails within the cooldown, and nothing changes.
  for (let i = 0; i < 10; i += 1) await forgot().expect(202);
  expect(await mailsTo(ben.email)).toHaveLength(4);

  const reset = (link: string | undefined) =>
    client
      .http()
      .post('/api/auth/reset-password')
      .send({ token: tokenOf(link), password: 'a brand new password' });
  await reset(mails[2]!.links.reset).expect(400);
  await reset(mails[3]!.links.reset).expect(200);
  await client
    .http()
    .post('/api/auth/login')
    .send({ email: ben.email, password: 'a brand new password' })
    .expect(200);
});

test('when resend-verification is asked for over and over, then the address gets one e-mail per cooldown and the newest link works', async () => {
  const client = t.another({ rateLimits: accountEmails }, stoppedClock());
  const carol = uniqueEmail('carol');
  await client
    .http()
    .post('/api/auth/register')
    .send({ name: 'Carol', email: carol, password: TEST_PASSWORD })
    .expect(201);
  for (let i = 0; i < 12; i += 1) {
    await client.http().post('/api/auth/resend-verification').send({ email: carol }).expect(202);
    await t.mailSent();
  }
  const mails = await mailsTo(carol);
  expect(mails).toHaveLength(4); // registration and resends share the verification e-mails
  await t
    .http()
    .get(`/api/auth/verify/${tokenOf(mails.at(-1)!.links.verification)}`)
    .expect(200);
});
