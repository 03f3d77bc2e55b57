import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Schema, type Connection, type mongo } from 'mongoose';
import request from 'supertest';
import { start } from '@campus/embedded-mongo';
import { checkMigrations, migrateDatabase, startMigrations } from '../src/migrations/run';
import { createModels, type Models } from '../src/models';
import { connectDatabase, type Database } from '../src/platform/db';
import { createLogger, type Logger } from '../src/platform/logger';
import { MIGRATION_LOCK_COLLECTION } from '../src/platform/migration-lock';
import {
  loadMigrations,
  MigrationLockLost,
  migrationState,
  MIGRATIONS_COLLECTION,
  runMigrations,
  type Migration,
} from '../src/platform/migrations';
import { API_VERSION } from '../src/version';
import { startApiProcess } from './api-process';
import { TestClock } from './clock';
import { eventually } from './eventually';
import { buildTestApp } from './test-app';

// Versioned migrations and the declared indexes (platform/migrations.ts, src/migrations/), run
// under the database lock: by concurrent runners (two processes' connections), at the API's start
// and with `npm run migrate`, on the embedded database (or TEST_MONGODB_URI).

// Each `npm run migrate` and API start compiles the API with tsx: long on a busy 2-core machine.
jest.setTimeout(180_000);

const API_ROOT = path.resolve(__dirname, '..');
let server: Awaited<ReturnType<typeof start>> | undefined;
let uri = '';
const opened: { close(): Promise<void> }[] = [];
let dataDir = '';

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-migrations-test-'));
  const external = process.env.TEST_MONGODB_URI;
  if (!external) server = await start({ port: 0 });
  uri = external ?? server!.uri;
});

afterAll(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
  await server?.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** A database of its own for one test. */
function freshName(): string {
  return `migrations_${randomBytes(5).toString('hex')}`;
}

/**
 * A connection as an API process opens it (another connection: another process), with the
 * app's models or the test's, its indexes left to the migrations unless `buildIndexes`.
 */
async function openAs<M = Models>(
  dbName: string,
  options: { models?: (connection: Connection) => M; buildIndexes?: boolean } = {},
): Promise<Database<M>> {
  const database = await connectDatabase<M>(uri, {
    dbName,
    models: options.models ?? (createModels as unknown as (c: Connection) => M),
    buildIndexes: options.buildIndexes ?? false,
  });
  opened.push({
    close: async () => {
      if (process.env.TEST_MONGODB_URI) await database.connection.dropDatabase();
      await database.close();
    },
  });
  return database;
}

/** A logger whose lines the test reads (and waits for) as objects. */
function capturedLogger(): {
  logger: Logger;
  lines: Record<string, unknown>[];
  next(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
} {
  const lines: Record<string, unknown>[] = [];
  const waiting: {
    match: (line: Record<string, unknown>) => boolean;
    found: (line: Record<string, unknown>) => void;
  }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean)) {
        const line = JSON.parse(text) as Record<string, unknown>;
        lines.push(line);
        for (const waiter of waiting.splice(0)) {
          if (waiter.match(line)) waiter.found(line);
          else waiting.push(waiter);
        }
      }
      done();
    },
  });
  return {
    logger: createLogger('info', sink),
    lines,
    next: (match) =>
      new Promise((found) => {
        const seen = lines.find(match);
        if (seen) found(seen);
        else waiting.push({ match, found });
      }),
  };
}

type Ctx = { db: mongo.Db };

/** A migration that counts its runs in `ran`, after `before` (if given) resolves. */
function counting(id: string, before?: () => Promise<unknown>): Migration<Ctx> {
  return {
    id,
    version: Number(id.slice(0, 4)),
    async up({ db }) {
      await before?.();
      await db
        .collection<{ _id: string; runs: number }>('ran')
        .updateOne({ _id: id }, { $inc: { runs: 1 } }, { upsert: true });
    },
  };
}

async function runs(database: Database<unknown>): Promise<Record<string, number>> {
  const docs = await database.connection
    .db!.collection<{ _id: string; runs: number }>('ran')
    .find({})
    .toArray();
  return Object.fromEntries(docs.map((doc) => [doc._id, doc.runs]));
}

async function recorded(database: Database<unknown>): Promise<string[]> {
  const docs = await database.connection.db!.collection(MIGRATIONS_COLLECTION).find({}).toArray();
  return docs.map((doc) => String(doc._id)).sort();
}

async function lockDocs(database: Database<unknown>) {
  return database.connection.db!.collection(MIGRATION_LOCK_COLLECTION).find({}).toArray();
}

async function indexNames(database: Database<unknown>, collection: string): Promise<string[]> {
  const indexes = await database.connection.db!.collection(collection).listIndexes().toArray();
  return indexes.map((index) => String(index.name)).sort();
}

const isWaiting = (line: Record<string, unknown>) =>
  String(line.msg).startsWith('waiting for the migrations');

describe('concurrent runners', () => {
  test('when two runners start together on one database, then each migration is applied once, the other runner waits, and the app serves on the result', async () => {
    const name = freshName();
    const [first, second] = [await openAs(name), await openAs(name)];
    const log = capturedLogger();
    // The first migration holds its runner until the other one is seen waiting for the lock.
    const otherWaits = log.next(isWaiting);
    const migrations = [counting('0001-first', () => otherWaits), counting('0002-second')];
    const run = (database: Database<Models>, owner: string) =>
      migrateDatabase(database, {
        logger: log.logger.child({ owner }),
        owner,
        pollMs: 10,
        migrations: migrations as Migration<never>[],
      });

    const [a, b] = await Promise.all([run(first, 'runner-a'), run(second, 'runner-b')]);

    expect([a.applied, b.applied].sort()).toEqual([[], ['0001-first', '0002-second']]);
    expect([a.waited, b.waited].sort()).toEqual([false, true]);
    expect(await runs(first)).toEqual({ '0001-first': 1, '0002-second': 1 });
    expect(await recorded(first)).toEqual(['0001-first', '0002-second', 'declared-indexes']);
    expect(log.lines.filter((line) => line.msg === 'declared indexes synced')).toHaveLength(1);
    expect(await lockDocs(first)).toEqual([]);
    const record = await first.connection
      .db!.collection(MIGRATIONS_COLLECTION)
      .findOne({ _id: '0001-first' as never });
    expect(record).toMatchObject({ version: 1, name: 'first', appVersion: API_VERSION });

    // The declared indexes were built by the migrations (the connections build none): the
    // unique e-mail holds, and the app works on this database.
    expect(await indexNames(first, 'users')).toEqual(expect.arrayContaining(['email_1']));
    const { app, callback } = buildTestApp(first, dataDir);
    try {
      expect((await request(callback).get('/api/settings')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  test('when the lock is held by a runner that died, then a runner waits until it expires and takes it over', async () => {
    const database = await openAs(freshName());
    const clock = new TestClock();
    clock.freeze(Date.UTC(2026, 10, 30, 12));
    await database.connection.db!.collection(MIGRATION_LOCK_COLLECTION).insertOne({
      _id: 'migrations' as never,
      owner: 'a process that was killed',
      acquiredAt: clock.now(),
      expiresAt: new Date(clock.now().getTime() + 60_000),
    });
    const log = capturedLogger();
    // As a start that reports readiness while it migrates would run them.
    const running = startMigrations(database, {
      logger: log.logger,
      owner: 'survivor',
      now: () => clock.now(),
      pollMs: 10,
      migrations: [counting('0001-first')] as Migration<never>[],
    });
    expect(await log.next(isWaiting)).toMatchObject({ holder: 'a process that was killed' });
    expect(await runs(database)).toEqual({});
    expect(running.done()).toBe(false);

    clock.advance(60_000);
    expect((await running.finished).applied).toEqual(['0001-first']);
    expect(running.done()).toBe(true);
    expect(await runs(database)).toEqual({ '0001-first': 1 });
    expect(await lockDocs(database)).toEqual([]);
  });
});

describe('a failing migration', () => {
  test('when a migration throws, then it is not recorded, the lock is released, and the next run applies it', async () => {
    const database = await openAs(freshName());
    const { logger } = capturedLogger();
    const broken: Migration<Ctx> = {
      id: '0002-broken',
      version: 2,
      up: () => Promise.reject(new Error('the data was not what this migration expected')),
    };
    const migrate = (migrations: Migration<Ctx>[]) =>
      migrateDatabase(database, { logger, migrations: migrations as Migration<never>[] });

    await expect(migrate([counting('0001-first'), broken])).rejects.toThrow(
      'the data was not what this migration expected',
    );
    expect(await recorded(database)).toEqual(['0001-first']);
    expect(await lockDocs(database)).toEqual([]);
    expect(
      await migrationState(database.connection, [counting('0001-first'), broken], API_VERSION),
    ).toMatchObject({ pending: ['0002-broken'] });

    const fixed = await migrate([counting('0001-first'), counting('0002-broken')]);
    expect(fixed.applied).toEqual(['0002-broken']);
    expect(await runs(database)).toEqual({ '0001-first': 1, '0002-broken': 1 });
  });

  test('when the lock was taken over while a migration ran, then the run stops without recording it', async () => {
    const database = await openAs(freshName());
    const { logger } = capturedLogger();
    const locks = database.connection.db!.collection(MIGRATION_LOCK_COLLECTION);
    // While the migration works, its lock expires and another runner takes it.
    const takenOver = () =>
      locks.updateOne({ _id: 'migrations' as never }, { $set: { owner: 'another runner' } });
    await expect(
      runMigrations({
        connection: database.connection,
        migrations: [counting('0001-slow', takenOver)],
        context: { db: database.connection.db! },
        logger,
        appVersion: API_VERSION,
      }),
    ).rejects.toBeInstanceOf(MigrationLockLost);
    expect(await recorded(database)).toEqual([]);
    // The lock stays with the runner that took it.
    expect(await lockDocs(database)).toEqual([
      expect.objectContaining({ owner: 'another runner' }),
    ]);
  });
});

describe('declared indexes', () => {
  test('when an older version left an index the models no longer declare, then the first run drops it and logs it, leaving _id_, the declared ones and collections no model owns', async () => {
    const name = freshName();
    // The database as 0.1.0 left it: every index it declared, built by mongoose's autoIndex,
    // among them comments' { postId, createdAt } (replaced by { postId, parentId, createdAt, _id }).
    const older = await openAs(name, { buildIndexes: true });
    const db = older.connection.db!;
    await db.collection('comments').createIndex({ postId: 1, createdAt: 1 });
    await db.collection('uploads.files').createIndex({ filename: 1, uploadDate: 1 });
    await db.collection('secrets').createIndex({ createdAt: 1 });
    const declaredComments = await indexNames(older, 'comments');

    const database = await openAs(name);
    expect(await checkMigrations(database)).toMatchObject({ ok: false, indexes: 'changed' });
    const log = capturedLogger();
    const report = await migrateDatabase(database, { logger: log.logger });
    expect(await checkMigrations(database)).toMatchObject({ ok: true, indexes: 'current' });

    expect(report.indexes?.dropped).toEqual(['comments.postId_1_createdAt_1']);
    expect(report.indexes?.created).toEqual([]);
    expect(log.lines).toContainEqual(
      expect.objectContaining({
        index: 'comments.postId_1_createdAt_1',
        msg: expect.stringContaining('dropping an index'),
      }),
    );
    expect(await indexNames(database, 'comments')).toEqual(
      declaredComments.filter((index) => index !== 'postId_1_createdAt_1'),
    );
    expect(await indexNames(database, 'comments')).toContain('_id_');
    expect(await indexNames(database, 'uploads.files')).toContain('filename_1_uploadDate_1');
    expect(await indexNames(database, 'secrets')).toContain('createdAt_1');
  });

  test('when a model stops declaring an index, then the next start drops it; an older version starting afterwards leaves it dropped', async () => {
    const name = freshName();
    const widgets = (indexes: Record<string, 1>[]) => (connection: Connection) => {
      const schema = new Schema({ a: Number, b: Number, c: Number });
      for (const keys of indexes) schema.index(keys);
      return { Widget: connection.model('Widget', schema) };
    };
    const { logger } = capturedLogger();
    const migrate = (database: Database<unknown>, appVersion: string) =>
      runMigrations({
        connection: database.connection,
        migrations: [],
        context: {},
        logger,
        appVersion,
      });

    const v1 = await openAs(name, { models: widgets([{ a: 1 }, { b: 1 }]) });
    expect((await migrate(v1, '1.0.0')).indexes?.created).toHaveLength(2);
    expect(await indexNames(v1, 'widgets')).toEqual(['_id_', 'a_1', 'b_1']);
    // Nothing declared changed: no sync (and no lock).
    expect((await migrate(v1, '1.0.0')).indexes).toBeUndefined();

    const v2 = await openAs(name, { models: widgets([{ a: 1 }, { c: 1 }]) });
    expect(await migrationState(v2.connection, [], '1.1.0')).toMatchObject({ indexes: 'changed' });
    expect((await migrate(v2, '1.1.0')).indexes).toEqual({
      dropped: ['widgets.b_1'],
      created: ['widgets.{"c":1}'],
    });
    expect(await indexNames(v2, 'widgets')).toEqual(['_id_', 'a_1', 'c_1']);

    // A process of 1.0.0 still running a rolling upgrade starts again: it does not put b back.
    expect(await migrationState(v1.connection, [], '1.0.0')).toMatchObject({ indexes: 'newer' });
    expect((await migrate(v1, '1.0.0')).indexes).toBeUndefined();
    expect(await indexNames(v1, 'widgets')).toEqual(['_id_', 'a_1', 'c_1']);
  });

  test("when the app's models were synced, then syncing them again drops and builds nothing", async () => {
    const database = await openAs(freshName());
    const { logger } = capturedLogger();
    await migrateDatabase(database, { logger, migrations: [] });
    // Forget the fingerprint: the next run compares every index with the database again.
    await database.connection
      .db!.collection(MIGRATIONS_COLLECTION)
      .deleteOne({ _id: 'declared-indexes' as never });
    const again = await migrateDatabase(database, { logger, migrations: [] });
    expect(again.indexes).toEqual({ dropped: [], created: [] });
  });
});

describe('the migrations folder', () => {
  test('when a folder holds migration files, then they load in version order, and a misnamed or duplicate one is refused', async () => {
    const dir = await fs.mkdtemp(path.join(dataDir, 'folder-'));
    const file = (body: string) => `exports.up = async function up() { ${body} };\n`;
    await fs.writeFile(path.join(dir, '0002-second.js'), file(''));
    await fs.writeFile(path.join(dir, '0001-first.js'), file(''));
    await fs.writeFile(path.join(dir, '0001-first.js.map'), '{}');
    await fs.writeFile(path.join(dir, 'helpers.js'), 'exports.x = 1;\n');
    expect(loadMigrations(dir).map((m) => [m.id, m.version])).toEqual([
      ['0001-first', 1],
      ['0002-second', 2],
    ]);

    await fs.writeFile(path.join(dir, '0002-again.js'), file(''));
    expect(() => loadMigrations(dir)).toThrow('two migrations have version 2');
    await fs.rm(path.join(dir, '0002-again.js'));
    await fs.writeFile(path.join(dir, '3-short.js'), file(''));
    expect(() => loadMigrations(dir)).toThrow('a migration is named NNNN-kebab-case-name.ts');
    await fs.rm(path.join(dir, '3-short.js'));
    await fs.writeFile(path.join(dir, '0003-no-up.js'), 'exports.down = 1;\n');
    expect(() => loadMigrations(dir)).toThrow('exports no up(ctx) function');
  });
});

describe('at the start and with npm run migrate', () => {
  /** What MONGODB_URI would name for the database `database` is on. */
  function databaseUri(database: Database<unknown>): string {
    const { host, port, name } = database.connection;
    return `mongodb://${host}:${port}/${name}?directConnection=true`;
  }

  /** `npm run migrate` as the workspace script runs it (tsx), with `env` and `args`. */
  function migrateCli(args: string[], env: NodeJS.ProcessEnv) {
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/migrations/cli.ts', ...args], {
        cwd: API_ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'development',
          LOG_LEVEL: 'info',
          DATA_DIR: dataDir,
          EMBEDDED_DATABASE: '',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });
  }

  test('when npm run migrate runs, then its exit code says whether migrations are pending (3) and the database up to date (0)', async () => {
    const name = freshName();
    const older = await openAs(name, { buildIndexes: true });
    await older.connection.db!.collection('comments').createIndex({ postId: 1, createdAt: 1 });
    const env = { MONGODB_URI: databaseUri(older) };

    const pending = await migrateCli(['--check'], env);
    expect({ code: pending.code, stderr: pending.code === 3 ? '' : pending.stderr }).toEqual({
      code: 3,
      stderr: '',
    });
    expect(pending.stdout).toContain('would drop comments.postId_1_createdAt_1');
    expect(await indexNames(older, 'comments')).toContain('postId_1_createdAt_1');

    const migrated = await migrateCli([], env);
    expect({ code: migrated.code, stderr: migrated.code === 0 ? '' : migrated.stderr }).toEqual({
      code: 0,
      stderr: '',
    });
    expect(migrated.stdout).toContain('dropped comments.postId_1_createdAt_1');
    expect(migrated.stdout).toContain(`up to date for Campus ${API_VERSION}`);
    expect(await indexNames(older, 'comments')).not.toContain('postId_1_createdAt_1');

    expect((await migrateCli(['--check'], env)).code).toBe(0);
  });

  test('when npm run migrate is misused, refused by production or given no database, then it exits 2 or 1', async () => {
    const database = await openAs(freshName());
    const env = { MONGODB_URI: databaseUri(database) };
    const misused = await migrateCli(['--frobnicate'], env);
    expect(misused.code).toBe(2);
    expect(misused.stderr).toContain('Usage: npm run migrate');
    // Production without a database to migrate: refused, nothing started.
    const refused = await migrateCli([], { NODE_ENV: 'production', MONGODB_URI: '' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('MONGODB_URI must be set in production');
    const unreadable = await migrateCli([], { MONGODB_URI: 'not-a-database-address' });
    expect(unreadable.code).toBe(1);
  });

  test('when two API processes start on a database an older version left, then the migrations run once, before either listens, and each logs the version', async () => {
    const name = freshName();
    const older = await openAs(name, { buildIndexes: true });
    await older.connection.db!.collection('comments').createIndex({ postId: 1, createdAt: 1 });
    const api = await startApiProcess({ MONGODB_URI: databaseUri(older), API_PROCESSES: '2' });
    try {
      const lines = () =>
        api.output.flatMap((text) => {
          try {
            return [JSON.parse(text) as Record<string, unknown>];
          } catch {
            return [];
          }
        });
      expect(
        await eventually(() => lines().filter((line) => line.msg === 'api listening').length === 2),
      ).toBe(true);
      const synced = lines().filter((line) => line.msg === 'declared indexes synced');
      expect(synced).toHaveLength(1);
      const migrated = lines().filter((line) => line.msg === 'database migrated to this version');
      expect(migrated.map((line) => line.version)).toEqual([API_VERSION, API_VERSION]);
      expect(await indexNames(older, 'comments')).not.toContain('postId_1_createdAt_1');
      expect((await fetch(`${api.url}/api/settings`)).status).toBe(200);
      // Readiness asks too: every migration of this version recorded.
      const ready = (await (await fetch(`${api.url}/readyz`)).json()) as {
        checks: Record<string, { ready: boolean }>;
      };
      expect(ready.checks.migrations).toEqual({ ready: true });
    } finally {
      await api.stop();
    }
  });
});
