/**
 * Change streams from an in-memory oplog.
 *
 * The oplog hears every committed change from the engine (a transaction's only when it commits)
 * and keeps the latest `maxEntries` of them, each with its own cluster time. A resume token is
 * `{ _data: <hex> }` of that cluster time (seconds, increment) and a suffix (00 the event, 01 the
 * invalidate that follows a drop, ff a "high-water mark" between events), so tokens sort as their
 * events. A stream resumed from a point the oplog no longer holds (or from before the server
 * started: the oplog is not kept across restarts) fails with ChangeStreamHistoryLost (286).
 *
 * A tailing `getMore` with nothing to return waits, without polling, for the next oplog entry
 * or for its `maxTimeMS` (1 s by default, as mongod), then answers.
 */
import { checkCollation } from './collation';
import { Long, Timestamp } from 'bson';
import { Aggregator, Query } from './mingo';
import type { Engine, EngineChange, TxnInfo } from './engine';
import { type ClusterClock } from './cluster-time';
import { badValue, MongoServerError, serverError } from './errors';
import { guard } from './query';
import { isPlainObject, valueKey, type Doc } from './values';

type OpType = 'insert' | 'update' | 'replace' | 'delete' | 'drop' | 'dropDatabase';

interface OplogEntry {
  token: string;
  ts: Timestamp;
  wall: Date;
  op: OpType;
  db: string;
  coll?: string;
  id?: unknown;
  doc?: Doc;
  /** An update's two versions; its updateDescription is worked out only if a stream reads it. */
  versions?: [Doc, Doc];
  txn?: TxnInfo;
}

const hex8 = (n: number) => n.toString(16).padStart(8, '0');
const tokenOf = (ts: Timestamp, suffix: string) => hex8(ts.t) + hex8(ts.i) + suffix;
const INTERNAL_DBS = new Set(['admin', 'config', 'local']);

export class Oplog {
  readonly entries: OplogEntry[] = [];
  /** Whether entries were dropped from the front (a resume before them is impossible). */
  private truncated = false;
  private readonly started: string;
  private waiters = new Set<() => void>();
  /** Set while a replacement-style update runs, so its change is reported as a replace. */
  replacing = false;

  constructor(
    engine: Engine,
    private readonly clock: ClusterClock,
    private readonly maxEntries = 10_000,
  ) {
    this.started = tokenOf(clock.last, '00');
    engine.observers.push((change, txn) => this.record(change, txn));
  }

  private record(change: EngineChange, txn?: TxnInfo): void {
    const wall = new Date();
    const add = (e: Omit<OplogEntry, 'token' | 'ts' | 'wall'>) => {
      const ts = this.clock.tick();
      this.entries.push({ ...e, ts, wall, token: tokenOf(ts, '00') });
    };
    switch (change.op) {
      case 'drop':
        add({ op: 'drop', db: change.db, coll: change.coll });
        break;
      case 'dropDatabase':
        for (const coll of change.colls) add({ op: 'drop', db: change.db, coll });
        add({ op: 'dropDatabase', db: change.db });
        break;
      default: {
        const { coll } = change;
        const ns = { db: coll.db, coll: coll.name, txn };
        if (coll.name.startsWith('system.')) return;
        if (change.op === 'insert')
          add({ ...ns, op: 'insert', id: change.after?._id, doc: change.after });
        else if (change.op === 'remove') add({ ...ns, op: 'delete', id: change.before?._id });
        else if (this.replacing)
          add({ ...ns, op: 'replace', id: change.after?._id, doc: change.after });
        else
          add({
            ...ns,
            op: 'update',
            id: change.after?._id,
            versions: [change.before as Doc, change.after as Doc],
          });
      }
    }
    // Dropped in slices of a tenth (not one shift, which moves the whole array, per change):
    // the oplog holds between maxEntries and 1.1 times as many.
    if (this.entries.length > this.maxEntries + Math.ceil(this.maxEntries / 10)) {
      this.entries.splice(0, this.entries.length - this.maxEntries);
      this.truncated = true;
    }
    if (this.waiters.size === 0) return;
    const waiting = this.waiters;
    this.waiters = new Set();
    for (const w of waiting) w();
  }

  /** Resolves at the next entry or after `ms`, whichever comes first. */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      timer.unref();
      this.waiters.add(done);
    });
  }

  /** Wakes every waiting getMore (the server is stopping). */
  close(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Throws when events after `token` may be missing from the oplog. */
  checkAvailable(token: string): void {
    const first = this.entries[0];
    if (token < this.started || (this.truncated && first && token < first.token))
      throw serverError(
        'ChangeStreamHistoryLost',
        'Resume of change stream was not possible, as the resume point may no longer be in the oplog.',
      );
  }

  /** A token for "everything up to now", for an idle stream's postBatchResumeToken. */
  highWaterMark(): string {
    return tokenOf(this.clock.last, 'ff');
  }
}

/** Fields set and removed between two versions (nested documents by dotted path, as mongod). */
export function describeUpdate(before: Doc, after: Doc): Doc {
  const updatedFields: Doc = {};
  const removedFields: string[] = [];
  const walk = (a: Doc, b: Doc, prefix: string) => {
    for (const [k, v] of Object.entries(b)) {
      const old = a[k];
      if (old !== undefined && valueKey(old) === valueKey(v)) continue;
      if (isPlainObject(old) && isPlainObject(v) && Object.keys(v).length > 0)
        walk(old, v, `${prefix}${k}.`);
      else updatedFields[prefix + k] = v;
    }
    for (const k of Object.keys(a)) if (!(k in b)) removedFields.push(prefix + k);
  };
  walk(before, after, '');
  return { updatedFields, removedFields, truncatedArrays: [] };
}

interface StreamCursor {
  id: number;
  ns: string;
  db: string;
  coll?: string;
  /** Whether the stream watches every database (`allChangesForCluster`). */
  cluster: boolean;
  fullDocument: string;
  /** Stages after `$changeStream`, applied to every event. */
  stages: Doc[];
  /** When those stages are a single `$match`: its filter, compiled at the first event. */
  match?: Query;
  /** The cursor reads the entries whose token is at least this. */
  nextToken: string;
  /** Whether the invalidate after the entry before nextToken is still to be delivered. */
  pendingInvalidate?: OplogEntry;
  resumeToken: string;
  closed: boolean;
}

const DEFAULT_FIRST_BATCH = 101;

export class ChangeStreams {
  private readonly cursors = new Map<number, StreamCursor>();

  constructor(
    private readonly engine: Engine,
    private readonly oplog: Oplog,
  ) {}

  /** Whether the aggregate command opens a change stream. */
  static isChangeStream(cmd: Doc): boolean {
    const first = Array.isArray(cmd.pipeline) ? (cmd.pipeline[0] as unknown) : undefined;
    return isPlainObject(first) && '$changeStream' in first;
  }

  has(id: number): boolean {
    return this.cursors.has(id);
  }

  kill(id: number): boolean {
    const c = this.cursors.get(id);
    if (c) c.closed = true;
    return this.cursors.delete(id);
  }

  open(cmd: Doc, db: string, nextCursorId: () => number): Doc {
    const stages = cmd.pipeline as Doc[];
    const spec = (stages[0] as Doc).$changeStream;
    if (!isPlainObject(spec)) throw badValue('$changeStream stage must be an object');
    // Its later stages compare binary: a collation asked of a change stream is refused.
    if (checkCollation(cmd.collation))
      throw badValue('a change stream with a collation is not supported by this server');
    for (const s of stages.slice(1))
      if (isPlainObject(s) && '$changeStream' in s)
        throw serverError('Location40352', '$changeStream is only valid as the first stage');
    const cluster = spec.allChangesForCluster === true;
    if (cluster && db !== 'admin')
      throw badValue('allChangesForCluster is only valid on the admin database');
    const collLevel = cmd.aggregate !== 1;
    if (!collLevel && !cluster && db === 'admin')
      throw badValue('$changeStream on the admin database needs allChangesForCluster: true');
    const fullDocument = typeof spec.fullDocument === 'string' ? spec.fullDocument : 'default';
    if (!['default', 'updateLookup'].includes(fullDocument))
      throw badValue(`fullDocument: '${fullDocument}' (pre/post images) is not supported`);
    if (spec.fullDocumentBeforeChange !== undefined && spec.fullDocumentBeforeChange !== 'off')
      throw badValue('fullDocumentBeforeChange (pre-images) is not supported');
    const starts = ['resumeAfter', 'startAfter', 'startAtOperationTime'].filter(
      (k) => spec[k] !== undefined,
    );
    if (starts.length > 1)
      throw badValue(`Only one of ${starts.join(', ')} may be given to $changeStream`);
    const coll = collLevel ? String(cmd.aggregate) : undefined;
    let nextToken = this.oplog.highWaterMark();
    let resumeToken = nextToken;
    let pendingInvalidate: OplogEntry | undefined;
    const resumeFrom = (spec.resumeAfter ?? spec.startAfter) as unknown;
    if (resumeFrom !== undefined) {
      const data = isPlainObject(resumeFrom) ? resumeFrom._data : undefined;
      if (typeof data !== 'string' || !/^[0-9a-f]{18}$/.test(data))
        throw serverError('InvalidResumeToken', 'Invalid resume token');
      if (data.endsWith('01') && spec.resumeAfter !== undefined)
        throw serverError(
          'InvalidResumeToken',
          'Cannot resume after an invalidate event; use startAfter instead',
        );
      this.oplog.checkAvailable(data);
      // The first entry after the token: '~' sorts after every hex digit.
      resumeToken = data;
      nextToken = data + '~';
      if (data.endsWith('00')) {
        const entry = this.oplog.entries[lowerBound(this.oplog.entries, data)];
        if (entry?.token === data && invalidates(entry, db, coll, cluster))
          pendingInvalidate = entry; // resuming after the drop itself: its invalidate comes next
      }
    } else if (spec.startAtOperationTime !== undefined) {
      const ts = spec.startAtOperationTime;
      if (!(ts instanceof Timestamp)) throw badValue('startAtOperationTime must be a timestamp');
      nextToken = tokenOf(ts, '00');
      this.oplog.checkAvailable(nextToken);
    }
    // Unknown or invalid later stages fail now, as mongod parses the pipeline when it opens it.
    try {
      guard(() => new Aggregator(stages.slice(1)).run([]));
    } catch (e) {
      if (e instanceof Error && /unregistered pipeline operator/i.test(e.message))
        throw new MongoServerError(
          40324,
          'Location40324',
          `Unrecognized pipeline stage name: ${e.message}`,
        );
      throw e;
    }
    const cursor: StreamCursor = {
      id: nextCursorId(),
      ns: coll ? `${db}.${coll}` : `${db}.$cmd.aggregate`,
      db,
      coll,
      cluster,
      fullDocument,
      stages: stages.slice(1),
      nextToken,
      pendingInvalidate,
      resumeToken,
      closed: false,
    };
    const batchSize =
      isPlainObject(cmd.cursor) && cmd.cursor.batchSize !== undefined
        ? Number(cmd.cursor.batchSize)
        : DEFAULT_FIRST_BATCH;
    const batch = this.collect(cursor, batchSize);
    this.cursors.set(cursor.id, cursor);
    return this.reply(cursor, batch, 'firstBatch');
  }

  /** A getMore: the events available now, or a wait for them (at most maxTimeMS). */
  getMore(cmd: Doc): Doc | Promise<Doc> {
    const id = Number(cmd.getMore);
    const cursor = this.cursors.get(id) as StreamCursor;
    const batchSize = cmd.batchSize !== undefined ? Number(cmd.batchSize) : Infinity;
    const first = this.collect(cursor, batchSize);
    if (first.length || cursor.closed) return this.reply(cursor, first, 'nextBatch');
    const maxTime = cmd.maxTimeMS !== undefined ? Number(cmd.maxTimeMS) : 1000;
    const deadline = Date.now() + maxTime;
    const waitLoop = async (): Promise<Doc> => {
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0 || cursor.closed) return this.reply(cursor, [], 'nextBatch');
        await this.oplog.wait(left);
        if (cursor.closed) return this.reply(cursor, [], 'nextBatch');
        const batch = this.collect(cursor, batchSize);
        if (batch.length) return this.reply(cursor, batch, 'nextBatch');
      }
    };
    return waitLoop().catch((e: unknown) => errorDoc(e));
  }

  private reply(cursor: StreamCursor, batch: Doc[], key: 'firstBatch' | 'nextBatch'): Doc {
    if (cursor.closed) this.cursors.delete(cursor.id);
    return {
      cursor: {
        [key]: batch,
        postBatchResumeToken: { _data: cursor.resumeToken },
        id: Long.fromNumber(cursor.closed ? 0 : cursor.id),
        ns: cursor.ns,
      },
      ok: 1,
    };
  }

  /** Reads the events after the cursor's position, through its later stages. */
  private collect(cursor: StreamCursor, max: number): Doc[] {
    const out: Doc[] = [];
    const entries = this.oplog.entries;
    if (cursor.pendingInvalidate) {
      const inv = invalidateEvent(cursor.pendingInvalidate);
      out.push(...this.through(cursor, inv));
      cursor.pendingInvalidate = undefined;
      cursor.resumeToken = (inv._id as Doc)._data as string;
      cursor.closed = true;
      return out;
    }
    // Entries are ordered by token; find where this cursor stands.
    let i = lowerBound(entries, cursor.nextToken);
    while (i < entries.length && out.length < max) {
      const e = entries[i] as OplogEntry;
      i++;
      cursor.nextToken = e.token + '~';
      cursor.resumeToken = e.token;
      if (!this.visible(cursor, e)) continue;
      out.push(...this.through(cursor, this.event(cursor, e)));
      if (invalidates(e, cursor.db, cursor.coll, cursor.cluster)) {
        const inv = invalidateEvent(e);
        if (out.length < max) {
          out.push(...this.through(cursor, inv));
          cursor.resumeToken = (inv._id as Doc)._data as string;
          cursor.closed = true;
        } else cursor.pendingInvalidate = e;
        break;
      }
    }
    if (i >= entries.length && !cursor.pendingInvalidate && !cursor.closed)
      cursor.resumeToken = this.oplog.highWaterMark();
    return out;
  }

  private visible(cursor: StreamCursor, e: OplogEntry): boolean {
    if (cursor.cluster) return !INTERNAL_DBS.has(e.db);
    if (e.db !== cursor.db) return false;
    if (cursor.coll === undefined) return true;
    return e.coll === cursor.coll && e.op !== 'dropDatabase';
  }

  private event(cursor: StreamCursor, e: OplogEntry): Doc {
    const ev: Doc = {
      _id: { _data: e.token },
      operationType: e.op,
      clusterTime: e.ts,
      wallTime: e.wall,
    };
    if (e.doc) ev.fullDocument = e.doc;
    else if (e.op === 'update' && cursor.fullDocument === 'updateLookup')
      ev.fullDocument =
        this.engine.collection(e.db, e.coll as string)?.docs.get(valueKey(e.id)) ?? null;
    ev.ns = e.coll === undefined ? { db: e.db } : { db: e.db, coll: e.coll };
    if (e.id !== undefined) ev.documentKey = { _id: e.id };
    if (e.versions) ev.updateDescription = describeUpdate(...e.versions);
    if (e.txn) {
      ev.lsid = e.txn.lsid;
      ev.txnNumber = Long.fromNumber(Number(e.txn.txnNumber));
    }
    return ev;
  }

  private through(cursor: StreamCursor, ev: Doc): Doc[] {
    if (cursor.stages.length === 0) return [ev];
    // A pipeline of one $match (what most watchers send) is a filter compiled once per cursor.
    const only = cursor.stages.length === 1 ? cursor.stages[0] : undefined;
    if (isPlainObject(only) && Object.keys(only).length === 1 && isPlainObject(only.$match)) {
      const match = only.$match;
      cursor.match ??= guard(() => new Query(match));
      const query = cursor.match;
      return guard(() => query.test(ev)) ? [ev] : [];
    }
    const out = guard(
      () => new Aggregator(cursor.stages, { processingMode: 1 }).run([ev]) as Doc[],
    );
    for (const d of out)
      if (!isPlainObject(d._id) || valueKey(d._id) !== valueKey(ev._id))
        throw serverError(
          'ChangeStreamFatalError',
          'Encountered an event whose _id field, which contains the resume token, was modified by the pipeline. Modifying the _id field of an event makes it impossible to resume the stream from that point.',
          { errorLabels: ['NonResumableChangeStreamError'] },
        );
    return out;
  }
}

/** Whether the entry ends a stream of this scope (after it comes an invalidate event). */
function invalidates(
  e: OplogEntry,
  db: string,
  coll: string | undefined,
  cluster: boolean,
): boolean {
  if (cluster || e.db !== db) return false;
  if (coll !== undefined) return e.op === 'drop' && e.coll === coll;
  return e.op === 'dropDatabase';
}

function invalidateEvent(e: OplogEntry): Doc {
  return {
    _id: { _data: e.token.slice(0, 16) + '01' },
    operationType: 'invalidate',
    clusterTime: e.ts,
    wallTime: e.wall,
  };
}

function lowerBound(entries: OplogEntry[], token: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((entries[mid] as OplogEntry).token < token) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function errorDoc(e: unknown): Doc {
  if (e instanceof MongoServerError)
    return { ok: 0, errmsg: e.message, code: e.code, codeName: e.codeName, ...e.extra };
  return { ok: 0, errmsg: String(e), code: 1, codeName: 'InternalError' };
}
