/**
 * `npm run bench:enumeration` (issue 35, "Enumeration"): can the time of an answer tell whether an
 * address has an account? `POST /api/auth/forgot-password` and `/resend-verification` are sent
 * for addresses with an account (verified ones for the reset, unverified ones for the resend) and
 * for addresses without one, one request at a time, in pairs in random order, with SMTP up (a
 * local SMTP server, smtp-server) and down (a port nothing listens on). Each address is asked once,
 * as an attacker probing a list would. Prints the median and p90 of each, and whether status and
 * body were the same for all; the target is medians within 10 ms of each other.
 *
 * The API runs in this process (createApp on the embedded database in its own process, as
 * deployed), the SMTP server too; the rate limits are off (they count per address and per client,
 * the same for both kinds of address, and would stop the run).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import bcrypt from 'bcrypt';
import { SMTPServer } from 'smtp-server';
import { createApp } from '../../api/src/app';
import type { Models } from '../../api/src/models';
import { loadConfig, type Config } from '../../api/src/platform/config';
import type { Database } from '../../api/src/platform/db';
import { createLogger } from '../../api/src/platform/logger';
import { BENCH_DIR, openBenchDatabase } from './database';
import { LOOPBACK } from './processes';
import { fmt, table, writeSection } from './report';

/** Addresses of each kind per row (each asked once), after WARMUP pairs not counted. */
const REQUESTS = Number(process.env.BENCH_ENUMERATION_REQUESTS ?? 150);
const WARMUP = 20;
const JWT_SECRET = randomBytes(48).toString('base64url');
const CALLS = {
  'forgot-password': { path: '/api/auth/forgot-password', verified: true },
  'resend-verification': { path: '/api/auth/resend-verification', verified: false },
} as const;
type CallName = keyof typeof CALLS;

interface Sample {
  ms: number;
  answer: string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A local SMTP server that accepts everything; answers its port and how many it received. */
async function startSmtp() {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, () => resolve()));
  const { port } = server.server.address() as net.AddressInfo;
  return {
    port,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Accounts made directly in the database: `count` verified and `count` unverified per call. */
async function makeAccounts(models: Models, prefix: string, count: number) {
  const password = await bcrypt.hash('bench password', 4);
  const make = async (verified: boolean) => {
    const emails = Array.from(
      { length: count },
      (_, i) => `${prefix}.${verified ? 'v' : 'u'}${i}@campus.edu`,
    );
    const first =
      Number(
        (await models.Counter.findOneAndUpdate(
          { _id: 'users' },
          { $inc: { seq: count } },
          { upsert: true, returnDocument: 'after' },
        ).lean())!.seq,
      ) -
      count +
      1;
    await models.User.insertMany(
      emails.map((email, i) => ({
        _id: first + i,
        name: `Bench ${first + i}`,
        email,
        password,
        bio: '',
        isVerified: verified,
        ...(verified ? {} : { unverifiedExpiresAt: new Date(Date.now() + 24 * 3_600_000) }),
      })),
    );
    return emails;
  };
  return { verified: await make(true), unverified: await make(false) };
}

/** One request's time (to the last byte of the answer) and its status and body. */
async function ask(url: string, email: string): Promise<Sample> {
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const body = await res.text();
  return { ms: performance.now() - started, answer: `${res.status} ${body}` };
}

async function measure(
  database: Database<Models>,
  smtpUrl: string,
  call: CallName,
  known: string[],
  prefix: string,
) {
  const base = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: path.join(BENCH_DIR, 'enumeration-data'),
    JWT_SECRET,
    SMTP_URL: smtpUrl,
    BCRYPT_ROUNDS: '4',
  });
  const off = { max: 0, windowMs: 60_000 };
  const config: Config = {
    ...base,
    rateLimits: Object.fromEntries(
      Object.keys(base.rateLimits).map((rule) => [rule, off]),
    ) as Config['rateLimits'],
  };
  const app = createApp({
    config,
    logger: createLogger('silent'),
    jwtSecret: JWT_SECRET,
    database,
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = `http://${LOOPBACK}:${port}${CALLS[call].path}`;
  const samples = { known: [] as Sample[], unknown: [] as Sample[] };
  try {
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      const pair: Array<['known' | 'unknown', string]> = [
        ['known', known[i]!],
        ['unknown', `${prefix}.nobody${i}@campus.edu`],
      ];
      if (Math.random() < 0.5) pair.reverse();
      for (const [kind, email] of pair) {
        const sample = await ask(url, email);
        if (i >= WARMUP) samples[kind].push(sample);
      }
    }
    await app.appContext.mailQueue.drain();
  } finally {
    await app.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return samples;
}

async function main() {
  const db = await openBenchDatabase({ dir: path.join(BENCH_DIR, 'enumeration'), fresh: true });
  const database = await db.connect();
  const smtp = await startSmtp();
  const down = await freePort();
  const rows: Array<Array<string | number>> = [];
  const findings: string[] = [];
  try {
    let round = 0;
    for (const [smtpName, smtpUrl] of [
      ['up', `smtp://${LOOPBACK}:${smtp.port}`],
      ['down', `smtp://${LOOPBACK}:${down}`],
    ] as const) {
      for (const call of Object.keys(CALLS) as CallName[]) {
        round += 1;
        const prefix = `bench${Date.now()}r${round}`;
        const accounts = await makeAccounts(database.models, prefix, WARMUP + REQUESTS);
        const known = CALLS[call].verified ? accounts.verified : accounts.unverified;
        const sentBefore = smtp.received();
        const samples = await measure(database, smtpUrl, call, known, prefix);
        const ms = (list: Sample[]) => list.map((s) => s.ms).sort((a, b) => a - b);
        const [k, u] = [ms(samples.known), ms(samples.unknown)];
        const answers = new Set([...samples.known, ...samples.unknown].map((s) => s.answer));
        const delta = percentile(k, 50) - percentile(u, 50);
        rows.push([
          `\`${call}\``,
          smtpName,
          fmt(percentile(k, 50), 1),
          fmt(percentile(u, 50), 1),
          fmt(delta, 1),
          fmt(percentile(k, 90), 1),
          fmt(percentile(u, 90), 1),
          answers.size === 1 ? 'yes' : `no: ${[...answers].join(' / ')}`,
          smtpName === 'up' ? smtp.received() - sentBefore : '–',
        ]);
        if (Math.abs(delta) > 10)
          findings.push(`${call} with SMTP ${smtpName}: ${fmt(delta, 1)} ms`);
      }
    }
  } finally {
    await smtp.close();
    await db.close();
  }
  const body = [
    `${REQUESTS} addresses with an account and ${REQUESTS} without, per row, one request at a time in pairs of random order (after ${WARMUP} pairs not counted); the API in the benchmark's process on the embedded database (its own process), rate limits off. Time: from sending to the answer's last byte. SMTP up: a local smtp-server in the same process; down: a port nothing listens on.`,
    '',
    table(
      [
        'call',
        'SMTP',
        'known median ms',
        'unknown median ms',
        'difference',
        'known p90',
        'unknown p90',
        'same status and body',
        'mails received',
      ],
      rows,
    ),
    '',
    findings.length === 0
      ? 'Target (medians within 10 ms, same status and body): **met** on every row.'
      : `Target (medians within 10 ms): not met for ${findings.join(', ')}.`,
  ].join('\n');
  console.log(body);
  writeSection('bench:enumeration', body);
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
