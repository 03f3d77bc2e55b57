/**
 * The API as a service manager runs it: one main process with API_PROCESSES=2 (src/main.ts,
 * platform/processes.ts), each API process in its own child, on this file's database, under a
 * steady stream of requests (a reader and a liker per client, each request on a connection of
 * its own, as the nginx gateway sends them). A SIGHUP replaces every process with none failing;
 * a process killed with -9 is replaced while the other serves.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Post } from '@campus/contracts';
import { createTokenService } from '../src/platform/auth';
import { startApiCluster, type ApiCluster, type LogLine } from './api-cluster';
import { startApiProcess } from './api-process';
import { eventually } from './eventually';
import { failureSummary, startSteadyLoad, type Outcome } from './steady-load';
import { TEST_JWT_SECRET, useTestApp } from './test-app';

const t = useTestApp();
/** Starts of up to five API processes through tsx on a busy machine. */
jest.setTimeout(300_000);

/** The key a rotation moves to (random enough for production's rules too). */
const NEXT_JWT_SECRET = 'yG0k3Qm9VbX2sLr7TzW1nHc5Jd8Ep4Ua6Fi0Ko3Nq9Rt2Ws7Xv1Yb5Zc8Ae4Bg';

let api: ApiCluster;
let envFile: string;

function processEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { host, port, name } = t.database.connection;
  return {
    MONGODB_URI: `mongodb://${host}:${port}/${name}?directConnection=true`,
    DATA_DIR: t.dataDir,
    BCRYPT_ROUNDS: '4',
    // The load is one member liking far faster than a person: no per-member limit.
    RATE_LIMIT_LIKES_PER_MINUTE: '0',
    RATE_LIMIT_LIKES_PER_DAY: '0',
    ...extra,
  };
}

beforeAll(async () => {
  // The settings a reload reads again: the signing key is in the file, not the environment.
  envFile = path.join(t.dataDir, 'api.env');
  fs.writeFileSync(envFile, `JWT_SECRET=${TEST_JWT_SECRET}\n`);
  api = await startApiCluster(processEnv({ API_ENV_FILE: envFile }));
});

afterAll(async () => {
  await api?.stop();
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function createPost(auth: string): Promise<Post> {
  const created = await fetch(`${api.url}/api/posts`, {
    method: 'POST',
    headers: { Authorization: auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ content: 'liked all through the restart' }),
  });
  expect(created.status).toBe(201);
  return (await created.json()) as Post;
}

/**
 * A steady stream on `api`: each client reads the feed and, with `likes`, toggles a like on one
 * post in turn.
 */
async function steadyLoad(auth: string, { likes }: { likes: boolean }) {
  const post = likes ? await createPost(auth) : undefined;
  return startSteadyLoad({
    url: api.url,
    concurrency: 4,
    next: (n) =>
      n % 2 === 0 || !post
        ? {
            method: 'GET',
            path: n % 4 === 1 ? '/api/auth/me' : '/api/posts',
            headers: { Authorization: auth },
          }
        : { method: 'POST', path: `/api/posts/${post.id}/like`, headers: { Authorization: auth } },
  });
}

const indexOf = (from: number, matches: (line: LogLine) => boolean) =>
  from + api.lines.slice(from).findIndex(matches);

async function status(pathname: string, auth: string): Promise<number> {
  return (await fetch(`${api.url}${pathname}`, { headers: { Authorization: auth } })).status;
}

describe('API_PROCESSES=2 under a steady stream of requests', () => {
  test('when the main process gets SIGHUP after the signing key changed in API_ENV_FILE, then each process is stopped only after its replacement is ready, no request fails, and the new key signs while the old still verifies', async () => {
    const member = await t.createMember();
    const nextKeyToken = `Bearer ${createTokenService({ secret: NEXT_JWT_SECRET, issuer: 'campus-api', expiresIn: '1h' }).sign(member.id)}`;
    // Before the reload, the processes know only the key they started with.
    expect(await status('/api/auth/me', nextKeyToken)).toBe(401);
    fs.writeFileSync(
      envFile,
      `JWT_SECRET=${NEXT_JWT_SECRET}\nJWT_PREVIOUS_SECRETS=${TEST_JWT_SECRET}\n`,
    );
    const before = api.workerPids();
    expect(before).toHaveLength(2);
    const from = api.lines.length;

    const load = await steadyLoad(member.auth, { likes: true });
    let outcomes: Outcome[];
    let signalled: number;
    let reloaded: number;
    let done: LogLine;
    try {
      await load.answered(20);
      signalled = load.mark();
      api.signal('SIGHUP');
      done = await api.waitForLine(
        (l) => l.msg === 'reload done: every API process replaced',
        from,
      );
      reloaded = load.mark();
      await load.answered(20);
    } finally {
      outcomes = await load.stop();
    }

    expect(failureSummary(outcomes)).toEqual({});
    // The stream went on all through the reload.
    expect(outcomes.filter((o) => o.seq >= signalled && o.seq < reloaded).length).toBeGreaterThan(
      0,
    );
    // Every process was replaced; the old ones are gone.
    const after = done.pids!;
    expect(after).toHaveLength(2);
    expect(after.filter((pid) => before.includes(pid))).toEqual([]);
    expect(before.filter(isAlive)).toEqual([]);
    // One at a time: each old process began stopping only after its replacement listened (its
    // ready message follows), and the second replacement started after the first swap.
    const swaps = api.lines
      .slice(from)
      .filter((l) => l.msg === 'reload: API process replaced')
      .map((l) => ({ pid: l.pid as number, replaced: l.replaced as number, slot: l.slot }));
    expect(swaps.map((s) => s.slot)).toEqual([1, 2]);
    expect(swaps.map((s) => s.replaced).sort()).toEqual([...before].sort());
    for (const swap of swaps) {
      const listened = indexOf(from, (l) => l.msg === 'api listening' && l.pid === swap.pid);
      const stopping = indexOf(from, (l) => l.msg === 'shutting down' && l.pid === swap.replaced);
      expect(listened).toBeGreaterThanOrEqual(from);
      expect(stopping).toBeGreaterThan(listened);
    }
    const firstSwap = indexOf(from, (l) => l.msg === 'reload: API process replaced');
    const secondListened = indexOf(
      from,
      (l) => l.msg === 'api listening' && l.pid === swaps[1]!.pid,
    );
    expect(secondListened).toBeGreaterThan(firstSwap);

    // The new settings: the next key verifies, and so does the old one (JWT_PREVIOUS_SECRETS).
    expect(await status('/api/auth/me', nextKeyToken)).toBe(200);
    expect(await status('/api/auth/me', member.auth)).toBe(200);
  });

  test('when API_ENV_FILE cannot be read at a SIGHUP, then the reload is refused and the same processes keep serving', async () => {
    const member = await t.createMember();
    const before = api.workerPids();
    const from = api.lines.length;
    const kept = fs.readFileSync(envFile, 'utf8');
    fs.rmSync(envFile);
    try {
      api.signal('SIGHUP');
      const refused = await api.waitForLine(
        (l) => l.msg?.startsWith('reload refused') ?? false,
        from,
      );
      expect(refused.err).toBe(`API_ENV_FILE: cannot read ${envFile} (ENOENT)`);
    } finally {
      fs.writeFileSync(envFile, kept);
    }
    expect(api.workerPids()).toEqual(before);
    expect(before.every(isAlive)).toBe(true);
    expect(await status('/api/auth/me', member.auth)).toBe(200);
  });

  // Reads only: a like the killed process was making holds its post in an open transaction until
  // the database expires it (60 s, as mongod's transactionLifetimeLimitSeconds), and the next
  // likes of that post wait for it (docs/deploy.md, "Restarts"). Likes of other posts go on.
  test('when an API process is killed with -9, then it is replaced, every request started after its exit is served, and only requests it had in flight failed', async () => {
    const member = await t.createMember();
    const [victim, survivor] = api.workerPids() as [number, number];
    const from = api.lines.length;
    const load = await steadyLoad(member.auth, { likes: false });
    let outcomes: Outcome[];
    let exitSeen: number;
    let replaced: LogLine;
    try {
      await load.answered(20);
      process.kill(victim, 'SIGKILL');
      // The main process saw it exit (its connections were closed with it).
      await api.waitForLine((l) => l.msg === 'an API process stopped: starting another', from);
      exitSeen = load.mark();
      replaced = await api.waitForLine(
        (l) => l.msg === 'an API process replaced the one that stopped',
        from,
      );
      await load.answered(20);
    } finally {
      outcomes = await load.stop();
    }

    // A request the killed process was handling has no one to answer it: at most one per client.
    const failed = outcomes.filter((o) => !o.ok);
    expect(failed.length).toBeLessThanOrEqual(4);
    for (const outcome of failed) expect(outcome.error).toBeDefined();
    // The port stayed served: every request started after the exit was answered.
    const afterExit = outcomes.filter((o) => o.seq >= exitSeen);
    expect(afterExit.length).toBeGreaterThan(0);
    expect(failureSummary(afterExit)).toEqual({});
    expect(isAlive(victim)).toBe(false);
    expect(replaced.pids).toHaveLength(2);
    expect(replaced.pids).toContain(survivor);
    expect(replaced.pids).not.toContain(victim);
    // Writes go on too.
    const post = await createPost(member.auth);
    const liked = await fetch(`${api.url}/api/posts/${post.id}/like`, {
      method: 'POST',
      headers: { Authorization: member.auth },
    });
    expect(liked.status).toBe(200);
  });
});

describe('API_PROCESSES=1', () => {
  test('when the only process gets SIGHUP, then it says a reload needs two processes and keeps serving', async () => {
    const member = await t.createMember();
    const alone = await startApiProcess({ ...processEnv(), JWT_SECRET: TEST_JWT_SECRET });
    try {
      process.kill(alone.pid, 'SIGHUP');
      await eventually(() => alone.output.some((l) => l.includes('SIGHUP ignored')));
      expect(alone.output.join('\n')).toContain(
        'SIGHUP ignored: a rolling restart needs API_PROCESSES=2 or more',
      );
      const res = await fetch(`${alone.url}/api/auth/me`, {
        headers: { Authorization: member.auth },
      });
      expect(res.status).toBe(200);
    } finally {
      await alone.stop();
    }
  });
});
