/**
 * The benchmark database: `MONGODB_URI` when set, else the embedded server (its CLI, in its own
 * process) with data under `.data/bench/<name>`. Binds every model of the API to the connection
 * (src/models.ts), so it builds all of the API's indexes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createModels, type Models } from '../../api/src/models';
import { connectDatabase, type Database } from '../../api/src/platform/db';
import { compactEmbeddedMongo, REPO_ROOT, startEmbeddedMongo, type Child } from './processes';

/**
 * Where the benchmarks keep their databases and files: `.data/bench`, or `BENCH_DIR` (so two
 * people can run benchmarks on one machine without sharing a data directory). `BENCH_DATASET_DIR`
 * points at the dataset `bench:data` wrote (default `<BENCH_DIR>/db`); `bench:api` serves it as it
 * is, `bench:mixed` copies it first.
 */
export const BENCH_DIR = path.resolve(
  process.env.BENCH_DIR ?? path.join(REPO_ROOT, '.data', 'bench'),
);
/**
 * The dataset's scale (issue 42): `--scale N` on the command line (`npm run bench:api -- --scale
 * 10`), else `BENCH_SCALE`, else 1: 1 is the 100k-post dataset, 10 has 1M posts and 50k members.
 */
export const BENCH_SCALE = scaleOf(process.argv.slice(2), process.env.BENCH_SCALE);

export function scaleOf(argv: string[], fallback: string | undefined): number {
  const at = argv.findIndex((a) => a === '--scale' || a.startsWith('--scale='));
  const text = at < 0 ? fallback : argv[at]!.includes('=') ? argv[at]!.split('=')[1] : argv[at + 1];
  const scale = Number(text ?? 1);
  if (!Number.isFinite(scale) || scale <= 0)
    throw new Error(`--scale must be a positive number: ${text}`);
  return scale;
}

/** Where `bench:data` writes the dataset of a scale: `<BENCH_DIR>/db` at 1, `db-<N>x` else. */
export function datasetDirFor(scale: number): string {
  return path.join(BENCH_DIR, scale === 1 ? 'db' : `db-${scale}x`);
}

export const DATASET_DIR = path.resolve(
  process.env.BENCH_DATASET_DIR ?? datasetDirFor(BENCH_SCALE),
);

export interface LoadFigures {
  scale: number;
  generatedAt: string;
  documents: number;
  seconds: number;
  documentsPerSecond: number;
  restarts: number;
  /** insertMany batches in flight. */
  inFlight: number;
  mismatches: number;
  dataBytes: number;
  indexBytes: number;
  /** The embedded database's journal file (a snapshot), which a start keeps in memory. */
  journalBytes: number;
  residentBytes: number;
  residentRatio: number;
}

/** The load's figures, kept beside the dataset for `bench:scale` (scale.ts) to report. */
const FIGURES_FILE = 'bench-data.json';
export function saveLoadFigures(dir: string | undefined, figures: LoadFigures): void {
  if (dir) fs.writeFileSync(path.join(dir, FIGURES_FILE), `${JSON.stringify(figures, null, 2)}\n`);
}
export function readLoadFigures(dir: string): LoadFigures | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, FIGURES_FILE), 'utf8')) as LoadFigures;
  } catch {
    return undefined;
  }
}

const DB_NAME = 'campus';

export interface BenchDatabase {
  /** The URI the API connects to (with the database name). */
  uri: string;
  embedded: boolean;
  /** The embedded server's process id (its CPU is sampled per row); undefined with MONGODB_URI. */
  pid?: number;
  /** Connects, with the API's models bound to the connection. */
  connect(): Promise<Database<Models>>;
  /**
   * Embedded: stops the server, compacts its journal offline and starts it again on it, then connects
   * again. A started server holds the snapshot's documents as bytes of its image (outside V8's
   * heap) where the documents inserted since it started are objects: bench:data restarts it to
   * keep a 10x load within the machine's memory. With MONGODB_URI it only reconnects.
   */
  restart(): Promise<Database<Models>>;
  close(): Promise<void>;
}

/**
 * Like the API's connectDatabase, but patient: under a benchmark's load on a shared machine a
 * reply of the embedded server can take seconds, which must not look like a dead server to the
 * driver. (Its compactions no longer block it: they run in the background.)
 */
function connect(uri: string): Promise<Database<Models>> {
  return connectDatabase(uri, {
    models: createModels,
    driver: {
      serverSelectionTimeoutMS: 300_000,
      connectTimeoutMS: 300_000,
      socketTimeoutMS: 0,
      heartbeatFrequencyMS: 30_000,
    },
  });
}

export async function openBenchDatabase(options: {
  dir?: string;
  /** Start from an empty data directory (embedded) or drop the database (MONGODB_URI). */
  fresh?: boolean;
  /** Copy the dataset directory here first (embedded), so the run leaves the dataset untouched. */
  copyFrom?: string;
}): Promise<BenchDatabase> {
  const external = process.env.MONGODB_URI;
  let server: (Child & { uri: string }) | undefined;
  let uri: string;
  if (external) {
    uri = external;
  } else {
    const dir = options.dir ?? DATASET_DIR;
    if (options.fresh || options.copyFrom) fs.rmSync(dir, { recursive: true, force: true });
    if (options.copyFrom) {
      if (!fs.existsSync(path.join(options.copyFrom, 'journal.bson')))
        throw new Error(`No dataset in ${options.copyFrom}: run \`npm run bench:data\` first`);
      fs.cpSync(options.copyFrom, dir, { recursive: true });
    }
    fs.mkdirSync(dir, { recursive: true });
    server = await startEmbeddedMongo(dir);
    uri = `${server.uri}/${DB_NAME}`;
  }
  let database: Database<Models> | undefined;
  return {
    get uri() {
      return uri;
    },
    embedded: server !== undefined,
    get pid() {
      return server?.process.pid;
    },
    async restart() {
      if (server && database) {
        // Stopped first, then compacted offline with a whole core (see compactEmbeddedMongo).
        await database.close();
        await server.stop();
        await compactEmbeddedMongo(options.dir ?? DATASET_DIR);
        server = await startEmbeddedMongo(options.dir ?? DATASET_DIR);
        uri = `${server.uri}/${DB_NAME}`;
      } else {
        await database?.close();
      }
      database = await connect(uri);
      return database;
    },
    async connect() {
      database = await connect(uri);
      if (options.fresh && external) {
        await database.connection.dropDatabase();
        await database.close();
        database = await connect(uri);
      }
      return database;
    },
    async close() {
      await database?.close();
      await server?.stop();
    },
  };
}
