/**
 * `npm run bench:reload` (issue 36, "Rolling restarts"): the production API (compiled,
 * `API_PROCESSES=2`, on the embedded database in its own process) under a steady stream of
 * requests while
 *   - the main process gets SIGHUP (each process replaced once its replacement is ready), and
 *   - one API process is killed with -9 (replaced by the main process),
 * each with clients that open a connection per request (as the nginx gateway does towards the
 * API) and with keep-alive clients (a browser or a proxy keeping connections to the API itself).
 * Prints, per run: the requests, how many failed and how, the event's duration, throughput and
 * latency before and during it. The targets: 0 failed requests during a reload; after a kill,
 * no failure but the requests the killed process was answering (it cannot answer them).
 *
 * The load: the feed and /api/auth/me, and (reloads only) likes spread over 200 posts. A kill
 * gets reads only: a like the killed process was in the middle of keeps its post locked until
 * the database expires the transaction (60 s, as mongod), which delays that post's next likes
 * (docs/deploy.md, "Restarts").
 *
 * Needs the API's build (`npm run build -w api`). BENCH_CONNECTIONS clients (default 16),
 * BENCH_RELOAD_REQUESTS requests answered before and after each event (default 400).
 * NODE_CLUSTER_SCHED_POLICY=rr measures node's round-robin hand-over instead of the processes
 * accepting connections themselves (platform/processes.ts).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startApiCluster, type ApiCluster } from '../../api/test/api-cluster';
import { failureSummary, startSteadyLoad, type Outcome } from '../../api/test/steady-load';
import { freePort, startEmbeddedDatabase } from '../ops/loopback';
import { BENCH_DIR } from './database';
import { REPO_ROOT } from './processes';
import { fmt, table, writeSection } from './report';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const REQUESTS = Number(process.env.BENCH_RELOAD_REQUESTS ?? 400);
const ADMIN_EMAIL = 'admin@campus.example.edu';

interface Run {
  event: 'SIGHUP reload' | 'kill -9 of one process';
  keepAlive: boolean;
  outcomes: Outcome[];
  /** The requests started during the event (from the signal to the replacement(s) ready). */
  during: Outcome[];
  before: Outcome[];
  eventMs: number;
  beforeMs: number;
  pids: string;
}

function percentile(outcomes: Outcome[], p: number): number {
  const sorted = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function main() {
  if (!fs.existsSync(path.join(REPO_ROOT, 'api/dist/main.js'))) {
    throw new Error('bench:reload runs the compiled API: npm run build -w api first');
  }
  const dir = path.join(BENCH_DIR, 'reload');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const db = await startEmbeddedDatabase(path.join(dir, 'db'));
  const envFile = path.join(dir, 'api.env');
  const port = await freePort();
  const settings = {
    JWT_SECRET: randomBytes(48).toString('base64'),
    MONGODB_URI: `${db.uri}/campus?replicaSet=rs0`,
    SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
    WEB_URL: 'http://127.0.0.1:3000',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ALLOWED_ORIGINS: 'http://127.0.0.1:3000',
    PORT: String(port),
    API_PROCESSES: '2',
    DATA_DIR: path.join(dir, 'data'),
    // info, as production logs by default (the main process's announcements are info lines).
    LOG_LEVEL: 'info',
    // One member acting far faster than a person: no per-member limits.
    ...Object.fromEntries(
      ['POSTS', 'LIKES'].flatMap((action) => [
        [`RATE_LIMIT_${action}_PER_MINUTE`, '0'],
        [`RATE_LIMIT_${action}_PER_DAY`, '0'],
      ]),
    ),
  };
  fs.writeFileSync(
    envFile,
    Object.entries(settings)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(''),
  );
  const unitEnv = { NODE_ENV: 'production', API_ENV_FILE: envFile, DEMO_MODE: '' };
  const password = randomBytes(18).toString('base64url');
  await promisify(execFile)(process.execPath, ['dist/admin/cli.js', '--email', ADMIN_EMAIL], {
    cwd: path.join(REPO_ROOT, 'api'),
    env: { ...process.env, ...unitEnv, ADMIN_PASSWORD: password },
  });
  let api: ApiCluster | undefined;
  try {
    api = await startApiCluster(
      { ...unitEnv, API_PROCESSES: undefined, PORT: undefined, LOG_LEVEL: undefined },
      { compiled: true, processes: 2 },
    );
    const url = api.url;
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password }),
    });
    const { token } = (await login.json()) as { token: string };
    const auth = { Authorization: `Bearer ${token}` };
    const posts: number[] = [];
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${url}/api/posts`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: `post ${i} of the reload benchmark` }),
      });
      posts.push(((await res.json()) as { id: number }).id);
    }

    const runs: Run[] = [];
    for (const event of ['SIGHUP reload', 'kill -9 of one process'] as const) {
      for (const keepAlive of [false, true]) {
        const cluster = api;
        const load = startSteadyLoad({
          url,
          concurrency: CONNECTIONS,
          keepAlive,
          next: (n) =>
            event === 'SIGHUP reload' && n % 3 === 2
              ? {
                  method: 'POST',
                  path: `/api/posts/${posts[n % posts.length]}/like`,
                  headers: auth,
                }
              : { method: 'GET', path: n % 3 === 0 ? '/api/posts' : '/api/auth/me', headers: auth },
        });
        const loadStarted = Date.now();
        let outcomes: Outcome[];
        let first: number;
        let last: number;
        let eventMs: number;
        let beforeMs: number;
        const before = cluster.workerPids();
        try {
          await load.answered(REQUESTS);
          beforeMs = Date.now() - loadStarted;
          const from = cluster.lines.length;
          first = load.mark();
          const began = Date.now();
          if (event === 'SIGHUP reload') {
            cluster.signal('SIGHUP');
            await cluster.waitForLine(
              (l) => l.msg === 'reload done: every API process replaced',
              from,
            );
          } else {
            process.kill(before[0]!, 'SIGKILL');
            await cluster.waitForLine(
              (l) => l.msg === 'an API process replaced the one that stopped',
              from,
            );
          }
          eventMs = Date.now() - began;
          last = load.mark();
          await load.answered(REQUESTS);
        } finally {
          outcomes = await load.stop();
        }
        runs.push({
          event,
          keepAlive,
          outcomes,
          before: outcomes.filter((o) => o.seq < first),
          during: outcomes.filter((o) => o.seq >= first && o.seq < last),
          eventMs,
          beforeMs,
          pids: `${before.join(', ')} → ${cluster.workerPids().join(', ')}`,
        });
        const run = runs.at(-1)!;
        console.log(
          `${event}, ${keepAlive ? 'keep-alive' : 'a connection per request'}: ` +
            `${outcomes.length} requests, ${outcomes.filter((o) => !o.ok).length} failed ` +
            `${JSON.stringify(failureSummary(outcomes))}, event ${fmt(eventMs / 1000, 1)} s (${run.pids})`,
        );
      }
    }

    const rows = runs.map((run) => {
      const failed = run.outcomes.filter((o) => !o.ok);
      return [
        run.event,
        run.keepAlive ? 'keep-alive' : 'one per request',
        fmt(run.outcomes.length),
        fmt(failed.length),
        failed.length
          ? Object.entries(failureSummary(run.outcomes))
              .map(([k, n]) => `${k} ×${n}`)
              .join(', ')
          : '',
        fmt(run.eventMs / 1000, 1),
        fmt(run.before.length / (run.beforeMs / 1000)),
        fmt(run.during.length / (run.eventMs / 1000)),
        fmt(percentile(run.before, 99)),
        fmt(percentile(run.during, 99)),
        fmt(percentile(run.during, 100)),
      ];
    });
    const reloadFailures = runs
      .filter((run) => run.event === 'SIGHUP reload')
      .reduce((sum, run) => sum + run.outcomes.filter((o) => !o.ok).length, 0);
    const body = [
      `API_PROCESSES=2 (compiled, production), ${CONNECTIONS} clients, ${REQUESTS} requests answered before and after each event; ` +
        `reloads: the feed, /api/auth/me and likes over 200 posts; kills: reads only. ` +
        `Connections accepted by ${process.env.NODE_CLUSTER_SCHED_POLICY === 'rr' ? "node's round robin in the main process" : 'the API processes themselves'}.`,
      '',
      table(
        [
          'event',
          'client connections',
          'requests',
          'failed',
          'failures',
          'event s',
          'req/s before',
          'req/s during',
          'p99 ms before',
          'p99 ms during',
          'max ms during',
        ],
        rows,
      ),
      '',
      `Target (0 failed requests during a reload): **${reloadFailures === 0 ? 'met' : 'not met'}**. ` +
        'A kill loses the requests the killed process was answering (ECONNRESET), and nothing else.',
    ].join('\n');
    console.log(`\n${body}`);
    writeSection('bench:reload', body);
  } finally {
    await api?.stop();
    await db.stop();
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
