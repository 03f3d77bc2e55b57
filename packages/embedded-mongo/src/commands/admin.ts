/**
 * Server and storage statistics and server parameters, as mongod 7.0 answers them:
 * `serverStatus`, `dbStats`, `collStats` (and the `$collStats` stage's document), `getParameter`
 * and `setParameter`. Monitoring tools and drivers' helpers read these (mongoose's test helper
 * reads the server version from `serverStatus`).
 *
 * Sizes: `size` / `dataSize` is the BSON size of the documents (mongod's uncompressed data size),
 * read from the stored bytes where a document is still held as bytes of the journal's snapshot;
 * `storageSize` is the same figure (this server keeps no compressed data files); index sizes are
 * estimated as the index's entry count times the average BSON size of its keys (a sample of at
 * most 100). Each call computes them afresh, in time linear in the collection's documents.
 */
import fs from 'node:fs';
import os from 'node:os';
import { calculateObjectSize } from 'bson';
import type { Collection, Index } from '../collection';
import type { Engine } from '../engine';
import { badValue, serverError } from '../errors';
import { isPlainObject, type Doc } from '../values';
import { collName, type CommandContext, type Handler } from './context';
import { SERVER_VERSION } from './handshake';
import { isView } from './views';

/** mongod's opcounters: documents inserted, finds, update / delete statements, getMores, others. */
export interface Opcounters {
  insert: number;
  query: number;
  update: number;
  delete: number;
  getmore: number;
  command: number;
}

/** What the running server knows about itself (shared by every connection's context). */
export class ServerState {
  readonly startedAt = Date.now();
  readonly opcounters: Opcounters = {
    insert: 0,
    query: 0,
    update: 0,
    delete: 0,
    getmore: 0,
    command: 0,
  };
  readonly connections = { current: 0, totalCreated: 0 };
  /** Server parameters settable at run time (see PARAMETERS). */
  readonly parameters: Map<string, unknown>;

  constructor(
    /** `host:port` the server listens on (serverStatus `host`, mongod's hostname[:port]). */
    public address: () => string,
    /** serverStatus `repl`: the replica set as `hello` describes it. */
    readonly repl: () => Doc,
    /** Applies a parameter that changes how the server runs (TTL monitor, cursor timeout...). */
    private readonly apply: (name: string, value: unknown) => void = () => {},
    initial: Record<string, unknown> = {},
  ) {
    this.parameters = new Map(
      Object.entries(PARAMETERS).map(([name, p]) => [name, initial[name] ?? p.default]),
    );
  }

  /** Counts one command in `opcounters`, as mongod does. */
  count(name: string, body: Doc): void {
    const c = this.opcounters;
    switch (name) {
      case 'insert':
        c.insert += Array.isArray(body.documents) ? body.documents.length : 1;
        return;
      case 'update':
        c.update += Array.isArray(body.updates) ? body.updates.length : 1;
        return;
      case 'delete':
        c.delete += Array.isArray(body.deletes) ? body.deletes.length : 1;
        return;
      case 'find':
        c.query++;
        return;
      case 'getMore':
        c.getmore++;
        return;
      default:
        c.command++;
    }
  }

  set(name: string, value: unknown): void {
    this.parameters.set(name, value);
    this.apply(name, value);
  }
}

interface Parameter {
  default: unknown;
  /** Checks and converts a new value; undefined when it cannot be set at run time. */
  parse?: (value: unknown, name: string) => unknown;
}

function positiveInt(value: unknown, name: string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw badValue(`Invalid value for parameter ${name}: ${String(value)} is not greater than 0`);
  return n;
}

function bool(value: unknown, name: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  throw serverError(
    'TypeMismatch',
    `Invalid value for parameter ${name}: expected a boolean, got ${String(value)}`,
  );
}

/**
 * The parameters this server knows: each one it accepts at run time really changes what it does
 * (or, for `logLevel`, is kept and reported: the server writes no log to make more verbose).
 * Any other name gets mongod's InvalidOptions error.
 */
const PARAMETERS: Record<string, Parameter> = {
  featureCompatibilityVersion: { default: { version: '7.0' } },
  enableTestCommands: { default: false },
  ttlMonitorEnabled: { default: true, parse: bool },
  ttlMonitorSleepSecs: { default: 60, parse: positiveInt },
  cursorTimeoutMillis: { default: 600_000, parse: positiveInt },
  transactionLifetimeLimitSeconds: { default: 60 },
  logLevel: {
    default: 0,
    parse: (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) throw badValue(`Invalid value for logLevel: ${String(v)}`);
      return n;
    },
  },
};

/** Fields every command may carry that are not its own arguments. */
const GENERIC = new Set([
  '$db',
  'lsid',
  '$clusterTime',
  '$readPreference',
  'readConcern',
  'writeConcern',
  'comment',
  'maxTimeMS',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'txnNumber',
  'autocommit',
  'startTransaction',
]);

function adminOnly(name: string, db: string): void {
  if (db !== 'admin')
    throw serverError('Unauthorized', `${name} may only be run against the admin database.`);
}

function state(ctx: CommandContext): ServerState {
  if (!ctx.server) throw serverError('CommandNotFound', 'no server state in this context');
  return ctx.server;
}

export const getParameter: Handler = (cmd, db, ctx) => {
  adminOnly('getParameter', db);
  const params = state(ctx).parameters;
  const arg = cmd.getParameter;
  const all = arg === '*' || (isPlainObject(arg) && arg.allParameters === true);
  const details = isPlainObject(arg) && arg.showDetails === true;
  const reply: Doc = {};
  for (const [name, value] of params) {
    if (!all && !Object.hasOwn(cmd, name)) continue;
    reply[name] = details
      ? {
          value,
          settableAtRuntime: PARAMETERS[name]?.parse !== undefined,
          settableAtStartup: true,
        }
      : value;
  }
  if (Object.keys(reply).length === 0)
    throw serverError('InvalidOptions', 'no option found to get');
  reply.ok = 1;
  return reply;
};

export const setParameter: Handler = (cmd, db, ctx) => {
  adminOnly('setParameter', db);
  const server = state(ctx);
  const changes: Array<[string, unknown]> = [];
  for (const [name, raw] of Object.entries(cmd)) {
    if (name === 'setParameter' || GENERIC.has(name)) continue;
    const p = PARAMETERS[name];
    if (!p)
      throw serverError(
        'InvalidOptions',
        `attempted to set unrecognized parameter [${name}], use help:true to see options `,
      );
    if (!p.parse)
      throw serverError('IllegalOperation', `not allowed to change [${name}] at runtime`);
    changes.push([name, p.parse(raw, name)]);
  }
  if (changes.length === 0)
    throw serverError('InvalidOptions', 'no option found to set, use help:true to see options ');
  const was = server.parameters.get((changes[0] as [string, unknown])[0]);
  for (const [name, value] of changes) server.set(name, value);
  return { was, ok: 1 };
};

const MB = 1024 * 1024;

/** The process's virtual memory size in bytes (Linux), else its resident size. */
function virtualBytes(): number {
  try {
    const m = /VmSize:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux
  }
  return process.memoryUsage().rss;
}

/** mongod's `connections.available`: its limit (80 % of the open-files limit) minus the open ones. */
function connectionLimit(): number {
  try {
    const m = /Max open files\s+(\d+)/.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    if (m) return Math.min(1_000_000, Math.floor(Number(m[1]) * 0.8));
  } catch {
    // not Linux: mongod's own default maximum
  }
  return 1_000_000;
}

export const serverStatus: Handler = (_cmd, _db, ctx) => {
  const s = state(ctx);
  const now = Date.now();
  const uptimeMillis = now - s.startedAt;
  return {
    host: s.address(),
    version: SERVER_VERSION,
    process: 'mongod',
    pid: process.pid,
    uptime: Math.floor(uptimeMillis / 1000),
    uptimeMillis,
    uptimeEstimate: Math.floor(uptimeMillis / 1000),
    localTime: new Date(now),
    connections: {
      current: s.connections.current,
      available: Math.max(0, connectionLimit() - s.connections.current),
      totalCreated: s.connections.totalCreated,
    },
    mem: {
      bits: 64,
      resident: Math.round(process.memoryUsage().rss / MB),
      virtual: Math.round(virtualBytes() / MB),
      supported: true,
    },
    opcounters: { ...s.opcounters },
    opcountersRepl: { insert: 0, query: 0, update: 0, delete: 0, getmore: 0, command: 0 },
    repl: s.repl(),
    storageEngine: {
      name: 'embedded',
      supportsCommittedReads: true,
      persistent: ctx.engine.dataPath !== undefined,
    },
    ok: 1,
  };
};

/** A positive `scale` (dbStats, collStats), as mongod checks it. */
function scaleOf(v: unknown, strict: '>= 1' | '> 0'): number {
  if (v === undefined || v === null || v === false) return 1;
  if (typeof v !== 'number' && typeof v !== 'bigint')
    throw badValue(`scale has to be a number ${strict}`);
  const n = Math.trunc(Number(v));
  if (n < 1) throw badValue(`scale has to be ${strict}`);
  return n;
}

export interface StorageFigures {
  count: number;
  size: number;
  indexSizes: Record<string, number>;
}

/** Average BSON size of a sample of an index's keys, times its entry count. */
function indexBytes(ix: Index, docs: number): number {
  let entries = 0;
  let sampled = 0;
  let sampleBytes = 0;
  const counted = ix.complete && !ix.multikey;
  for (const key of ix.keys()) {
    if (sampled < 100) {
      const k: Doc = {};
      for (let i = 0; i < ix.fields.length; i++) k[String(i)] = key[i];
      // The key's values plus the record id an index entry carries.
      sampleBytes += calculateObjectSize(k) + 8;
      sampled++;
    }
    entries++;
    if (counted && sampled >= 100) {
      entries = docs;
      break;
    }
  }
  return sampled === 0 ? 0 : Math.round((sampleBytes / sampled) * entries);
}

/** Document count, BSON data size and index sizes of a collection (see the module comment). */
export function storageFigures(coll: Collection): StorageFigures {
  let size = 0;
  let count = 0;
  for (const key of coll.docs.keys()) {
    const raw = coll.docs.rawBytes(key);
    const doc = raw ? undefined : coll.docs.get(key);
    size += raw ? raw.byteLength : doc ? calculateObjectSize(doc) : 0;
    count++;
  }
  const indexSizes: Record<string, number> = {};
  for (const ix of coll.indexes) indexSizes[ix.name] = indexBytes(ix, count);
  return { count, size, indexSizes };
}

/** collStats' figures (also the `storageStats` of a `$collStats` stage). */
export function collStatsOf(engine: Engine, db: string, name: string, scale: number): Doc {
  const coll = engine.collection(db, name);
  if (!coll) throw serverError('NamespaceNotFound', `Collection [${db}.${name}] not found.`);
  if (isView(coll))
    throw serverError(
      'CommandNotSupportedOnView',
      `Namespace ${db}.${name} is a view, not a collection`,
    );
  const f = storageFigures(coll);
  const totalIndexSize = Object.values(f.indexSizes).reduce((a, b) => a + b, 0);
  const scaled: Record<string, number> = {};
  for (const [k, v] of Object.entries(f.indexSizes)) scaled[k] = Math.floor(v / scale);
  return {
    ns: `${db}.${name}`,
    size: Math.floor(f.size / scale),
    count: f.count,
    avgObjSize: f.count ? Math.floor(f.size / f.count) : 0,
    numOrphanDocs: 0,
    storageSize: Math.floor(f.size / scale),
    freeStorageSize: 0,
    capped: false,
    nindexes: coll.indexes.length,
    indexDetails: {},
    indexBuilds: [],
    totalIndexSize: Math.floor(totalIndexSize / scale),
    totalSize: Math.floor((f.size + totalIndexSize) / scale),
    indexSizes: scaled,
    scaleFactor: scale,
  };
}

export const collStats: Handler = (cmd, db, { engine }) => {
  const name = collName(cmd, 'collStats');
  return { ...collStatsOf(engine, db, name, scaleOf(cmd.scale, '>= 1')), ok: 1 };
};

export const dbStats: Handler = (cmd, db, { engine }) => {
  const scale = scaleOf(cmd.scale, '> 0');
  let collections = 0;
  let views = 0;
  let objects = 0;
  let dataSize = 0;
  let indexes = 0;
  let indexSize = 0;
  for (const coll of engine.dbs.get(db)?.values() ?? []) {
    if (isView(coll)) {
      views++;
      continue;
    }
    collections++;
    const f = storageFigures(coll);
    objects += f.count;
    dataSize += f.size;
    indexes += coll.indexes.length;
    for (const v of Object.values(f.indexSizes)) indexSize += v;
  }
  let fsUsedSize = 0;
  let fsTotalSize = 0;
  try {
    const st = fs.statfsSync(engine.dataPath ?? os.tmpdir());
    fsTotalSize = st.blocks * st.bsize;
    fsUsedSize = (st.blocks - st.bfree) * st.bsize;
  } catch {
    // no file system figures
  }
  return {
    db,
    collections,
    views,
    objects,
    avgObjSize: objects ? dataSize / objects : 0,
    dataSize: Math.floor(dataSize / scale),
    storageSize: Math.floor(dataSize / scale),
    indexes,
    indexSize: Math.floor(indexSize / scale),
    totalSize: Math.floor((dataSize + indexSize) / scale),
    scaleFactor: scale,
    fsUsedSize: Math.floor(fsUsedSize / scale),
    fsTotalSize: Math.floor(fsTotalSize / scale),
    ok: 1,
  };
};
