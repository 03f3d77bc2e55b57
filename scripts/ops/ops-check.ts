/**
 * `npm run ops:check [-- --quick]`: the operator's walk of docs/deploy.md's plain machine, on
 * loopback, printing each step's result (ok, FAIL or not available, with its figures):
 *
 *   1. production settings: the API refuses demo defaults, then runs on generated secrets;
 *   2. two API processes behind Debian's nginx as the gateway, the five apps served by it;
 *   3. readiness during a database stop: the embedded database (its own process) stopped, the API
 *      says it is not ready, started again, ready again;
 *   4. an API process killed with -9 under steady load through the gateway;
 *   5. a SIGHUP reload under steady load, rotating the signing key;
 *   6. a dump and a restore into a scratch server with equal fingerprints (embedded-mongo dump,
 *      restore, fingerprint).
 *
 * Needs the builds (`npm run build`) and Debian's nginx. `--quick` keeps each load short (the
 * whole walk in about a minute): `npm run test:ops` runs it after the build, so CI runs it.
 * Exits 1 if a step failed.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { failureSummary, startSteadyLoad, type Outcome } from '../../api/test/steady-load';
import { findNginx } from './nginx';
import {
  ADMIN_EMAIL,
  embeddedMongoCli,
  missingBuilds,
  REPO_ROOT,
  startEmbeddedDatabase,
  startLoopbackDeployment,
  type LoopbackDeployment,
} from './loopback';

type Result =
  | { status: 'ok'; details: string[] }
  | { status: 'FAIL'; details: string[] }
  | { status: 'not available'; details: string[] };

class StepFailed extends Error {
  constructor(readonly details: string[]) {
    super(details.join('; '));
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function check(condition: boolean, details: string[], problem: string): void {
  if (!condition) throw new StepFailed([...details, `expected: ${problem}`]);
}

async function waitUntil(what: string, test: () => Promise<boolean>, ms = 60_000): Promise<number> {
  const started = Date.now();
  while (!(await test())) {
    if (Date.now() - started > ms) throw new StepFailed([`${what}: not within ${seconds(ms)}`]);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
}

/** Step 1, first half: production refuses to start on the demo's defaults. */
async function refusesDemoDefaults(): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-ops-refusal-'));
  try {
    const envFile = path.join(dir, 'api.env');
    // What a newcomer might start with: the demo's settings and no secret.
    fs.writeFileSync(envFile, 'DEMO_MODE=1\nPORT=0\n');
    const refused = await promisify(execFile)(process.execPath, ['dist/main.js'], {
      cwd: path.join(REPO_ROOT, 'api'),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        API_ENV_FILE: envFile,
        DATA_DIR: path.join(dir, 'data'),
      },
    }).then(
      () => undefined,
      (err: { code?: number; stderr?: string }) => err,
    );
    const lines = (refused?.stderr ?? '').split('\n').filter((l) => l.startsWith('Refusing'));
    const named = ['JWT_SECRET', 'SMTP_URL', 'DEMO_MODE', 'MONGODB_URI', 'WEB_URL'].filter((v) =>
      lines.some((l) => l.includes(v)),
    );
    const details = [
      `demo defaults refused: exit ${refused?.code ?? 0}, ${lines.length} lines naming ${named.join(', ')}`,
    ];
    check(refused?.code === 1 && named.length === 5, details, 'exit 1 naming each variable');
    return details;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function login(campus: LoopbackDeployment): Promise<string> {
  const res = await fetch(`${campus.urls.gateway}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: campus.adminPassword }),
  });
  if (res.status !== 200) throw new StepFailed([`sign-in through the gateway: ${res.status}`]);
  return ((await res.json()) as { token: string }).token;
}

/** Step 2: the processes, nginx and the apps it serves. */
async function servedThroughNginx(campus: LoopbackDeployment): Promise<string[]> {
  const pids = campus.api.workerPids();
  const shell = await fetch(`${campus.urls.shell}/`);
  const env = (await (await fetch(`${campus.urls.shell}/env.json`)).json()) as { apiUrl: string };
  const manifests = await Promise.all(
    (['mf-feed', 'mf-profile', 'mf-notifications', 'mf-admin'] as const).map(
      async (remote) => (await fetch(`${campus.urls[remote]}/mf-manifest.json`)).status,
    ),
  );
  const settings = await fetch(`${campus.urls.gateway}/api/settings`);
  const token = await login(campus);
  const me = await fetch(`${campus.urls.gateway}/api/auth/me`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const details = [
    `API: main process ${campus.api.pid}, API processes ${pids.join(', ')} on ${campus.apiUrl}`,
    `nginx: shell ${campus.urls.shell} (${shell.status}, CSP ${shell.headers.has('content-security-policy') ? 'sent' : 'missing'}), ` +
      `remotes' manifests ${manifests.join('/')}, gateway ${campus.urls.gateway}`,
    `through the gateway: /api/settings ${settings.status}, administrator signed in, /api/auth/me ${me.status}`,
  ];
  check(
    pids.length === 2 &&
      shell.status === 200 &&
      shell.headers.has('content-security-policy') &&
      env.apiUrl === campus.urls.gateway &&
      manifests.every((s) => s === 200) &&
      settings.status === 200 &&
      me.status === 200,
    details,
    'two processes, every app and the API answering through nginx',
  );
  return details;
}

/** Step 3: /readyz (or, before it exists, /api/settings) while the database is stopped. */
async function readinessDuringDatabaseStop(campus: LoopbackDeployment): Promise<string[]> {
  let probe = `${campus.apiUrl}/readyz`;
  const details: string[] = [];
  if ((await fetch(probe)).status === 404) {
    details.push('GET /readyz answers 404 (not in this build): probing GET /api/settings instead');
    probe = `${campus.apiUrl}/api/settings`;
  }
  const ready = async () => (await fetch(probe, { headers: { 'Cache-Control': 'no-cache' } })).ok;
  check(await ready(), details, `${probe} ready before the stop`);
  await campus.db.stop();
  let statusWhileDown = 0;
  const notReadyAfter = await waitUntil('not ready once the database stopped', async () => {
    statusWhileDown = (await fetch(probe)).status;
    return statusWhileDown >= 500;
  });
  await campus.db.start();
  const readyAfter = await waitUntil('ready once the database started again', ready);
  details.push(
    `database stopped: ${probe} answered ${statusWhileDown} after ${seconds(notReadyAfter)}`,
    `database started again: ready after ${seconds(readyAfter)}`,
  );
  return details;
}

function loadThroughGateway(campus: LoopbackDeployment, token: string) {
  // Reads: a like of a process killed mid-transaction holds its post until the database
  // expires that transaction (docs/deploy.md); and the likes limit of one member would count.
  return startSteadyLoad({
    url: campus.urls.gateway,
    concurrency: 4,
    keepAlive: true,
    next: (n) => ({
      method: 'GET',
      path: n % 2 === 0 ? '/api/posts' : '/api/auth/me',
      headers: { Authorization: `Bearer ${token}` },
    }),
  });
}

function latencies(outcomes: readonly Outcome[]): string {
  const sorted = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `p50 ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, max ${at(1).toFixed(0)} ms`;
}

/** Step 4: kill -9 of one API process under steady load. */
async function killedWorker(campus: LoopbackDeployment, after: number): Promise<string[]> {
  const token = await login(campus);
  const [victim] = campus.api.workerPids();
  const from = campus.api.lines.length;
  const load = loadThroughGateway(campus, token);
  let outcomes: Outcome[];
  let exitSeen: number;
  let replacedPids: number[];
  const started = Date.now();
  try {
    await load.answered(50);
    process.kill(victim!, 'SIGKILL');
    await campus.api.waitForLine((l) => l.msg === 'an API process stopped: starting another', from);
    exitSeen = load.mark();
    const replaced = await campus.api.waitForLine(
      (l) => l.msg === 'an API process replaced the one that stopped',
      from,
    );
    replacedPids = replaced.pids!;
    await load.answered(after);
  } finally {
    outcomes = await load.stop();
  }
  const failed = outcomes.filter((o) => !o.ok);
  const afterExit = outcomes.filter((o) => o.seq >= exitSeen);
  const details = [
    `process ${victim} killed; replaced by ${replacedPids.filter((p) => p !== victim).join(', ')} in ${seconds(Date.now() - started)} of load`,
    `${outcomes.length} requests through the gateway, ${failed.length} failed ` +
      `(those the killed process was answering: it cannot answer them) ${JSON.stringify(failureSummary(outcomes))}`,
    `${afterExit.length} requests started after the main process saw it exit: ${afterExit.filter((o) => !o.ok).length} failed`,
    latencies(outcomes),
  ];
  check(
    afterExit.length > 0 &&
      afterExit.every((o) => o.ok) &&
      failed.length <= 4 &&
      !replacedPids.includes(victim!),
    details,
    'a replacement, at most the 4 requests in flight lost, every later request answered',
  );
  return details;
}

/** Step 5: SIGHUP under steady load, with a new signing key in the settings file. */
async function reloadUnderLoad(campus: LoopbackDeployment, after: number): Promise<string[]> {
  const oldToken = await login(campus);
  const before = campus.api.workerPids();
  const oldKey = campus.settings.JWT_SECRET!;
  campus.writeSettings({
    JWT_SECRET: randomBytes(48).toString('base64'),
    JWT_PREVIOUS_SECRETS: oldKey,
  });
  const from = campus.api.lines.length;
  const load = loadThroughGateway(campus, oldToken);
  let outcomes: Outcome[];
  let after_: number[];
  let reloadMs: number;
  try {
    await load.answered(50);
    const signalled = Date.now();
    campus.api.signal('SIGHUP');
    const ended = await campus.api.waitForLine(
      (l) => /^reload (done|stopped|refused)/.test(l.msg ?? ''),
      from,
    );
    if (!ended.msg!.startsWith('reload done')) {
      throw new StepFailed([`the main process: ${ended.msg} ${JSON.stringify(ended.err ?? '')}`]);
    }
    reloadMs = Date.now() - signalled;
    after_ = campus.api.workerPids();
    await load.answered(after);
  } finally {
    outcomes = await load.stop();
  }
  const failed = outcomes.filter((o) => !o.ok);
  const newToken = await login(campus);
  const verifies = async (token: string) =>
    (
      await fetch(`${campus.urls.gateway}/api/auth/me`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).status;
  const [oldStatus, newStatus] = [await verifies(oldToken), await verifies(newToken)];
  const details = [
    `processes ${before.join(', ')} replaced one at a time by ${after_.join(', ')} in ${seconds(reloadMs)}`,
    `${outcomes.length} requests through the gateway, ${failed.length} failed ${JSON.stringify(failureSummary(outcomes))}`,
    latencies(outcomes),
    `signing key rotated: a token of the old key ${oldStatus}, of the new key ${newStatus}`,
  ];
  check(
    failed.length === 0 &&
      after_.length === before.length &&
      after_.every((pid) => !before.includes(pid)) &&
      oldStatus === 200 &&
      newStatus === 200,
    details,
    '0 failed requests, every process replaced, both keys verifying',
  );
  return details;
}

/** Step 6: embedded-mongo dump, restore into a scratch server, fingerprints of both. */
async function dumpAndRestore(campus: LoopbackDeployment): Promise<Result> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-ops-dump-'));
  const scratch = await startEmbeddedDatabase(undefined);
  try {
    const archive = path.join(dir, 'campus.archive.gz');
    const run = async (command: string, args: string[]) => {
      const result = await embeddedMongoCli([command, ...args]);
      // This checkout's CLI has no such command (it reads the word as an argument of `serve`).
      if (result.code !== 0 && result.stderr.includes(`Unexpected argument '${command}'`)) {
        return 'not available' as const;
      }
      if (result.code !== 0) {
        throw new StepFailed([
          `embedded-mongo ${command}: exit ${result.code}: ${result.stderr.trim()}`,
        ]);
      }
      return result;
    };
    const started = Date.now();
    const dumped = await run('dump', ['--uri', campus.db.uri, `--archive=${archive}`, '--gzip']);
    if (dumped === 'not available') {
      return {
        status: 'not available',
        details: ['this checkout’s embedded-mongo has no `dump` command'],
      };
    }
    const dumpMs = Date.now() - started;
    const restored = await run('restore', ['--uri', scratch.uri, `--archive=${archive}`, '--gzip']);
    if (restored === 'not available') {
      return { status: 'not available', details: ['embedded-mongo has no `restore` command'] };
    }
    const prints: string[] = [];
    for (const [name, uri] of [
      ['live', campus.db.uri],
      ['restored', scratch.uri],
    ] as const) {
      // event_positions: where each API process is in the event stream, saved about once a
      // second while events flow: bookkeeping that may move between the dump and this print.
      const printed = await run('fingerprint', [
        '--uri',
        uri,
        '--db',
        'campus',
        '--nsExclude',
        'campus.event_positions',
      ]);
      if (printed === 'not available') {
        return {
          status: 'not available',
          details: ['embedded-mongo has no `fingerprint` command'],
        };
      }
      const file = path.join(dir, `${name}.json`);
      fs.writeFileSync(file, printed.stdout);
      prints.push(file);
    }
    const compared = await embeddedMongoCli(['fingerprint', '--compare', prints[0]!, prints[1]!]);
    const details = [
      `dump of the live database (${(fs.statSync(archive).size / 1024).toFixed(0)} KiB gzip) in ${seconds(dumpMs)}, restored into a scratch server`,
      `fingerprints: ${compared.stdout.trim().split('\n').join('; ')}`,
    ];
    check(compared.code === 0, details, 'equal fingerprints');
    return { status: 'ok', details };
  } finally {
    await scratch.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
  const quick = values.quick;
  // Requests answered after each event: the full walk is the 300.
  const after = quick ? 50 : 300;
  const missing = missingBuilds();
  if (missing.length > 0) {
    process.stderr.write(
      `ops:check: run \`npm run build\` first (missing ${missing.join(', ')})\n`,
    );
    process.exit(1);
  }
  if (!findNginx()) {
    process.stderr.write("ops:check: Debian's nginx is not installed (apt-get install -y nginx)\n");
    process.exit(1);
  }
  const began = Date.now();
  process.stdout.write(`ops:check${quick ? ' --quick' : ''}: the operator's walk on loopback\n`);
  const results: Result['status'][] = [];
  let campus: LoopbackDeployment | undefined;
  const step = async (title: string, body: () => Promise<string[] | Result>) => {
    const started = Date.now();
    process.stdout.write(`\n[${results.length + 1}/6] ${title}\n`);
    let result: Result;
    try {
      const outcome = await body();
      result = Array.isArray(outcome) ? { status: 'ok', details: outcome } : outcome;
    } catch (err) {
      result = {
        status: 'FAIL',
        details:
          err instanceof StepFailed
            ? err.details
            : [String(err instanceof Error ? err.stack : err)],
      };
    }
    for (const line of result.details) process.stdout.write(`      ${line}\n`);
    process.stdout.write(`  -> ${result.status} (${seconds(Date.now() - started)})\n`);
    results.push(result.status);
  };
  const needs = (campus: LoopbackDeployment | undefined): LoopbackDeployment => {
    if (!campus) throw new StepFailed(['the deployment did not start (step 2)']);
    return campus;
  };

  try {
    await step('production settings: demo defaults refused, generated secrets', async () => {
      const details = await refusesDemoDefaults();
      details.push(
        'the deployment runs NODE_ENV=production from a settings file (API_ENV_FILE) with a generated JWT_SECRET (48 random bytes), no DEMO_MODE, an administrator provisioned with create-admin',
      );
      return details;
    });
    await step("two API processes behind Debian's nginx as gateway", async () => {
      campus = await startLoopbackDeployment({ apiProcesses: 2 });
      return servedThroughNginx(campus);
    });
    await step('readiness during a database stop', () =>
      readinessDuringDatabaseStop(needs(campus)),
    );
    await step('an API process killed with -9 under load', () =>
      killedWorker(needs(campus), after),
    );
    await step('a SIGHUP reload under load (signing key rotated)', () =>
      reloadUnderLoad(needs(campus), after),
    );
    await step('dump and restore with equal fingerprints', () => dumpAndRestore(needs(campus)));
  } finally {
    await campus?.stop();
  }
  const count = (status: Result['status']) => results.filter((s) => s === status).length;
  process.stdout.write(
    `\nops:check: ${count('ok')} ok, ${count('FAIL')} failed, ${count('not available')} not available, in ${seconds(Date.now() - began)}\n`,
  );
  if (count('FAIL') > 0) {
    if (campus) process.stdout.write(`the API's output:\n${campus.api.output()}\n`);
    process.exit(1);
  }
}

void main().catch((err: unknown) => {
  process.stderr.write(`ops:check: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
