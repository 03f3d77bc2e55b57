/**
 * Versioned migrations and the declared indexes, brought up to date under one database lock.
 *
 * - A migration is a file `NNNN-name.ts` of one directory (api/src/migrations/), exporting
 *   `up(ctx)`. Each runs once, in the order of its number; once it returns, a record
 *   `{ _id: 'NNNN-name', version, name, appliedAt, durationMs, appVersion, by }` goes into the
 *   `migrations` collection. One that throws is not recorded, stops the run (and the start), and
 *   runs again next time: a migration must be safe to run again after a partial run.
 * - After them, the declared indexes (platform/declared-indexes.ts): when the fingerprint of every
 *   model's declared indexes differs from the one recorded (`{ _id: 'declared-indexes' }` in
 *   `migrations`), the missing ones are built and the ones no model declares are dropped, each
 *   logged. Changing an index in a model file needs no migration file; a migration that must
 *   prepare the data for a new index (removing duplicates before a unique one) runs first.
 *   A version older than the one that last synced the indexes leaves them alone (a rolling
 *   upgrade's old processes do not put back what the new version dropped).
 * - Every runner first reads the state without the lock: nothing to do (the usual start, and every
 *   process but the first of a fleet starting together) takes no lock. Otherwise it takes the lock
 *   (platform/migration-lock.ts), waiting while another runner holds it, reads the state again
 *   (the other runner may have done everything) and does what is left. The holder renews the lock
 *   while it works; a runner that dies leaves a lock that expires after `lockMs`.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type mongoose from 'mongoose';
import semver from 'semver';
import {
  declaredIndexesFingerprint,
  diffDeclaredIndexes,
  syncDeclaredIndexes,
  type IndexChanges,
} from './declared-indexes';
import type { Logger } from './logger';
import { migrationLock, type MigrationLock } from './migration-lock';

export const MIGRATIONS_COLLECTION = 'migrations';
export const DECLARED_INDEXES_ID = 'declared-indexes';
/** A lock not renewed for this long belongs to a runner that died: the next one takes it. */
export const MIGRATION_LOCK_MS = 60_000;
/** How often a waiting runner looks whether the lock went. */
const POLL_MS = 500;

export interface Migration<C> {
  /** `NNNN-name`, the file's name without its extension: the record's `_id`. */
  id: string;
  version: number;
  up(ctx: C): Promise<void>;
}

export interface MigrationRecord {
  _id: string;
  version: number;
  name: string;
  appliedAt: Date;
  durationMs: number;
  /** The app version that applied it. */
  appVersion: string;
  /** The runner that applied it (its lock owner). */
  by: string;
}

interface IndexesRecord {
  _id: typeof DECLARED_INDEXES_ID;
  fingerprint: string;
  appVersion: string;
  syncedAt: Date;
  by: string;
  dropped: string[];
  created: string[];
}

/**
 * Where the declared indexes stand: `current` (synced by this declaration), `changed` (never
 * synced, or the models changed since: a sync is due), `newer` (synced by a newer version of the
 * app, which this one leaves alone).
 */
export type IndexesState = 'current' | 'changed' | 'newer';

export interface MigrationState {
  /** Migrations of this version not yet recorded, in order. */
  pending: string[];
  /** Recorded migrations this version does not know (a newer version ran on this database). */
  unknown: string[];
  indexes: IndexesState;
}

export interface MigrationReport {
  /** The migrations this run applied, in order (none when another runner did them). */
  applied: string[];
  /** What the index sync of this run changed; undefined when it did not sync. */
  indexes?: IndexChanges;
  /** Whether this runner waited for another one's lock. */
  waited: boolean;
}

export interface MigrationOptions<C> {
  connection: mongoose.Connection;
  /** This version's migrations (loadMigrations), in any order. */
  migrations: Migration<C>[];
  /** What each migration's `up` is given. */
  context: C;
  logger: Logger;
  /** This app's version (semver): recorded with what it applies. */
  appVersion: string;
  /** The lock owner's name (default: host name, process id and a random part). */
  owner?: string;
  /** The runner's time (the lock's expiry); tests move a clock of their own. */
  now?: () => Date;
  lockMs?: number;
  pollMs?: number;
}

function dbOf(connection: mongoose.Connection) {
  const db = connection.db;
  if (!db) throw new Error('migrations: the database connection is not open');
  return db;
}

/** The migrations' own records, through the driver (no model owns the collection). */
function records(connection: mongoose.Connection) {
  return dbOf(connection).collection<MigrationRecord | IndexesRecord>(MIGRATIONS_COLLECTION);
}

/** The declared indexes' record (`_id: 'declared-indexes'`), in the same collection. */
function indexesRecords(connection: mongoose.Connection) {
  return dbOf(connection).collection<IndexesRecord>(MIGRATIONS_COLLECTION);
}

/** Migrations in version order; two with one version are a mistake in the directory. */
function inOrder<C>(migrations: Migration<C>[]): Migration<C>[] {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((migration, i) => {
    const before = sorted[i - 1];
    if (before && before.version === migration.version) {
      throw new Error(
        `two migrations have version ${migration.version}: ${before.id}, ${migration.id}`,
      );
    }
  });
  return sorted;
}

/** A migration's file: a four-digit version, a kebab-case name, TypeScript or compiled. */
const MIGRATION_FILE = /^(\d{4})-([a-z0-9]+(?:-[a-z0-9]+)*)\.(?:ts|js)$/;

/**
 * The migrations of `dir`: every `NNNN-name.ts` (or `.js`, compiled) exporting `up(ctx)`, in
 * version order. Any other file whose name starts with a digit is a mistake and refused, as are
 * two files with one version.
 */
export function loadMigrations<C>(dir: string): Migration<C>[] {
  const migrations: Migration<C>[] = [];
  for (const file of fs.readdirSync(dir).sort()) {
    if (!/^\d/.test(file) || file.endsWith('.map') || file.endsWith('.d.ts')) continue;
    const match = MIGRATION_FILE.exec(file);
    if (!match) {
      throw new Error(`${path.join(dir, file)}: a migration is named NNNN-kebab-case-name.ts`);
    }
    // Loaded by path at run time: the directory is the list (tsx, jest and the compiled dist/).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { up } = require(path.join(dir, file)) as { up?: unknown };
    if (typeof up !== 'function') {
      throw new Error(`${path.join(dir, file)} exports no up(ctx) function`);
    }
    migrations.push({
      id: `${match[1]}-${match[2]}`,
      version: Number(match[1]),
      up: up as Migration<C>['up'],
    });
  }
  return inOrder(migrations);
}

/** Where the database stands against this version's migrations and declared indexes (no lock). */
export async function migrationState<C>(
  connection: mongoose.Connection,
  migrations: Migration<C>[],
  appVersion: string,
): Promise<MigrationState> {
  const stored = await records(connection).find({}).toArray();
  const applied = new Set(stored.filter((r) => r._id !== DECLARED_INDEXES_ID).map((r) => r._id));
  const known = new Set(migrations.map((m) => m.id));
  const indexesRecord = stored.find((r): r is IndexesRecord => r._id === DECLARED_INDEXES_ID);
  let indexes: IndexesState = 'changed';
  if (indexesRecord?.fingerprint === declaredIndexesFingerprint(connection)) indexes = 'current';
  else if (indexesRecord && isNewer(indexesRecord.appVersion, appVersion)) indexes = 'newer';
  return {
    pending: inOrder(migrations)
      .map((m) => m.id)
      .filter((id) => !applied.has(id)),
    unknown: [...applied].filter((id) => !known.has(id)).sort(),
    indexes,
  };
}

/** Whether `recorded` is a later version than `ours` (an unreadable version is not). */
function isNewer(recorded: string, ours: string): boolean {
  return (
    semver.valid(recorded) !== null && semver.valid(ours) !== null && semver.gt(recorded, ours)
  );
}

function needsWork(state: MigrationState): boolean {
  return state.pending.length > 0 || state.indexes === 'changed';
}

/** What a run would do, without doing it: the pending migrations and the index changes. */
export async function planMigrations<C>(
  connection: mongoose.Connection,
  migrations: Migration<C>[],
  appVersion: string,
): Promise<MigrationState & { indexChanges?: IndexChanges }> {
  const state = await migrationState(connection, migrations, appVersion);
  if (state.indexes !== 'changed') return state;
  return { ...state, indexChanges: await diffDeclaredIndexes(connection) };
}

export function defaultLockOwner(): string {
  return `${hostname()} pid ${process.pid} ${randomUUID().slice(0, 8)}`;
}

/** Thrown when a runner's lock expired while it worked and another runner took it. */
export class MigrationLockLost extends Error {
  constructor(owner: string) {
    super(
      `the migration lock of ${owner} expired while it worked and another runner took it: ` +
        'stopping (the migrations not yet recorded run at the next start)',
    );
  }
}

/**
 * Applies this version's pending migrations, then syncs the declared indexes when they changed,
 * under the migration lock: once, however many runners start together. Resolves when the
 * database is up to date (by this runner or another); rejects when a migration fails (it is not
 * recorded) or the database cannot be reached, after letting go of the lock.
 */
export async function runMigrations<C>(options: MigrationOptions<C>): Promise<MigrationReport> {
  const { connection, logger, appVersion } = options;
  const owner = options.owner ?? defaultLockOwner();
  const now = options.now ?? (() => new Date());
  const lockMs = options.lockMs ?? MIGRATION_LOCK_MS;
  const migrations = inOrder(options.migrations);
  const lock = migrationLock(dbOf(connection), { owner, lockMs, now });

  let waited = false;
  for (;;) {
    const state = await migrationState(connection, migrations, appVersion);
    if (!needsWork(state)) {
      reportState(state, logger, appVersion);
      return { applied: [], waited };
    }
    if (await lock.acquire()) break;
    if (!waited) {
      const holder = await lock.holder();
      logger.info(
        { holder: holder?.owner, expiresAt: holder?.expiresAt },
        'waiting for the migrations another runner holds the lock for',
      );
      waited = true;
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? POLL_MS));
  }

  const keepAlive = renewWhileWorking(lock, lockMs, logger);
  // Before each step and before recording it: the lock is still ours (and good for lockMs more).
  const stillHeld = async () => {
    if (keepAlive.lost() || !(await lock.renew())) throw new MigrationLockLost(owner);
  };
  try {
    // Another runner may have done it all between the look and the lock.
    const state = await migrationState(connection, migrations, appVersion);
    reportState(state, logger, appVersion);
    const applied: string[] = [];
    for (const id of state.pending) {
      const migration = migrations.find((m) => m.id === id)!;
      await stillHeld();
      logger.info({ migration: id }, 'applying migration');
      const started = Date.now();
      await migration.up(options.context);
      await stillHeld();
      const durationMs = Date.now() - started;
      await records(connection).insertOne({
        _id: id,
        version: migration.version,
        name: id.replace(/^\d+-/, ''),
        appliedAt: now(),
        durationMs,
        appVersion,
        by: owner,
      });
      logger.info({ migration: id, durationMs }, 'migration applied');
      applied.push(id);
    }
    let indexes: IndexChanges | undefined;
    if (state.indexes === 'changed') {
      await stillHeld();
      const fingerprint = declaredIndexesFingerprint(connection);
      indexes = await syncDeclaredIndexes(connection, logger);
      await stillHeld();
      await indexesRecords(connection).replaceOne(
        { _id: DECLARED_INDEXES_ID },
        {
          fingerprint,
          appVersion,
          syncedAt: now(),
          by: owner,
          ...indexes,
        },
        { upsert: true },
      );
      logger.info(
        { fingerprint, dropped: indexes.dropped.length, created: indexes.created.length },
        'declared indexes synced',
      );
    }
    return { applied, indexes, waited };
  } finally {
    keepAlive.stop();
    // A database gone away keeps the lock until it expires: the next runner takes it then.
    await lock
      .release()
      .catch((err: unknown) => logger.warn({ err }, 'the migration lock could not be released'));
  }
}

function reportState(state: MigrationState, logger: Logger, appVersion: string) {
  if (state.unknown.length > 0) {
    logger.warn(
      { unknown: state.unknown, version: appVersion },
      'the database has migrations this version does not know (a newer version ran on it)',
    );
  }
  if (state.indexes === 'newer') {
    logger.warn(
      { version: appVersion },
      'a newer version synced the indexes: this version leaves them as they are',
    );
  }
}

/** Renews the lock every quarter of its life until stopped; `lost()` once a renewal found it gone. */
function renewWhileWorking(lock: MigrationLock, lockMs: number, logger: Logger) {
  let lost = false;
  const timer = setInterval(() => {
    lock.renew().then(
      (held) => {
        if (!held) lost = true;
      },
      (err: unknown) => logger.warn({ err }, 'the migration lock could not be renewed'),
    );
  }, lockMs / 4);
  timer.unref();
  return { lost: () => lost, stop: () => clearInterval(timer) };
}
