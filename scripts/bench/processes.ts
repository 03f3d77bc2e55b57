/**
 * The processes a benchmark runs next to itself: the embedded database, the API and the bare Koa
 * ceiling, each in its own process (so none shares the load generator's event loop), on loopback
 * only. Every child is stopped when the benchmark ends, however it ends.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';

export const REPO_ROOT = path.resolve(__dirname, '../..');
export const LOOPBACK = '127.0.0.1';

export interface Child {
  process: ChildProcess;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => process.exit(130));
}

function track(child: ChildProcess): Child {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return {
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Resolves with the first capture of `pattern` in the child's stdout; rejects if it exits first. */
function waitForLine(child: ChildProcess, pattern: RegExp, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    const onExit = (code: number | null) =>
      reject(new Error(`${what} exited (${code}) before it was ready`));
    lines.on('line', (line) => {
      const match = pattern.exec(line);
      if (match) {
        child.off('exit', onExit);
        resolve(match[1]!);
      }
    });
    child.once('exit', onExit);
  });
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Extra Node.js options for the embedded database process, from BENCH_DB_NODE_ARGS
 * (space-separated), e.g. `--cpu-prof --cpu-prof-dir=/tmp/db-prof` to profile it under load (the
 * CLI loads tsx in-process, so the options reach the process that serves the commands).
 */
function dbNodeArgs(): string[] {
  return (process.env.BENCH_DB_NODE_ARGS ?? '').split(' ').filter(Boolean);
}

/**
 * The checkout whose embedded database server the benchmarks start (BENCH_DB_ROOT, default this
 * one): another commit's worktree measures that commit's server against the same dataset and
 * API in the same run of the machine. It needs no `npm ci` of its own when the server's
 * dependencies are unchanged: a `node_modules` link to this checkout's will do.
 */
const DB_BIN = process.env.BENCH_DB_ROOT
  ? path.resolve(process.env.BENCH_DB_ROOT, 'packages/embedded-mongo/bin/embedded-mongo.cjs')
  : path.join(
      path.dirname(require.resolve('@campus/embedded-mongo/package.json')),
      'bin',
      'embedded-mongo.cjs',
    );

/** `@campus/embedded-mongo`'s CLI with `args`, with the benchmarks' Node.js options. */
function spawnEmbeddedMongo(args: string[], stdio: StdioOptions): ChildProcess {
  return spawn(
    process.execPath,
    [
      '--max-old-space-size=8192',
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      ...(require('@campus/embedded-mongo/bin/node-args.cjs') as string[]),
      ...dbNodeArgs(),
      DB_BIN,
      ...args,
    ],
    { stdio },
  );
}

/**
 * Starts `@campus/embedded-mongo`'s CLI on `dbPath`; resolves with its URI once it is warm: a
 * start from a snapshot listens within seconds and then, in the background, builds its table of
 * _ids and reads the index keys its searches start from (a few seconds on the 100k dataset;
 * before 2026-11-28 evening it built every index, ~30 s). The benchmarks measure a server in
 * its steady state; `bench:restart -w @campus/embedded-mongo` measures the start itself.
 */
export async function startEmbeddedMongo(
  dbPath: string,
  port = 0,
): Promise<Child & { uri: string }> {
  const child = spawnEmbeddedMongo(
    ['--host', LOOPBACK, '--port', String(port), '--dbpath', dbPath],
    ['ignore', 'pipe', 'inherit'],
  );
  const tracked = track(child);
  const listening = waitForLine(child, /listening on (mongodb:\/\/\S+)/, 'embedded-mongo');
  const warm = waitForLine(child, /(warm: .*)$/, 'embedded-mongo');
  const uri = await listening;
  console.log(`embedded-mongo ${await warm}`);
  return { ...tracked, uri };
}

/**
 * `embedded-mongo compact --dbpath <dbPath>`: rewrites a stopped server's journal as a snapshot,
 * offline, with a whole core (a running server's compaction is paced to a quarter of one, so as
 * never to slow what it serves: bench:data's restarts waited about 320 s for one at 1×, the
 * database idle). Resolves once it has exited successfully; prints its one line.
 */
export async function compactEmbeddedMongo(dbPath: string): Promise<void> {
  const child = spawnEmbeddedMongo(
    ['compact', '--dbpath', dbPath],
    ['ignore', 'inherit', 'inherit'],
  );
  track(child);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`embedded-mongo compact --dbpath ${dbPath} exited (${code})`);
}

async function waitForHttp(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode})`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not answer ${url} within 120 s`);
}

/** READ_CACHE_MS of the API processes the benchmarks start (BENCH_READ_CACHE_MS), if set. */
export const READ_CACHE_MS = process.env.BENCH_READ_CACHE_MS;

/**
 * The API's JWT_SECRET in a benchmark run, and what the benchmarks sign their tokens with: random
 * for each run, as production requires (a committed value is refused, platform/production.ts).
 */
export const BENCH_JWT_SECRET = randomBytes(48).toString('base64');

/**
 * Extra Node.js options for the API process, from BENCH_API_NODE_ARGS (space-separated), e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/api-prof` to profile the API under load.
 */
function apiNodeArgs(): string[] {
  return (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
}

/**
 * The checkout whose API the benchmarks start (BENCH_API_ROOT, default this one): another
 * commit's worktree, with its own `npm ci`, measures that commit's API against the same dataset
 * and database server in the same run of the machine (a before/after pair whose "before" no
 * longer runs here). Only its `api/src/main.ts` and its environment variables are used.
 */
const API_ROOT = path.resolve(process.env.BENCH_API_ROOT ?? REPO_ROOT);

/**
 * The API (`api/src/main.ts`) against `mongodbUri`, rate limits off, no seeding, quiet logs;
 * `processes` > 1 runs that many API processes on its port (API_PROCESSES, node's cluster).
 */
export async function startApi(options: {
  mongodbUri: string;
  dataDir: string;
  processes?: number;
}): Promise<Child & { url: string }> {
  const port = await freePort();
  // The API's log (warnings and errors only) goes to <dataDir>/api.log.
  fs.mkdirSync(options.dataDir, { recursive: true });
  const log = fs.openSync(path.join(options.dataDir, 'api.log'), 'w');
  const child = spawn(
    process.execPath,
    [...apiNodeArgs(), '--import', 'tsx', path.join(API_ROOT, 'api/src/main.ts')],
    {
      cwd: API_ROOT,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        API_PROCESSES: String(options.processes ?? 1),
        MONGODB_URI: options.mongodbUri,
        DATA_DIR: options.dataDir,
        JWT_SECRET: BENCH_JWT_SECRET,
        // Production refuses to start without SMTP; the benchmarks send no e-mail.
        SMTP_URL: 'smtp://127.0.0.1:1',
        LOG_LEVEL: 'warn',
        // BENCH_READ_CACHE_MS=0: the API without its read caches (uncached feed pages).
        ...(READ_CACHE_MS === undefined ? {} : { READ_CACHE_MS }),
        // Production has no default for its addresses: the benchmark's own, explicitly.
        PUBLIC_URL: `http://${LOOPBACK}:${port}`,
        WEB_URL: `http://${LOOPBACK}:3000`,
        ALLOWED_ORIGINS: `http://${LOOPBACK}:3000`,
        EMBEDDED_DATABASE: '',
        DEMO_MODE: '',
        RATE_LIMIT_LOGIN_MAX: '0',
        RATE_LIMIT_LOGIN_MAX_DELAY_MS: '0',
        RATE_LIMIT_VERIFY_TOKEN_MAX: '0',
        RATE_LIMIT_APPLICATION_CONTACT_MAX: '0',
        RATE_LIMIT_FEEDBACK_IP_MAX: '0',
        RATE_LIMIT_REGISTER_MAX: '0',
        RATE_LIMIT_VERIFY_MAX: '0',
        RATE_LIMIT_APPLICATION_MAX: '0',
        RATE_LIMIT_FEEDBACK_MAX: '0',
        // The load is a few members acting far faster than any person: no per-member limits.
        ...Object.fromEntries(
          [
            'POSTS',
            'COMMENTS',
            'REPOSTS',
            'LIKES',
            'FOLLOWS',
            'AVATARS',
            'MEDIA',
            'SEARCHES',
            'POSTSEARCHES',
          ].flatMap((action) => [
            [`RATE_LIMIT_${action}_PER_MINUTE`, '0'],
            [`RATE_LIMIT_${action}_PER_DAY`, '0'],
          ]),
        ),
      },
    },
  );
  const tracked = track(child);
  const url = `http://${LOOPBACK}:${port}`;
  await waitForHttp(`${url}/api/settings`, child, 'the API');
  return { ...tracked, url };
}

/** The ceiling: a bare Koa hello-world in its own process. */
export async function startKoaCeiling(): Promise<Child & { url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'hello-koa.ts')], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const tracked = track(child);
  const url = await waitForLine(child, /listening on (http:\/\/\S+)/, 'the Koa hello-world');
  return { ...tracked, url };
}
