/**
 * Database failures, with the embedded database's CLI as a real child process on a fixed port:
 * stopped, then restarted on the same port and data directory; killed with SIGKILL mid-write.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { trusted } from 'mongoose';
import request from 'supertest';
import { Post } from '../src/modules/posts/model';
import { connectDatabase, disconnectDatabase } from '../src/platform/db';
import { DATABASE_UNAVAILABLE } from '../src/platform/errors';
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns true or `ms` pass. */
async function eventually(probe: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await sleep(200);
  }
  return false;
}

let dataDir: string;
let dbPath: string;
let port: number;
let database: ChildProcess | undefined;
let http: () => ReturnType<typeof request>;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-faults-'));
  dbPath = path.join(dataDir, 'db');
  await fs.mkdir(dbPath);
  port = await freePort();
  database = await startDatabase(port, dbPath);
  await connectDatabase(`mongodb://127.0.0.1:${port}`, 'campus_faults');
  const { callback } = buildTestApp(dataDir);
  http = () => request(callback);
}, 30_000);

afterAll(async () => {
  await disconnectDatabase();
  if (database) await stopDatabase(database, 'SIGTERM');
  await fs.rm(dataDir, { recursive: true, force: true });
});

test('when the database is down, then requests get a quick 503 with a message, and the API recovers by itself when it returns', async () => {
  const member = await createMember();
  const before = await http()
    .post('/api/posts')
    .set('Authorization', member.auth)
    .send({ content: 'before the outage' })
    .expect(201);

  await stopDatabase(database!, 'SIGTERM');
  // The first request to find the database gone answers 503 too, never a 500.
  const first = await http().get('/api/posts').set('Authorization', member.auth);
  expect(first.status).toBe(503);
  expect(first.body).toEqual({ message: DATABASE_UNAVAILABLE });

  // Once it is known to be down, reads and writes are refused at once.
  for (const call of [
    () => http().get('/api/posts').set('Authorization', member.auth),
    () => http().get(`/api/posts/${before.body.id}`).set('Authorization', member.auth),
    () =>
      http().post('/api/posts').set('Authorization', member.auth).send({ content: 'during it' }),
    () => http().get('/api/notifications').set('Authorization', member.auth),
  ]) {
    const started = Date.now();
    const res = await call();
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.body).toEqual({ message: DATABASE_UNAVAILABLE });
    expect(Date.now() - started).toBeLessThan(1_000);
  }

  database = await startDatabase(port, dbPath);
  const recovered = await eventually(async () => {
    const res = await http().get('/api/posts').set('Authorization', member.auth);
    return res.status === 200;
  }, 20_000);
  expect(recovered).toBe(true);
  const feed = await http().get('/api/posts').set('Authorization', member.auth).expect(200);
  expect(feed.body.map((p: { id: number }) => p.id)).toContain(before.body.id);
}, 60_000);

test('when the database is killed with SIGKILL during writes, then every acknowledged post is there after a restart', async () => {
  const member = await createMember();
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
  await eventually(async () => acknowledged.length >= 40, 20_000);
  await stopDatabase(database!, 'SIGKILL');
  stop = true;
  await Promise.all(writers);
  // Writes cut off by the crash are refused as unavailable, never as a generic 500.
  expect(failures.filter((s) => s !== 503)).toEqual([]);
  expect(acknowledged.length).toBeGreaterThanOrEqual(40);

  database = await startDatabase(port, dbPath);
  expect(
    await eventually(async () => (await http().get('/api/settings')).status === 200, 20_000),
  ).toBe(true);
  const stored = await Post.find({ _id: trusted({ $in: acknowledged }) }, { _id: 1 }).lean();
  expect(stored.map((p) => p._id).sort((a, b) => a - b)).toEqual(
    [...acknowledged].sort((a, b) => a - b),
  );
}, 60_000);
