/**
 * Logical sessions: retryable writes and multi-document transactions.
 *
 * Retryable writes: a session remembers the reply of its latest write (`lsid` + `txnNumber`);
 * the same statement sent again gets that reply and is not applied twice.
 *
 * Transactions, with snapshot isolation, built on the fact that every command runs to completion
 * on one thread:
 * - Snapshot: when a transaction starts, later committed changes by anyone else record, in that
 *   transaction, the version of each document they change as it was at the snapshot (copy on
 *   write, per document; `null` when the document did not exist yet).
 * - A statement runs on the live collections with the transaction's view swapped in (the snapshot
 *   versions, then its own writes), its document changes diverted from the journal and the change
 *   streams into the transaction, then everything is put back before the reply. Nobody else can
 *   see the swapped state: nothing else runs until the statement is done.
 * - Write conflicts (code 112, label `TransientTransactionError`, which makes the driver's
 *   `withTransaction` retry): writing a document that someone else changed after the snapshot, or
 *   that another open transaction has written. A write outside any transaction never waits: it
 *   goes ahead, and the transaction that holds the document fails at its next write of it or at
 *   commit.
 * - Commit applies the writes as one journal record (engine.applyTransaction): all or nothing,
 *   also across a kill -9; the change events follow only then.
 *
 * Snapshot reads outside transactions (`readConcern: { level: 'snapshot' }`, what the driver's
 * `startSession({ snapshot: true })` sends; `embedded-mongo dump` reads every collection so) use
 * the same copy on write: the first read picks the cluster time of the latest change and opens a
 * read-only view there (a "point"); reads with `atClusterTime` at that time run against it. A
 * point lasts while it is read at least every 5 minutes (mongod keeps 5 minutes of history,
 * `minSnapshotHistoryWindowInSeconds`), until its sessions end, or until a collection is dropped.
 */
import { Timestamp } from 'bson';
import type { ClusterClock } from './cluster-time';
import type { Collection } from './collection';
import { undoChange, type DocChange, type Engine, type EngineChange } from './engine';
import { badValue, MongoServerError, serverError } from './errors';
import { isPlainObject, valueKey, type Doc } from './values';
import { isView } from './commands/views';
import { RAW_DOCUMENTS } from './wire';
import { commandStats } from './command-stats';

const TRANSIENT = ['TransientTransactionError'];
const MAX_SESSIONS = 10_000;
/** Commands a transaction may run (mongod refuses the others with code 263). */
const ALLOWED_IN_TRANSACTION = new Set([
  'find',
  'getMore',
  'killCursors',
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
  'aggregate',
  'distinct',
  'create',
  'createIndexes',
  'bulkWrite',
]);

/** Statements that read and write only the collection they name (see Transactions.scope). */
const READS = new Set(['find', 'count', 'distinct']);
const SINGLE_NAMESPACE = new Set([
  ...READS,
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
]);

/** Commands that read at a point in time outside transactions, as in mongod. */
const SNAPSHOT_READS = new Set(['find', 'aggregate', 'distinct']);
/** How long a snapshot point is kept without a read at it (mongod's 300 s of history). */
const SNAPSHOT_IDLE_MS = 5 * 60_000;

interface Write {
  coll: Collection;
  id: unknown;
  /** The document's version after the transaction; undefined when it deletes it. */
  after?: Doc;
}

interface NsState<T> {
  coll: Collection;
  docs: Map<string, T>;
}

class Transaction {
  state: 'inProgress' | 'committed' | 'aborted' = 'inProgress';
  readonly startedAt = Date.now();
  /** Documents others changed after the snapshot: their version at the snapshot (null: absent). */
  readonly snapshot = new Map<string, NsState<Doc | null>>();
  readonly writes = new Map<string, NsState<Write>>();

  constructor(
    readonly lsid: Doc,
    readonly txnNumber: number,
  ) {}

  holds(ns: string, key: string, coll?: Collection): boolean {
    const s = this.writes.get(ns);
    return s !== undefined && (coll === undefined || s.coll === coll) && s.docs.has(key);
  }
}

interface Session {
  lsid: Doc;
  /** The highest transaction number the session has used. */
  txnNumber: number;
  txn?: Transaction;
  /** The reply of the session's latest retryable write. */
  retried?: { txnNumber: number; reply: Doc };
}

export type Execute = (cmd: Doc) => Doc;

/** A point in time snapshot reads read at (see the module comment). */
interface SnapshotPoint {
  at: Timestamp;
  /** Read-only: what others changed since `at` (its writes stay empty). */
  view: Transaction;
  lastRead: number;
  /** The sessions that read at it (their lsid keys); it ends when they all have. */
  sessions: Set<string>;
}

export class Transactions {
  private readonly sessions = new Map<string, Session>();
  private readonly open = new Set<Transaction>();
  /** Snapshot points by cluster time (`pointKey`). Their views are in `open` too. */
  private readonly points = new Map<string, SnapshotPoint>();

  constructor(
    private readonly engine: Engine,
    /** Transactions open longer than this are aborted (mongod's transactionLifetimeLimitSeconds). */
    private readonly lifetimeMs = 60_000,
    /** The replica set's clock: snapshot reads read at its times (none: no snapshot reads). */
    private readonly clock?: ClusterClock,
    /** A snapshot point not read at for this long is forgotten. */
    private readonly snapshotIdleMs = SNAPSHOT_IDLE_MS,
  ) {
    engine.observers.push((change) => this.remember(change));
  }

  /** Copy on write: open transactions keep the version a committed change replaces. */
  private remember(change: EngineChange): void {
    if (this.open.size === 0) return;
    if (this.points.size) this.forgetIdlePoints();
    if (change.op === 'drop' || change.op === 'dropDatabase') {
      // A point's view would read the dropped collection as missing or empty: no longer there.
      for (const key of [...this.points.keys()]) this.endPoint(key);
      // The documents a transaction read or wrote are gone: it cannot commit (mongod would
      // have made the drop wait for it; here the drop wins).
      const gone = (ns: string) =>
        change.op === 'drop'
          ? ns === `${change.db}.${change.coll}`
          : ns.startsWith(`${change.db}.`);
      for (const t of [...this.open])
        if ([...t.writes.keys(), ...t.snapshot.keys()].some(gone)) this.end(t, 'aborted');
      return;
    }
    const key = valueKey(((change.after ?? change.before) as Doc)._id);
    for (const t of this.open) {
      let ns = t.snapshot.get(change.coll.ns);
      if (!ns) t.snapshot.set(change.coll.ns, (ns = { coll: change.coll, docs: new Map() }));
      if (!ns.docs.has(key)) ns.docs.set(key, change.before ?? null);
    }
  }

  private session(lsid: Doc): Session {
    const key = valueKey(lsid.id);
    let s = this.sessions.get(key);
    if (s) this.sessions.delete(key);
    else s = { lsid, txnNumber: -1 };
    this.sessions.set(key, s); // most recently used last
    if (this.sessions.size > MAX_SESSIONS) {
      const [oldestKey, oldest] = this.sessions.entries().next().value as [string, Session];
      if (oldest.txn) this.end(oldest.txn, 'aborted');
      this.sessions.delete(oldestKey);
    }
    return s;
  }

  private end(t: Transaction, state: 'committed' | 'aborted'): void {
    t.state = state;
    this.open.delete(t);
    // The session keeps the ended transaction (to answer a retried commit), not its documents.
    t.snapshot.clear();
    t.writes.clear();
  }

  private expired(t: Transaction): boolean {
    return t.state === 'inProgress' && Date.now() - t.startedAt > this.lifetimeMs;
  }

  /** Forgets sessions the client ended, aborting their open transactions. */
  endSessions(ids: unknown[]): void {
    for (const lsid of ids) {
      if (!isPlainObject(lsid)) continue;
      const key = valueKey(lsid.id);
      const s = this.sessions.get(key);
      if (s?.txn?.state === 'inProgress') this.end(s.txn, 'aborted');
      this.sessions.delete(key);
      for (const [pointKey, p] of [...this.points])
        if (p.sessions.delete(key) && p.sessions.size === 0) this.endPoint(pointKey);
    }
  }

  /**
   * A command with `readConcern: { level: 'snapshot' }` outside a transaction. find, aggregate
   * and distinct read at the point `atClusterTime` names (without it: at the latest change, a
   * new point) and answer with `atClusterTime`, as mongod does (on the cursor, or at the top for
   * distinct), so that the driver's snapshot session sends it with its next reads. A getMore or
   * killCursors (the driver sends the read concern with them too) only keeps the point alive:
   * a cursor holds its results already. Other commands are refused, as mongod refuses them.
   */
  snapshotRead(body: Doc, name: string, exec: Execute): Doc {
    const readConcern = body.readConcern as Doc;
    if (name === 'getMore' || name === 'killCursors') {
      const at = readConcern.atClusterTime;
      if (at instanceof Timestamp) {
        const p = this.points.get(pointKey(at));
        if (p) p.lastRead = Date.now();
      }
      return exec(body);
    }
    if (!this.clock || !SNAPSHOT_READS.has(name))
      throw serverError(
        'InvalidOptions',
        `readConcern level 'snapshot' is only valid in multi-document transactions or for find, aggregate and distinct, not for ${name}`,
      );
    if (name === 'aggregate' && Array.isArray(body.pipeline))
      for (const stage of body.pipeline)
        if (
          isPlainObject(stage) &&
          ('$out' in stage || '$merge' in stage || '$changeStream' in stage)
        )
          throw serverError(
            'InvalidOptions',
            `readConcern level 'snapshot' is not supported with ${Object.keys(stage)[0]}`,
          );
    const point = this.point(readConcern.atClusterTime);
    if (isPlainObject(body.lsid)) point.sessions.add(valueKey(body.lsid.id));
    const reply = this.statement(point.view, () => exec(body), this.scope(body, name));
    // Read-only: nothing may have been written through the view.
    point.view.writes.clear();
    if (isPlainObject(reply.cursor)) reply.cursor.atClusterTime = point.at;
    else if (reply.ok === 1) reply.atClusterTime = point.at;
    return reply;
  }

  /** The point at `at` (undefined: at the latest change), opened when that is still now. */
  private point(at: unknown): SnapshotPoint {
    this.forgetIdlePoints();
    const clock = this.clock as ClusterClock;
    const last = clock.last;
    if (at !== undefined && !(at instanceof Timestamp))
      throw badValue('atClusterTime must be a Timestamp');
    const wanted = at ?? last;
    const existing = this.points.get(pointKey(wanted));
    if (existing) {
      existing.lastRead = Date.now();
      return existing;
    }
    if (wanted.greaterThan(last))
      throw serverError(
        'SnapshotUnavailable',
        `Read timestamp ${describe(wanted)} is later than the latest cluster time ${describe(last)}`,
      );
    if (wanted.lessThan(last))
      throw serverError(
        'SnapshotTooOld',
        `Read timestamp ${describe(wanted)} is older than the oldest available timestamp: ` +
          `this server keeps a point in time while it is read at least every ` +
          `${Math.round(this.snapshotIdleMs / 1000)} s and no collection is dropped`,
      );
    const view = new Transaction({}, -1);
    this.open.add(view);
    const p: SnapshotPoint = { at: wanted, view, lastRead: Date.now(), sessions: new Set() };
    this.points.set(pointKey(wanted), p);
    return p;
  }

  private endPoint(key: string): void {
    const p = this.points.get(key);
    if (!p) return;
    this.points.delete(key);
    this.end(p.view, 'aborted');
  }

  private forgetIdlePoints(): void {
    const now = Date.now();
    for (const [key, p] of [...this.points])
      if (now - p.lastRead > this.snapshotIdleMs) this.endPoint(key);
  }

  /** A write with `lsid` + `txnNumber` outside a transaction. */
  retryable(body: Doc, exec: Execute): Doc {
    const s = this.session(body.lsid as Doc);
    const n = Number(body.txnNumber);
    if (s.retried?.txnNumber === n) return s.retried.reply;
    if (n < s.txnNumber)
      throw serverError(
        'TransactionTooOld',
        `Cannot start transaction ${n} on session because a newer transaction ${s.txnNumber} has already started`,
      );
    if (s.txn?.state === 'inProgress') this.end(s.txn, 'aborted');
    s.txnNumber = n;
    const reply = exec(withoutSessionFields(body));
    if (reply.ok === 1) s.retried = { txnNumber: n, reply };
    return reply;
  }

  /** A statement of a transaction, or commitTransaction / abortTransaction. */
  inTransaction(body: Doc, name: string, exec: Execute): Doc {
    if (!isPlainObject(body.lsid))
      throw serverError('InvalidOptions', 'Transactions need a logical session (lsid)');
    const s = this.session(body.lsid);
    const n = Number(body.txnNumber);
    if (body.txnNumber === undefined)
      throw serverError('InvalidOptions', `${name} needs a txnNumber`);
    if (name === 'commitTransaction') return this.commit(s, n);
    if (name === 'abortTransaction') return this.abort(s, n);
    if (n < s.txnNumber)
      throw serverError(
        'TransactionTooOld',
        `Cannot start transaction ${n} on session because a newer transaction ${s.txnNumber} has already started`,
      );
    let t = s.txn;
    if (body.startTransaction === true) {
      if (t && t.txnNumber === n)
        throw serverError(
          'ConflictingOperationInProgress',
          `Cannot start transaction ${n} on session because it has already started`,
        );
      if (t?.state === 'inProgress') this.end(t, 'aborted');
      s.txnNumber = n;
      s.retried = undefined;
      t = s.txn = new Transaction(s.lsid, n);
      this.open.add(t);
    } else if (!t || t.txnNumber !== n || t.state === 'aborted' || this.expired(t)) {
      if (t && this.expired(t)) this.end(t, 'aborted');
      throw noSuchTransaction(n, t?.txnNumber === n);
    } else if (t.state === 'committed') {
      throw serverError('TransactionCommitted', `Transaction ${n} has been committed.`);
    }
    if (!ALLOWED_IN_TRANSACTION.has(name)) {
      this.end(t, 'aborted');
      throw serverError(
        'OperationNotSupportedInTransaction',
        `Cannot run '${name}' in a multi-document transaction.`,
      );
    }
    let reply: Doc;
    try {
      const scope = this.scope(body, name);
      const run = () => exec(withoutSessionFields(body));
      reply = this.statement(
        t,
        run,
        scope,
        scope === undefined ? undefined : statementIds(body, name),
      );
    } catch (e) {
      this.end(t, 'aborted');
      throw e;
    }
    // As in mongod, a failed statement aborts its transaction.
    const writeErrors = Array.isArray(reply.writeErrors) ? (reply.writeErrors as Doc[]) : [];
    if (reply.ok !== 1 || writeErrors.length) {
      this.end(t, 'aborted');
      const conflict = writeErrors.find((w) => w.code === 112);
      if (conflict) return errorReply(writeConflict());
      if (reply.code === 112) return { ...reply, errorLabels: TRANSIENT };
    }
    return reply;
  }

  /**
   * The one namespace a statement reads and writes, when it provably touches no other: a write
   * command (views refuse writes), or a find, count or distinct on a collection (a view's
   * pipeline may read others). Undefined: any namespace.
   */
  private scope(body: Doc, name: string): string | undefined {
    if (!SINGLE_NAMESPACE.has(name)) return undefined;
    const coll = body[name];
    const db = body.$db;
    if (typeof coll !== 'string' || typeof db !== 'string') return undefined;
    if (READS.has(name)) {
      const c = this.engine.collection(db, coll);
      if (!c || isView(c)) return undefined;
    }
    return `${db}.${coll}`;
  }

  /**
   * Runs one statement against the transaction's view (see the module comment). With `scope`,
   * only that namespace's documents are swapped in: the statement reads and writes no other. With
   * `ids` as well (the statement reads and writes only the documents of those keys: an insert, or
   * filters on `_id`), only those documents' snapshot versions are swapped in: a busy namespace's
   * snapshot holds every document others changed since the transaction began, and swapping all of
   * them in and out again cost more than the statement itself. The narrower view differs only in
   * the unique keys that left-out versions hold:
   * - a duplicate key met in it may be held by a version the whole view hides, so the statement
   *   runs again against the whole view, which decides;
   * - a key that only a left-out version holds (a document others have since changed or deleted)
   *   does not stop the statement. mongod answers that case with a WriteConflict, which the
   *   driver's withTransaction retries on a fresh snapshot, where the write succeeds: the outcome
   *   is the one the retry would reach.
   */
  private statement(t: Transaction, run: () => Doc, scope?: string, ids?: Set<string>): Doc {
    if (ids) {
      const reply = this.attempt(t, run, scope, ids);
      if (reply) return reply;
    }
    return this.attempt(t, run, scope) as Doc;
  }

  /** One run of `statement`; undefined when the view narrowed to `ids` cannot decide it. */
  private attempt(
    t: Transaction,
    run: () => Doc,
    scope: string | undefined,
    ids?: Set<string>,
  ): Doc | undefined {
    const engine = this.engine;
    const undo: DocChange[] = [];
    const touched = new Map<string, { ns: string; key: string; coll: Collection; id: unknown }>();
    const live = (s: NsState<unknown>) =>
      (scope === undefined || s.coll.ns === scope) &&
      engine.collection(s.coll.db, s.coll.name) === s.coll;
    let narrowed = false;
    try {
      // Deletions first, so restoring a version never meets a unique key still held.
      for (const pass of [true, false]) {
        for (const [ns, s] of t.snapshot) {
          if (!live(s)) continue;
          for (const [key, version] of s.docs) {
            if (t.holds(ns, key) || (version === null) !== pass) continue;
            if (ids && !ids.has(key)) narrowed = true;
            else setDoc(s.coll, key, version ?? undefined, undo);
          }
        }
        for (const s of t.writes.values()) {
          if (!live(s)) continue;
          for (const [key, w] of s.docs)
            if ((w.after === undefined) === pass) setDoc(s.coll, key, w.after, undo);
        }
      }
    } catch {
      revert(undo);
      // A restored version met a unique key that a version left out of the narrowed view holds.
      if (narrowed) return undefined;
      throw writeConflict();
    }
    commandStats?.add(`txn swapped ${scope ?? '*'}`, undo.length);
    commandStats?.add(`txn statement ${scope ?? '*'}`);
    engine.divert = (change) => {
      undo.push(change);
      const doc = (change.after ?? change.before) as Doc;
      const ns = change.coll.ns;
      const key = valueKey(doc._id);
      touched.set(`${ns}\u0000${key}`, { ns, key, coll: change.coll, id: doc._id });
      if (t.snapshot.get(ns)?.docs.has(key)) throw writeConflict();
      for (const other of this.open) {
        if (other === t || !other.holds(ns, key, change.coll)) continue;
        if (this.expired(other)) this.end(other, 'aborted');
        else throw writeConflict();
      }
    };
    try {
      const reply = run();
      if (narrowed && metDuplicateKey(reply)) return undefined;
      for (const { ns, key, coll, id } of touched.values()) {
        let s = t.writes.get(ns);
        if (!s || s.coll !== coll) t.writes.set(ns, (s = { coll, docs: new Map() }));
        s.docs.set(key, { coll, id, after: coll.docs.get(key) });
      }
      return reply;
    } catch (e) {
      if (narrowed && e instanceof MongoServerError && e.code === DUPLICATE_KEY) return undefined;
      throw e;
    } finally {
      engine.divert = undefined;
      revert(undo);
    }
  }

  private commit(s: Session, n: number): Doc {
    const t = s.txn;
    if (!t || t.txnNumber !== n) {
      if (n < s.txnNumber)
        throw serverError('TransactionTooOld', `Transaction ${n} is older than ${s.txnNumber}`);
      throw noSuchTransaction(n, false);
    }
    if (t.state === 'committed') return { ok: 1 }; // the driver retrying an acknowledged commit
    if (t.state === 'aborted' || this.expired(t)) {
      this.end(t, 'aborted');
      throw noSuchTransaction(n, true);
    }
    const writes: Array<{ coll: Collection; id: unknown; after?: Doc }> = [];
    for (const [ns, w] of t.writes) {
      const changed = t.snapshot.get(ns)?.docs;
      for (const [key, write] of w.docs) {
        if (changed?.has(key)) {
          this.end(t, 'aborted');
          throw writeConflict();
        }
        writes.push(write);
      }
    }
    this.end(t, 'committed');
    try {
      this.engine.applyTransaction(writes, { lsid: t.lsid, txnNumber: t.txnNumber });
    } catch (e) {
      t.state = 'aborted';
      throw e;
    }
    return { ok: 1 };
  }

  private abort(s: Session, n: number): Doc {
    const t = s.txn;
    // Aborting a transaction a failed statement already aborted is not an error worth reporting
    // (drivers ignore it; some, in withTransaction, would report it instead of the cause).
    if (t?.txnNumber === n && t.state === 'aborted') return { ok: 1 };
    if (!t || t.txnNumber !== n) throw noSuchTransaction(n, false);
    if (t.state === 'committed')
      throw serverError('TransactionCommitted', `Transaction ${n} has been committed.`);
    this.end(t, 'aborted');
    return { ok: 1 };
  }
}

function pointKey(at: Timestamp): string {
  return `${at.high >>> 0}:${at.low >>> 0}`;
}

function describe(at: Timestamp): string {
  return `Timestamp(${at.high >>> 0}, ${at.low >>> 0})`;
}

const DUPLICATE_KEY = 11000;

function metDuplicateKey(reply: Doc): boolean {
  if (reply.code === DUPLICATE_KEY) return true;
  const writeErrors = Array.isArray(reply.writeErrors) ? (reply.writeErrors as Doc[]) : [];
  return writeErrors.some((w) => w.code === DUPLICATE_KEY);
}

/**
 * The keys of the only documents a single-namespace statement can read or write, when the command
 * names them: the documents an insert brings (by `_id`), or filters that all pin `_id` to values
 * (`{_id: v}`, `{_id: {$eq: v}}`, `{_id: {$in: [...]}}`). Undefined: it may touch any document.
 */
export function statementIds(body: Doc, name: string): Set<string> | undefined {
  const ids = new Set<string>();
  const add = (keys: string[] | undefined) => {
    if (!keys) return false;
    for (const k of keys) ids.add(k);
    return true;
  };
  const all = (items: unknown, pick: (item: Doc) => string[] | undefined) =>
    Array.isArray(items) && items.every((item) => isPlainObject(item) && add(pick(item)));
  let pinned: boolean;
  switch (name) {
    case 'insert':
      pinned = all(body.documents, (doc) => (doc._id === undefined ? undefined : idKeys(doc._id)));
      break;
    case 'update':
      pinned = all(body.updates, (u) => filterIds(u.q));
      break;
    case 'delete':
      pinned = all(body.deletes, (d) => filterIds(d.q));
      break;
    case 'findAndModify':
    case 'findandmodify':
    case 'count':
    case 'distinct':
      pinned = add(filterIds(body.query));
      break;
    case 'find':
      pinned = add(filterIds(body.filter));
      break;
    default:
      pinned = false;
  }
  return pinned ? ids : undefined;
}

function filterIds(filter: unknown): string[] | undefined {
  if (!isPlainObject(filter) || !('_id' in filter)) return undefined;
  const v = filter._id;
  if (isPlainObject(v)) {
    const ops = Object.keys(v);
    if (ops.length === 1 && ops[0] === '$eq') return idKeys(v.$eq);
    if (ops.length === 1 && ops[0] === '$in' && Array.isArray(v.$in)) {
      const keys: string[] = [];
      for (const x of v.$in) {
        const k = idKeys(x);
        if (!k) return undefined;
        keys.push(...k);
      }
      return keys;
    }
  }
  return idKeys(v);
}

/** An `_id` value matched by equality alone (not a regular expression, an operator, null...). */
function idKeys(v: unknown): string[] | undefined {
  if (v === null || v === undefined || Array.isArray(v) || v instanceof RegExp) return undefined;
  if ((v as { _bsontype?: string })._bsontype === 'BSONRegExp') return undefined;
  if (isPlainObject(v) && Object.keys(v).some((k) => k.startsWith('$'))) return undefined;
  return [valueKey(v)];
}

function setDoc(coll: Collection, key: string, target: Doc | undefined, undo: DocChange[]): void {
  const current = coll.docs.get(key);
  if (current === target) return;
  if (current && target) {
    coll.replace(current, target);
    undo.push({ op: 'replace', coll, before: current, after: target });
  } else if (current) {
    coll.delete(current);
    undo.push({ op: 'remove', coll, before: current });
  } else if (target) {
    coll.insert(target);
    undo.push({ op: 'insert', coll, after: target });
  }
}

function revert(undo: DocChange[]): void {
  for (let i = undo.length - 1; i >= 0; i--) undoChange(undo[i] as DocChange);
  undo.length = 0;
}

function writeConflict(): MongoServerError {
  return serverError(
    'WriteConflict',
    'Write conflict during plan execution and yielding is disabled. :: Please retry your operation or multi-document transaction.',
    { errorLabels: TRANSIENT },
  );
}

function noSuchTransaction(n: number, aborted: boolean): MongoServerError {
  return new MongoServerError(
    251,
    'NoSuchTransaction',
    aborted
      ? `Transaction with { txnNumber: ${n} } has been aborted.`
      : `Given transaction number ${n} does not match any in-progress transactions.`,
    { errorLabels: TRANSIENT },
  );
}

/** The command without the session fields the command handlers do not know. */
export function withoutSessionFields(body: Doc): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(body))
    if (k !== 'txnNumber' && k !== 'autocommit' && k !== 'startTransaction') out[k] = v;
  // An insert's documents as bytes (see RAW_DOCUMENTS) go along.
  const raw = (body as Record<symbol, unknown>)[RAW_DOCUMENTS];
  if (raw) (out as Record<symbol, unknown>)[RAW_DOCUMENTS] = raw;
  return out;
}

export function errorReply(e: unknown, labels?: string[]): Doc {
  const reply: Doc =
    e instanceof MongoServerError
      ? { ok: 0, errmsg: e.message, code: e.code, codeName: e.codeName, ...e.extra }
      : {
          ok: 0,
          errmsg: e instanceof Error ? e.message : String(e),
          code: 1,
          codeName: 'InternalError',
        };
  if (labels) reply.errorLabels = labels;
  return reply;
}
