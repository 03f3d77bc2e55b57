/**
 * Database failures, with the embedded database's CLI as a real child process on a fixed port:
 * stopped, then restarted on the same port and data directory; killed with SIGKILL mid-write
 * (posts acknowledged before the kill are kept; counts written with their source in one
 * transaction are exact after a kill in a storm of likes, comments and reposts).
 * The tests check the mechanism (what refuses a request, and where) and the status codes, never
 * how many milliseconds anything took: on a busy machine only the mechanism is reproducible.
 * Every test starts with the database up (afterEach restarts it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { trusted } from 'mongoose';
import request from 'supertest';
import type { CampusApp } from '../src/app';
import { findCountMismatches } from '../src/modules/posts/recount';
import { createModels, type Models } from '../src/models';
import { connectDatabase, SERVER_SELECTION_TIMEOUT_MS, type Database } from '../src/platform/db';
import { DATABASE_UNAVAILABLE } from '../src/platform/errors';
import { eventually } from './eventually';
import { buildTestApp, createMember } from './test-app';

const CLI = path.join(
  path.dirname(require.resolve('@campus/embedded-mongo/package.json')),
  'bin',
  'embedded-mongo.cjs',
);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The embedded database's CLI on `port` with data in `dbPath`; resolves once it listens. */
function startDatabase(port: number, dbPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, '--port', String(port), '--dbpath', dbPath], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`embedded-mongo exited (${code})`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('listening on')) resolve(child);
    });
  });
}

function stopDatabase(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

let dataDir: string;
let dbPath: string;
let port: number;
let server: ChildProcess | undefined;
let database: Database<Models>;
let app: CampusApp;
let http: () => ReturnType<typeof request>;
/** Database commands the driver started (command monitoring), to see what reached it. */
let commandsStarted = 0;

const serverRunning = () =>
  server !== undefined && server.exitCode === null && server.signalCode === null;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-faults-'));
  dbPath = path.join(dataDir, 'db');
  await fs.mkdir(dbPath);
  port = await freePort();
  server = await startDatabase(port, dbPath);
  database = await connectDatabase(`mongodb://127.0.0.1:${port}`, {
    dbName: 'campus_faults',
    models: createModels,
    driver: { monitorCommands: true },
  });
  database.connection.getClient().on('commandStarted', () => (commandsStarted += 1));
  const built = buildTestApp(database, dataDir);
  app = built.app;
  http = () => request(built.callback);
});

afterEach(async () => {
  // Whatever a test did to the database, the next one starts with it up and reachable.
  if (!serverRunning()) server = await startDatabase(port, dbPath);
  expect(await eventually(async () => database.reachable)).toBe(true);
});

afterAll(async () => {
  app?.close();
  await database?.close();
  if (server) await stopDatabase(server, 'SIGTERM');
  await fs.rm(dataDir, { recursive: true, force: true });
});

test('when the database is down, then requests get a 503 with a message without reaching the driver, and the API recovers by itself when it returns', async () => {
  const member = await createMember(app);
  const before = await http()
    .post('/api/posts')
    .set('Authorization', member.auth)
    .send({ content: 'before the outage' })
    .expect(201);
  expect(database.reachable).toBe(true);

  await stopDatabase(server!, 'SIGTERM');
  // The first request to find the database gone answers 503 too, never a 500.
  const first = await http().get('/api/posts?tab=following').set('Authorization', member.auth);
  expect(first.status).toBe(503);
  expect(first.body).toEqual({ message: DATABASE_UNAVAILABLE });
  // The driver's topology events have marked it unreachable (at the latest on the next heartbeat).
  expect(await eventually(async () => !database.reachable)).toBe(true);

  // Once it is known to be down, reads and writes are refused before they reach the driver.
  const commandsBefore = commandsStarted;
  for (const call of [
    () => http().get('/api/posts').set('Authorization', member.auth),
    () => http().get(`/api/posts/${before.body.id}`).set('Authorization', member.auth),
    () =>
      http().post('/api/posts').set('Authorization', member.auth).send({ content: 'during it' }),
    () => http().get('/api/notifications').set('Authorization', member.auth),
    () => http().get('/api/settings'),
  ]) {
    const res = await call();
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.body).toEqual({ message: DATABASE_UNAVAILABLE });
  }
  expect(commandsStarted).toBe(commandsBefore);

  server = await startDatabase(port, dbPath);
  expect(await eventually(async () => database.reachable)).toBe(true);
  const feed = await http().get('/api/posts').set('Authorization', member.auth).expect(200);
  expect(feed.body.map((p: { id: number }) => p.id)).toContain(before.body.id);
}, 180_000);

test('when a request is already past the reachability check as the database goes, then the driver gives up on server selection and it answers 503', async () => {
  // An operation waits for a usable server at most this long (not the driver's 30 s default).
  expect(database.connection.getClient().options.serverSelectionTimeoutMS).toBe(
    SERVER_SELECTION_TIMEOUT_MS,
  );
  expect(SERVER_SELECTION_TIMEOUT_MS).toBeLessThanOrEqual(1_000);
  const member = await createMember(app);
  // The same app without its fail-fast check: what a request in flight meets.
  const ungated = buildTestApp({ ...database, requireReachable: (_ctx, next) => next() }, dataDir);
  try {
    await stopDatabase(server!, 'SIGTERM');
    expect(await eventually(async () => !database.reachable)).toBe(true);
    const res = await request(ungated.callback).get('/api/posts').set('Authorization', member.auth);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ message: DATABASE_UNAVAILABLE });
  } finally {
    await ungated.app.close();
  }
}, 120_000);

test('when the database is killed with SIGKILL during writes, then every acknowledged post is there after a restart', async () => {
  const member = await createMember(app);
  const acknowledged: number[] = [];
  const failures: number[] = [];
  let stop = false;
  let seq = 0;
  const writer = async () => {
    while (!stop) {
      const res = await http()
        .post('/api/posts')
        .set('Authorization', member.auth)
        .send({ content: `write ${++seq}` });
      if (res.status === 201) acknowledged.push(res.body.id as number);
      else failures.push(res.status);
    }
  };
  const writers = Array.from({ length: 8 }, writer);
  expect(await eventually(async () => acknowledged.length >= 40, 90_000)).toBe(true);
  await stopDatabase(server!, 'SIGKILL');
  stop = true;
  await Promise.all(writers);
  // Writes cut off by the crash are refused as unavailable, never as a generic 500.
  expect(failures.filter((s) => s !== 503)).toEqual([]);

  server = await startDatabase(port, dbPath);
  expect(await eventually(async () => database.reachable)).toBe(true);
  const stored = await app.models.Post.find(
    { _id: trusted({ $in: acknowledged }) },
    { _id: 1 },
  ).lean();
  expect(stored.map((p) => p._id).sort((a, b) => a - b)).toEqual(
    [...acknowledged].sort((a, b) => a - b),
  );
}, 180_000);

test('when the database is killed with SIGKILL during a storm of likes, comments and reposts, then after a restart every stored count equals a recount', async () => {
  const author = await createMember(app);
  const members = await Promise.all(Array.from({ length: 16 }, () => createMember(app)));
  const posts: number[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await http()
      .post('/api/posts')
      .set('Authorization', author.auth)
      .send({ content: `storm ${i}` })
      .expect(201);
    posts.push(res.body.id as number);
  }
  const comments: number[] = [];
  for (const postId of posts) {
    const res = await http()
      .post(`/api/posts/${postId}/comments`)
      .set('Authorization', author.auth)
      .send({ content: 'first' })
      .expect(201);
    comments.push(res.body.id as number);
  }

  // A fixed pseudo-random mix so a failure reproduces.
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const acknowledged = { like: 0, commentLike: 0, comment: 0, repost: 0, undo: 0 };
  const failures: number[] = [];
  let stop = false;
  const worker = async () => {
    while (!stop) {
      const m = members[rand(members.length)]!;
      const at = rand(posts.length);
      const auth = { Authorization: m.auth };
      const kind = (['like', 'commentLike', 'comment', 'repost', 'undo'] as const)[rand(5)]!;
      const res =
        kind === 'like'
          ? await http().post(`/api/posts/${posts[at]}/like`).set(auth)
          : kind === 'commentLike'
            ? await http().post(`/api/comments/${comments[at]}/like`).set(auth)
            : kind === 'comment'
              ? await http()
                  .post(`/api/posts/${posts[at]}/comments`)
                  .set(auth)
                  .send({ content: 'storm', syncToTimeline: rand(2) === 0 })
              : kind === 'repost'
                ? await http().post(`/api/posts/${posts[at]}/repost`).set(auth).send({})
                : await http().delete(`/api/posts/${posts[at]}/repost`).set(auth);
      if (res.status < 300) acknowledged[kind] += 1;
      // A second repost (409) and undoing a repost there is none of (404) are the members' own.
      else if (
        !(res.status === 409 && kind === 'repost') &&
        !(res.status === 404 && kind === 'undo')
      )
        failures.push(res.status);
    }
  };
  const workers = Array.from({ length: 8 }, worker);
  const total = () => Object.values(acknowledged).reduce((a, b) => a + b, 0);
  // A deadline for a failure only: on a busy machine the storm takes its time.
  expect(await eventually(async () => total() >= 150, 150_000)).toBe(true);
  await stopDatabase(server!, 'SIGKILL');
  stop = true;
  await Promise.all(workers);
  // Writes cut off by the crash are refused as unavailable, never as a generic 500.
  expect(failures.filter((s) => s !== 503)).toEqual([]);
  // Every kind of write took part in the storm.
  for (const n of Object.values(acknowledged)) expect(n).toBeGreaterThan(0);

  server = await startDatabase(port, dbPath);
  expect(await eventually(async () => database.reachable)).toBe(true);
  // The recount (posts/recount.ts) finds every likes, comments and reposts count exact.
  expect(await findCountMismatches({ models: app.models })).toEqual([]);
  const stored = await app.models.Post.find(
    { _id: trusted({ $in: posts }) },
    { likesCount: 1, commentsCount: 1, repostsCount: 1 },
  ).lean();
  expect(stored.some((p) => p.likesCount + p.repostsCount > 0)).toBe(true);
  expect(stored.every((p) => p.commentsCount >= 1)).toBe(true);

  // And the API writes counts again after the restart.
  const after = await http()
    .post(`/api/posts/${posts[0]}/like`)
    .set('Authorization', author.auth)
    .expect(200);
  expect(after.body.liked).toBe(true);
  expect(await findCountMismatches({ models: app.models })).toEqual([]);
}, 300_000);
