/**
 * A database outage as an operator reads it (issue 36): one warning when it starts and one when
 * it ends, whatever happened in between (failed heartbeats every half second, requests refused
 * with a 503, the event stream and the mail queue trying again), and `/readyz` 503 for as long
 * as it lasts. The embedded database's CLI is a real child process, stopped and started again
 * on the same port and data; the app and its database connection log to a captured logger.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { CampusApp } from '../src/app';
import { createModels, type Models } from '../src/models';
import { connectDatabase, type Database } from '../src/platform/db';
import { DATABASE_UNAVAILABLE } from '../src/platform/errors';
import { freePort, startDatabaseProcess, stopDatabaseProcess } from './database-process';
import { eventually } from './eventually';
import { captureLogs } from './log-capture';
import { buildTestApp, createMember } from './test-app';

const logs = captureLogs('debug');
let dataDir: string;
let dbPath: string;
let port: number;
let server: ChildProcess | undefined;
let database: Database<Models>;
let app: CampusApp;
let http: () => ReturnType<typeof request>;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-outage-'));
  dbPath = path.join(dataDir, 'db');
  await fs.mkdir(dbPath);
  port = await freePort();
  server = await startDatabaseProcess(port, dbPath);
  database = await connectDatabase(`mongodb://127.0.0.1:${port}`, {
    dbName: 'campus_outage',
    models: createModels,
    logger: logs.logger,
  });
  const built = buildTestApp(database, dataDir, {}, undefined, logs.logger);
  app = built.app;
  http = () => request(built.callback);
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  if (server) await stopDatabaseProcess(server, 'SIGTERM');
  await fs.rm(dataDir, { recursive: true, force: true });
});

test('when the database goes away and comes back, then the log has one warning at the start and one at the end, and /readyz follows it', async () => {
  const member = await createMember(app);
  await app.caughtUp();
  await http().get('/readyz').expect(200);
  const from = logs.lines.length;
  const since = () => logs.lines.slice(from);
  const count = (msg: string) => since().filter((l) => l.msg === msg).length;

  await stopDatabaseProcess(server!, 'SIGTERM');
  expect(await eventually(() => !database.reachable)).toBe(true);

  const ready = await http().get('/readyz').expect(503);
  expect(ready.headers['cache-control']).toBe('no-store');
  expect(ready.body.checks.database).toEqual({
    ready: false,
    reason: 'the database is unreachable',
  });
  // The process itself is fine: restarting it would not bring the database back.
  await http().get('/livez').expect(200);
  for (let i = 0; i < 5; i++) {
    const res = await http().get('/api/posts').set('Authorization', member.auth);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ message: DATABASE_UNAVAILABLE });
  }
  // Long enough for what used to flood the log: many failed heartbeats (one warning each, with a
  // stack, before), and the event stream failing and trying again.
  expect(await eventually(() => count('database heartbeat failed') >= 6)).toBe(true);
  expect(
    await eventually(() => count('event stream failed; following again in a second') >= 2),
  ).toBe(true);

  server = await startDatabaseProcess(port, dbPath);
  expect(await eventually(() => database.reachable)).toBe(true);
  expect(await eventually(async () => (await http().get('/readyz')).status === 200)).toBe(true);
  expect(count('event stream: following again')).toBe(1);

  const warnings = since().filter((l) => l.level >= 40);
  expect(warnings.map((l) => [l.levelName, l.msg])).toEqual([
    ['warn', 'database unreachable'],
    ['warn', 'database reachable again'],
  ]);
  expect(typeof warnings[1]!.outageMs).toBe('number');
  // Nothing an operator reads (info and above) carries a stack: causes are a line each.
  expect(since().filter((l) => l.level >= 30 && JSON.stringify(l).includes('"stack"'))).toEqual([]);
  // The 503s are debug lines, with their cause and without a stack.
  const refused = since().filter((l) => l.msg === DATABASE_UNAVAILABLE);
  expect(refused.length).toBeGreaterThan(0);
  for (const line of refused) {
    expect(line.levelName).toBe('debug');
    expect(line.err).toBeUndefined();
  }
  // Each refused request is still on its own request line, at info level.
  expect(
    since().filter((l) => l.msg === 'request' && l.status === 503 && l.route === '/api/posts'),
  ).toHaveLength(5);
}, 180_000);
