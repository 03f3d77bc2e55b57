/**
 * The API's migrations: the files `NNNN-name.ts` of this folder, each exporting `up(ctx: MigrationContext)`, then the declared indexes of every model
 * (platform/migrations.ts says how and when). They run when the API starts (src/main.ts, before
 * it listens) and with `npm run migrate` (cli.ts), under one database lock.
 *
 * Writing one: `0002-what-it-does.ts` with
 *
 *     export async function up({ db, logger }: MigrationContext): Promise<void> { ... }
 *
 * It must be safe to run again (a run that stops half-way is not recorded and runs again):
 * filters that skip what is already done, `$set` rather than `$inc`. It runs before the index
 * sync, so it may prepare the data for a new index (no duplicates before a unique one). Prefer
 * the driver (`db.collection(...)`, bulk writes) to the models for data written by an older
 * version: the models describe the new shape.
 */
import type mongoose from 'mongoose';
import type { mongo } from 'mongoose';
import { openDatabase, type Database } from '../platform/db';
import type { Logger } from '../platform/logger';
import {
  loadMigrations,
  migrationState,
  planMigrations,
  runMigrations,
  type Migration,
  type MigrationOptions,
  type MigrationReport,
  type MigrationState,
} from '../platform/migrations';
import { createModels, type Models } from '../models';
import { API_VERSION } from '../version';

/** What a migration's `up` is given. */
export interface MigrationContext {
  /** The database through the driver: what most migrations use. */
  db: mongo.Db;
  connection: mongoose.Connection;
  /** This version's models (their indexes are synced after the migrations). */
  models: Models;
  logger: Logger;
}

let loaded: Migration<MigrationContext>[] | undefined;

/** This version's migrations: the files of this folder (read once). */
export function apiMigrations(): Migration<MigrationContext>[] {
  loaded ??= loadMigrations<MigrationContext>(__dirname);
  return loaded;
}

type Target = Pick<Database<Models>, 'connection' | 'models'>;

/**
 * Brings the database up to this version: its pending migrations, then the declared indexes,
 * under the migration lock (waiting while another process holds it). `migrations` and
 * `appVersion` default to this folder's and the API's; tests pass their own.
 */
export async function migrateDatabase(
  database: Target,
  options: { logger: Logger } & Partial<
    Pick<
      MigrationOptions<MigrationContext>,
      'owner' | 'now' | 'lockMs' | 'pollMs' | 'migrations' | 'appVersion'
    >
  >,
): Promise<MigrationReport> {
  const { connection, models } = database;
  const appVersion = options.appVersion ?? API_VERSION;
  const report = await runMigrations<MigrationContext>({
    ...options,
    connection,
    appVersion,
    migrations: options.migrations ?? apiMigrations(),
    context: { db: connection.db!, connection, models, logger: options.logger },
  });
  options.logger.info(
    {
      version: appVersion,
      applied: report.applied,
      ...(report.indexes ? { droppedIndexes: report.indexes.dropped } : {}),
    },
    'database migrated to this version',
  );
  return report;
}

/**
 * The API's database as its start, `npm run seed` and `npm run create-admin` open it: the models
 * bound, then migrated (waiting for another process doing it); closed again if that fails.
 */
export async function openMigratedDatabase(
  config: { mongodbUri: string | undefined; dataDir: string },
  logger: Logger,
): Promise<Awaited<ReturnType<typeof openDatabase<Models>>>> {
  const database = await openDatabase({
    ...config,
    logger,
    models: createModels,
    buildIndexes: false,
  });
  await migrateDatabase(database, { logger }).catch(async (err: unknown) => {
    await database.close();
    throw err;
  });
  return database;
}

/**
 * The migrations of one API process's start, for readiness: `done()` turns true once the database
 * is up to date (`finished` resolves with what this process did; it rejects, and `done()` stays
 * false, when they failed). Register it as the readiness check `migrations`.
 */
export interface MigrationsAtStart {
  done(): boolean;
  finished: Promise<MigrationReport>;
}

export function startMigrations(
  database: Target,
  options: Parameters<typeof migrateDatabase>[1],
): MigrationsAtStart {
  let done = false;
  const finished = migrateDatabase(database, options).then((report) => {
    done = true;
    return report;
  });
  return { done: () => done, finished };
}

/**
 * Whether the database is at this version (a check that reads it: no pending migration, the
 * indexes synced by this declaration or a newer version's), with the details.
 */
export async function checkMigrations(
  database: Pick<Database<Models>, 'connection'>,
): Promise<MigrationState & { ok: boolean }> {
  const state = await migrationState(database.connection, apiMigrations(), API_VERSION);
  return { ...state, ok: state.pending.length === 0 && state.indexes !== 'changed' };
}

/** What `npm run migrate -- --check` prints: what a run would do, changing nothing. */
export function planDatabase(database: Pick<Database<Models>, 'connection'>) {
  return planMigrations(database.connection, apiMigrations(), API_VERSION);
}
