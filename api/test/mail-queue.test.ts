/**
 * Issue 35, "Mail through a durable queue": account e-mails are queued in the database and sent
 * by a worker that tries again with back-off; requests answer the same whether SMTP is up or down
 * and whether the address has an account; the admin sees the mails that keep failing.
 *
 * SMTP is a real one (smtp-server, from the nodemailer project) on a port of this machine, "down"
 * while nothing listens there. The apps of this file each have their own clock: a retry is made
 * due by moving it, then the queue is drained; nothing waits for time to pass.
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { TestClock } from './clock';
import { eventually } from './eventually';
import { TEST_PASSWORD, uniqueEmail, useTestApp, type Member } from './test-app';
import { createMailQueue, type MailQueue } from '../src/platform/mail-queue';

const t = useTestApp();
let admin: Member;

/**
 * An app of one test (on the file's database, with its own settings and clock). Its worker stops
 * when the test ends, so no later test's mail is claimed by it.
 */
const opened: MailQueue[] = [];
function appOn(...args: Parameters<typeof t.another>) {
  const built = t.another(...args);
  opened.push(built.app.appContext.mailQueue);
  return built;
}
afterEach(async () => {
  for (const queue of opened.splice(0)) await queue.close();
});

/** A message the SMTP server received. */
interface Received {
  to: string[];
  raw: string;
}

/** A port nothing listens on (taken from the system, then let go). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** SMTP comes up on `port`: every message it receives is kept in `received`. */
async function startSmtp(port: number, received: Received[]) {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The text of a quoted-printable body, soft line breaks joined. */
const unfolded = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

beforeAll(async () => {
  // The mails of this file are sent by the apps it builds, each on its clock and SMTP server:
  // the default app's worker (outbox transport, system clock) would race them for each mail.
  await t.context.mailQueue.close();
  admin = await t.createMember({ id: t.config.adminUserId, name: 'Admin' });
});

describe('when SMTP is down', () => {
  test('then forgot-password and resend-verification answer an existing and an unknown address alike, and the mail goes out once SMTP is back, after its back-off', async () => {
    const port = await freePort();
    const clock = new TestClock();
    clock.freeze(Date.parse('2026-11-20T10:00:00Z'));
    const { app, http } = appOn({ smtpUrl: `smtp://127.0.0.1:${port}` }, clock);
    const queue = app.appContext.mailQueue;
    const ada = await t.createMember();
    const pending = await t.createMember({ isVerified: false });
    const nobody = uniqueEmail('nobody');

    const forgotKnown = await http().post('/api/auth/forgot-password').send({ email: ada.email });
    const forgotUnknown = await http().post('/api/auth/forgot-password').send({ email: nobody });
    const resendKnown = await http()
      .post('/api/auth/resend-verification')
      .send({ email: pending.email });
    const resendUnknown = await http()
      .post('/api/auth/resend-verification')
      .send({ email: nobody });
    expect([forgotKnown.status, forgotUnknown.status]).toEqual([202, 202]);
    expect(forgotKnown.body).toEqual(forgotUnknown.body);
    expect([resendKnown.status, resendUnknown.status]).toEqual([202, 202]);
    expect(resendKnown.body).toEqual(resendUnknown.body);

    // The worker tried: the unknown address had no account, so nothing of it stays; the two
    // real mails failed once and wait for the first back-off.
    await queue.drain();
    expect(await t.models.QueuedMail.exists({ to: nobody })).toBeNull();
    const stored = () =>
      Promise.all(
        [ada.email, pending.email].map((to) => t.models.QueuedMail.findOne({ to }).lean()),
      );
    const waiting = await stored();
    for (const mail of waiting) {
      expect(mail).toMatchObject({ state: 'queued', attempts: 1, leaseOwner: null });
      expect(mail!.lastError).toMatch(/ECONNREFUSED/);
      expect(mail!.nextAttemptAt).toEqual(new Date(clock.now().getTime() + 30_000));
      // Written afresh at each attempt: no link (token) is kept in the queue.
      expect(mail!.links ?? null).toBeNull();
    }

    const received: Received[] = [];
    const smtp = await startSmtp(port, received);
    try {
      // SMTP is back, but the back-off has not run out: nothing is sent before its time.
      await queue.drain();
      expect(received).toEqual([]);
      clock.advance(30_000);
      await queue.drain();
      expect(received.map((m) => m.to).sort()).toEqual([[ada.email], [pending.email]].sort());
    } finally {
      await smtp.close();
    }
    const sent = await stored();
    expect(sent.map((m) => [m!.state, m!.attempts])).toEqual([
      ['sent', 2],
      ['sent', 2],
    ]);
    expect(sent.every((m) => m!.text === undefined && m!.links === undefined)).toBe(true);

    // The link that went out works.
    const resetMail = unfolded(received.find((m) => m.to[0] === ada.email)!.raw);
    const token = /reset-password\/([A-Za-z0-9_-]+)/.exec(resetMail)?.[1];
    await http()
      .post('/api/auth/reset-password')
      .send({ token, password: 'a brand new password' })
      .expect(200);
  });

  test('then a sign-up is answered 201 and its verification mail is sent when SMTP is back', async () => {
    const port = await freePort();
    const clock = new TestClock();
    const { app, http } = appOn({ smtpUrl: `smtp://127.0.0.1:${port}` }, clock);
    const email = uniqueEmail('newcomer');
    await http()
      .post('/api/auth/register')
      .send({ name: 'Newcomer', email, password: TEST_PASSWORD })
      .expect(201);
    await app.appContext.mailQueue.drain();
    expect(await t.models.QueuedMail.findOne({ to: email }).lean()).toMatchObject({
      state: 'queued',
      attempts: 1,
    });
    const received: Received[] = [];
    const smtp = await startSmtp(port, received);
    try {
      clock.advance(30_000);
      await app.appContext.mailQueue.drain();
    } finally {
      await smtp.close();
    }
    expect(received.map((m) => m.to)).toEqual([[email]]);
    expect(unfolded(received[0]!.raw)).toMatch(/verify\/[A-Za-z0-9_-]+/);
  });
});

describe('retries', () => {
  test('when sending keeps failing, then the wait doubles up to its cap, the mail is marked failed after the last attempt, and the admin sees it without its body and can retry it', async () => {
    const port = await freePort();
    const clock = new TestClock();
    clock.freeze(Date.parse('2026-11-21T08:00:00Z'));
    const mail = { maxAttempts: 4, retryBaseMs: 1_000, retryMaxMs: 3_000 };
    const { app, http } = appOn(
      { smtpUrl: `smtp://127.0.0.1:${port}`, mail: { ...t.config.mail, ...mail } },
      clock,
    );
    const queue = app.appContext.mailQueue;
    const to = uniqueEmail('unlucky');
    await app.appContext.mailer.send({
      to,
      subject: 'Your invitation to Campus',
      text: 'Join us: http://web.test/register?invitation=secret-token',
      html: '<p>Join us</p>',
      links: { invitation: 'http://web.test/register?invitation=secret-token' },
    });
    const stored = () => t.models.QueuedMail.findOne({ to }).lean();

    const waits: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      await queue.drain();
      const doc = await stored();
      expect(doc).toMatchObject({ state: 'queued', attempts: attempt });
      const wait = doc!.nextAttemptAt!.getTime() - clock.now().getTime();
      waits.push(wait);
      // One millisecond short of the wait: not due yet.
      clock.advance(wait - 1);
      await queue.drain();
      expect((await stored())!.attempts).toBe(attempt);
      clock.advance(1);
    }
    expect(waits).toEqual([1_000, 2_000, 3_000]);
    await queue.drain();
    const failed = await stored();
    expect(failed).toMatchObject({ state: 'failed', attempts: 4, nextAttemptAt: null });
    expect(failed!.expiresAt).not.toBeNull();

    // The admin's list: who, what, how often, why; never the body or the links.
    const list = await http().get('/api/admin/mail').set('Authorization', admin.auth).expect(200);
    const item = list.body.items.find((m: { to: string }) => m.to === to);
    expect(item).toEqual({
      id: failed!._id,
      to,
      subject: 'Your invitation to Campus',
      status: 'failed',
      attempts: 4,
      lastError: expect.stringMatching(/ECONNREFUSED/),
      nextAttemptAt: null,
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(list.body)).not.toContain('secret-token');

    const received: Received[] = [];
    const smtp = await startSmtp(port, received);
    try {
      const retried = await http()
        .post(`/api/admin/mail/${failed!._id}/retry`)
        .set('Authorization', admin.auth)
        .expect(200);
      expect(retried.body).toMatchObject({ id: failed!._id, status: 'retrying', attempts: 0 });
      await queue.drain();
    } finally {
      await smtp.close();
    }
    expect(received.map((m) => m.to)).toEqual([[to]]);
    expect(await stored()).toMatchObject({ state: 'sent', attempts: 1 });
    const after = await http().get('/api/admin/mail').set('Authorization', admin.auth).expect(200);
    expect(after.body.items.map((m: { to: string }) => m.to)).not.toContain(to);
    const audit = await t.models.AuditEntry.findOne({ action: 'mail.retry' }).lean();
    expect(audit).toMatchObject({ adminId: admin.id, targetType: 'mail', targetId: failed!._id });
  });
});

describe('several workers', () => {
  test('when two apps drain the same queue at once, then each mail is delivered exactly once', async () => {
    const dirs = [path.join(t.dataDir, 'worker-a'), path.join(t.dataDir, 'worker-b')];
    const [a, b] = dirs.map((dataDir) => appOn({ dataDir }).app);
    const subjects = Array.from({ length: 20 }, (_, i) => `Mail ${i}`);
    const to = uniqueEmail('many');
    await Promise.all(
      subjects.map((subject) =>
        a!.appContext.mailer.send({ to, subject, text: subject, html: '', links: {} }),
      ),
    );
    await Promise.all([a!.appContext.mailQueue.drain(), b!.appContext.mailQueue.drain()]);
    const delivered: string[] = [];
    for (const dir of dirs.map((dataDir) => path.join(dataDir, 'outbox'))) {
      for (const file of (await fs.readdir(dir).catch(() => [])).filter((f) =>
        f.endsWith('.json'),
      )) {
        delivered.push(JSON.parse(await fs.readFile(path.join(dir, file), 'utf8')).subject);
      }
    }
    expect(delivered.sort()).toEqual([...subjects].sort());
  });

  test('when a process stops while sending, then its mail waits for the lease to run out and another worker sends it', async () => {
    const clock = new TestClock();
    clock.freeze(Date.parse('2026-11-22T12:00:00Z'));
    const ctx = t.context;
    const settings = { ...t.config.mail, leaseMs: 60_000 };
    // The process that stops: its transport never answers (it is gone mid-conversation).
    const stopped = createMailQueue({
      model: t.models.QueuedMail,
      transport: { deliver: () => new Promise<void>(() => undefined) },
      settings,
      composers: {},
      now: () => clock.now(),
      nextId: () => ctx.ids.nextIdOfBlock('mails'),
      transaction: (work) => ctx.transaction(work),
      announce: () => ctx.publish({ type: 'mail.queued' }),
      owner: 'stopped-process',
      logger: ctx.logger,
    });
    const to = uniqueEmail('lease');
    await stopped.mailer.send({ to, subject: 'Welcome', text: 'Hi', html: '', links: {} });
    stopped.start();
    expect(
      await eventually(
        async () => (await t.models.QueuedMail.findOne({ to }).lean())?.state === 'sending',
      ),
    ).toBe(true);

    const dataDir = path.join(t.dataDir, 'taking-over');
    const other = appOn({ dataDir, mail: settings }, clock).app.appContext.mailQueue;
    const outbox = async () =>
      (await fs.readdir(path.join(dataDir, 'outbox')).catch(() => [])).filter((f) =>
        f.endsWith('.json'),
      );
    try {
      // The lease holds: a round of the other worker leaves the mail alone.
      clock.advance(59_999);
      await other.wake();
      expect(await outbox()).toEqual([]);
      expect(await t.models.QueuedMail.findOne({ to }).lean()).toMatchObject({
        state: 'sending',
        leaseOwner: 'stopped-process',
      });
      // The lease has run out: the next round takes the mail over and sends it.
      clock.advance(1);
      await other.wake();
      expect(await outbox()).toHaveLength(1);
      expect(await t.models.QueuedMail.findOne({ to }).lean()).toMatchObject({
        state: 'sent',
        attempts: 2,
      });
    } finally {
      await other.close();
    }
  });
});

describe('GET /api/admin/mail', () => {
  test('when a member or a visitor asks, then 403 and 401, and nothing is listed', async () => {
    const member = await t.createMember();
    const asMember = await t.http().get('/api/admin/mail').set('Authorization', member.auth);
    expect(asMember.status).toBe(403);
    expect(Object.keys(asMember.body)).toEqual(['message']);
    expect((await t.http().get('/api/admin/mail')).status).toBe(401);
    const retry = await t.http().post('/api/admin/mail/1/retry').set('Authorization', member.auth);
    expect(retry.status).toBe(403);
  });

  test('when the admin retries a mail that does not exist, then 404', async () => {
    const res = await t
      .http()
      .post('/api/admin/mail/99999999/retry')
      .set('Authorization', admin.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'No failed or waiting e-mail with this id' });
  });
});
