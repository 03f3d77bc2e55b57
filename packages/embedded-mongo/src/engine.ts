/**
 * The storage engine: databases of collections held in memory, every change journaled when a
 * data directory is configured (see journal.ts). All mutations go through these methods so that
 * memory and journal never disagree.
 */
import { Collection, type IndexSpec } from './collection';
import {
  CompactionError,
  Journal,
  frameInsert,
  scanJournal,
  type FsyncMode,
  type JournalOp,
  type JournalWriteError,
  type StorageFaults,
} from './journal';
import { deserialize } from 'bson';
import { BackgroundCompaction, type CompactionResult } from './background-compaction';
import { serverError } from './errors';
import { snapshotOps } from './snapshot-ops';
import { applyDelta, cloneDoc, topLevelDelta, valueKey as keyOf, type Doc } from './values';

export type { CompactionResult } from './background-compaction';

/** Beyond this many records after the snapshot, a clean stop writes a new snapshot. */
const TAIL_RECORDS = 100_000;

/** One document change as the engine applied it (before: absent for an insert, after: for a remove). */
export interface DocChange {
  op: 'insert' | 'replace' | 'remove';
  coll: Collection;
  before?: Doc;
  after?: Doc;
}

/** What observers (oplog, open transactions' snapshots) hear: document changes and drops. */
export type EngineChange =
  | DocChange
  | { op: 'drop'; db: string; coll: string }
  | { op: 'dropDatabase'; db: string; colls: string[] };

export interface EngineOptions {
  dbPath?: string;
  fsync?: FsyncMode;
  /**
   * Compact (in the background) when the journal grows past this many bytes and twice its size
   * after the last compaction.
   */
  compactBytes?: number;
  /**
   * Told once when the journal cannot be written: memory is then ahead of disk, so whoever
   * serves this engine must stop (the server does). Later commits throw the same error.
   */
  onJournalFailure?: (error: JournalWriteError) => void;
  /** Recovery and compaction notes (default: ignored). */
  onWarning?: (message: string) => void;
  /** Told when a background compaction has replaced the journal. */
  onCompacted?: (result: CompactionResult) => void;
  /** Injected storage failures, for tests (see StorageFaults). */
  faults?: StorageFaults;
  /**
   * At a clean stop, write a new snapshot when more than 100,000 records follow the last one
   * (default false: on a large database that costs seconds per million documents at the stop;
   * `embedded-mongo compact` does it offline).
   */
  compactOnStop?: boolean;
}

export class Engine {
  readonly dbs = new Map<string, Map<string, Collection>>();
  private journal?: Journal;
  private compactedBytes = 0;
  private readonly compactBytes: number;
  private readonly warn: (message: string) => void;
  /** Told of every applied change (the oplog, open transactions' snapshots). */
  readonly observers: Array<(change: EngineChange, txn?: TxnInfo) => void> = [];
  /** While set, document changes go here instead of the journal and observers (a transaction's writes). */
  divert?: (change: DocChange) => void;
  /** While the journal is replayed: collections index their documents only at the end. */
  private replaying = false;
  /** Records in the journal that are not part of its snapshot section (replayed one by one). */
  private tail = 0;
  /** The journal image being replayed, as one Buffer (snapshot documents point into it). */
  private image?: { ab: ArrayBufferLike; buf: Buffer };
  private readonly compactOnStop: boolean;
  private readonly faults?: StorageFaults;
  private readonly onCompacted?: (result: CompactionResult) => void;
  /** The background compaction in progress (see background-compaction.ts). */
  private compaction?: BackgroundCompaction;
  /** The journal held far more records than the state when it was opened: compact soon. */
  private dueAtStart = false;
  private closing = false;
  /** The data directory (undefined: everything in memory). */
  readonly dataPath?: string;

  /**
   * Replays the journal of `dbPath` when there is one; throws JournalCorruptError when it is
   * damaged anywhere but at a torn tail (see journal.ts).
   */
  constructor(options: EngineOptions = {}) {
    this.compactBytes = options.compactBytes ?? 64 * 1024 * 1024;
    this.warn = options.onWarning ?? (() => {});
    this.compactOnStop = options.compactOnStop ?? false;
    this.faults = options.faults;
    this.onCompacted = options.onCompacted;
    this.dataPath = options.dbPath;
    if (options.dbPath) {
      this.replaying = true;
      this.journal = Journal.open(
        options.dbPath,
        {
          fsync: options.fsync ?? 'interval',
          onFailure: options.onJournalFailure,
          onWarning: this.warn,
          faults: options.faults,
        },
        (op) => {
          if (!SNAPSHOT_OPS.has(op.o)) this.tail++;
          this.apply(op);
        },
      );
      this.replaying = false;
      this.image = undefined;
      for (const db of this.dbs.values()) for (const c of db.values()) c.endReplay();
      const live = this.liveRecordCount();
      // A journal much larger than the state: compact once serving (compactIfDue). (A long tail
      // of a journal that is mostly live state, e.g. one written before snapshots existed, is
      // compacted at the next clean stop instead with compactOnStop: see close().)
      this.dueAtStart = this.tail > 2 * live + 1000;
      this.compactedBytes = this.journal.bytes;
    }
  }

  /**
   * An engine without a journal holding the state a journal image replays to, its snapshot's
   * documents left as bytes of `image` as at a start (a background compaction's copy of the
   * database). Throws when the image does not replay to its end (`file`: named in the message).
   * `onRecord` is told after each record (the compaction process paces itself with it).
   */
  static fromImage(image: Buffer, file: string, onRecord: () => void = () => {}): Engine {
    const engine = new Engine();
    engine.replaying = true;
    const scan = scanJournal(image, (op) => {
      engine.apply(op);
      onRecord();
    });
    if (scan.problem)
      throw new Error(
        `${file} does not replay at byte offset ${scan.problem.offset}: ${scan.problem.reason}`,
      );
    engine.replaying = false;
    engine.image = undefined;
    for (const db of engine.dbs.values()) for (const c of db.values()) c.endReplay();
    return engine;
  }

  /** Applies journal operations to a scratch in-memory engine (to check a journal replays). */
  static replayer(): (op: JournalOp) => void {
    const scratch = new Engine();
    return (op) => scratch.apply(op);
  }

  private liveRecordCount(): number {
    let n = 0;
    for (const db of this.dbs.values())
      for (const c of db.values()) n += 1 + c.indexes.length + c.docs.size;
    return n;
  }

  /** Applies a journaled operation to memory (replay). */
  private apply(op: JournalOp): void {
    switch (op.o) {
      case 'create':
        this.ensureCollection(op.db, op.coll, op.options, false);
        break;
      case 'options': {
        const c = this.collection(op.db, op.coll);
        if (c) c.options = op.options;
        break;
      }
      case 'insert':
        this.ensureCollection(op.db, op.coll, undefined, false).insert(op.doc);
        break;
      case 'replace': {
        const c = this.ensureCollection(op.db, op.coll, undefined, false);
        const old = c.docs.get(keyOf(op.doc._id));
        if (old) c.replace(old, op.doc);
        else c.insert(op.doc);
        break;
      }
      case 'update': {
        // A change of some fields: the document must be there, as it was when it was written.
        const c = this.collection(op.db, op.coll);
        const old = c?.docs.get(keyOf(op.id));
        if (!c || !old)
          throw new Error(`an update of ${op.db}.${op.coll} _id ${keyOf(op.id)}, which is absent`);
        c.replace(old, applyDelta(old, op));
        break;
      }
      case 'remove': {
        const c = this.collection(op.db, op.coll);
        const old = c?.docs.get(keyOf(op.id));
        if (c && old) c.delete(old);
        break;
      }
      case 'drop':
        this.dbs.get(op.db)?.delete(op.coll);
        break;
      case 'dropDatabase':
        this.dbs.delete(op.db);
        break;
      case 'createIndex': {
        const c = this.ensureCollection(op.db, op.coll, undefined, false);
        const spec = op.spec as IndexSpec;
        const existing = c.index(spec.name);
        // The same index again: its new options (collMod, see modifyIndex).
        if (existing && keyOf(existing.spec.key) === keyOf(spec.key)) {
          for (const k of Object.keys(existing.spec)) if (!(k in spec)) delete existing.spec[k];
          Object.assign(existing.spec, spec);
        } else c.addIndex(spec);
        break;
      }
      case 'dropIndex':
        this.collection(op.db, op.coll)?.dropIndex(op.name);
        break;
      case 'txn':
        for (const inner of op.ops) this.apply(inner);
        break;
      case 'docs':
        this.applyDocs(op.db, op.coll, op.data.buffer);
        break;
      case 'indexOrder': {
        const c = this.collection(op.db, op.coll);
        const ix = c?.index(op.name);
        if (!c || !ix || !c.deferIndexes || op.order.buffer.byteLength % 4 !== 0) break;
        // Kept as bytes: the index reads its keys through it (see Index.readSnapshot).
        ix.snapshotOrder = op.order.buffer;
        break;
      }
    }
  }

  /**
   * A snapshot's documents: while replaying, each is listed undecoded (see DocStore.addLazy);
   * otherwise (a scratch engine checking a journal) decoded and inserted.
   */
  private applyDocs(db: string, coll: string, data: Uint8Array): void {
    const c = this.ensureCollection(db, coll, undefined, false);
    let image: Buffer | undefined;
    if (this.replaying && c.deferIndexes) {
      if (this.image?.ab !== data.buffer)
        this.image = { ab: data.buffer, buf: Buffer.from(data.buffer as ArrayBuffer) };
      image = this.image.buf;
    }
    let p = 0;
    while (p < data.byteLength) {
      const len = data[p]! | (data[p + 1]! << 8) | (data[p + 2]! << 16) | (data[p + 3]! << 24);
      if (len < 5 || p + len > data.byteLength)
        throw new Error(`a snapshot document of ${len} bytes does not fit`);
      if (data[p + len - 1] !== 0) throw new Error(`a snapshot document does not end with 0`);
      if (!image || !c.docs.addLazy(image, data.byteOffset + p)) {
        const doc = deserialize(data.subarray(p, p + len), {
          promoteLongs: true,
          promoteValues: true,
        });
        c.insert(doc);
      }
      p += len;
    }
  }

  private log(op: JournalOp): void {
    this.journal?.append(op);
  }

  /**
   * Makes the current command's changes durable; called before every reply. Throws
   * JournalWriteError when they could not be written (the command must not be acknowledged).
   */
  commit(): void {
    if (!this.journal) return;
    const before = this.journal.records;
    this.journal.commit();
    this.tail += this.journal.records - before;
    if (this.journal.bytes > this.compactBytes && this.journal.bytes > 2 * this.compactedBytes)
      this.compactIfDue();
  }

  /** The records of a snapshot of the state (see snapshot-ops.ts). */
  snapshotOps(): Generator<JournalOp, void, undefined> {
    return snapshotOps(this.dbs);
  }

  /**
   * Rewrites the journal as the live state in one synchronous step (offline, at a stop): a
   * snapshot section (collections, index definitions, documents in `docs` records, each
   * index's key order) that later records are appended to. A failed compaction leaves the old
   * journal in use. While serving, see compactInBackground.
   */
  compact(): void {
    if (!this.journal) return;
    this.compaction?.cancel();
    try {
      this.journal.compact(this.snapshotOps());
      this.tail = 0;
    } catch (e) {
      if (!(e instanceof CompactionError)) throw e;
      this.warn(`${e.message}; the journal is unchanged and stays in use`);
    }
    // After a failure too: try again only once the journal has doubled again.
    this.compactedBytes = this.journal.bytes;
  }

  /** Whether a background compaction is in progress. */
  get compacting(): boolean {
    return this.compaction !== undefined;
  }

  /**
   * Starts a background compaction (see background-compaction.ts) unless one is in progress;
   * resolves when it is done (the one in progress, if any), rejects with CompactionError when
   * it failed (the old journal stays in use; a warning says so too). Without a journal there is
   * nothing to compact: undefined.
   */
  compactInBackground(): Promise<CompactionResult> | undefined {
    if (this.compaction) return this.compaction.done;
    const journal = this.journal;
    if (!journal || journal.failure) return undefined;
    // Anything pending is written first (counted in the tail), then the journal is marked there.
    const pending = journal.records;
    journal.commit();
    this.tail += journal.records - pending;
    const tailAtMark = this.tail;
    let compaction: BackgroundCompaction;
    try {
      compaction = new BackgroundCompaction(journal, this.faults);
    } catch (e) {
      // Its file could not even be created (a full disk...).
      const error = new CompactionError(
        `compaction of ${journal.file} failed: ${(e as Error).message}`,
      );
      this.compactedBytes = journal.bytes;
      this.warn(`${error.message}; the journal is unchanged and stays in use`);
      return Promise.reject(error);
    }
    this.compaction = compaction;
    this.dueAtStart = false;
    compaction.done.then(
      (result) => {
        this.compaction = undefined;
        // The records appended since the mark follow the new snapshot.
        this.tail -= tailAtMark;
        this.compactedBytes = journal.bytes;
        this.onCompacted?.(result);
      },
      (e: unknown) => {
        this.compaction = undefined;
        // After a failure too: try again only once the journal has doubled again.
        this.compactedBytes = journal.bytes;
        if (e instanceof CompactionError && !journal.failure && !this.closing)
          this.warn(`${e.message}; the journal is unchanged and stays in use`);
      },
    );
    return compaction.done;
  }

  /**
   * Starts a background compaction when one is due: the journal held more than twice as many
   * records as the state needs (plus 1,000) when it was opened, or it has grown past
   * `compactBytes` and twice its size after the last compaction.
   */
  compactIfDue(): void {
    const journal = this.journal;
    if (!journal || this.compaction || journal.failure) return;
    const grown = journal.bytes > this.compactBytes && journal.bytes > 2 * this.compactedBytes;
    // A failure is reported as a warning (see compactInBackground).
    if (this.dueAtStart || grown) this.compactInBackground()?.catch(() => {});
  }

  /** Ends a pause of the background compaction held by a test fault (StorageFaults.pauseCompaction). */
  resumeCompaction(): void {
    this.compaction?.resume();
  }

  /**
   * Background warm-up after a start, one step per call: a collection's table from _id to
   * snapshot position, an index's fences (see index-base.ts), up to `budget` documents decoded
   * for the builds of its multikey indexes (kept only until they are built: see DocStore), or one
   * such build. Returns false once all is done.
   */
  warmUp(budget = 2000): boolean {
    for (const colls of this.dbs.values())
      for (const c of colls.values()) {
        if (c.docs.decodeSome()) return true;
        // Indexes that read the snapshot's keys: made ready, their fences read.
        for (const ix of c.indexes) if (ix.warmBase()) return true;
        // Decoded in slices first, so that the builds below do not decode them in one go.
        if (c.indexes.some((ix) => !ix.built) && c.docs.pinSome(budget)) return true;
        for (const ix of c.indexes)
          if (!ix.built) {
            ix.buildPending();
            return true;
          }
      }
    return false;
  }

  close(): void {
    // A background compaction in progress is dropped (its file removed; the journal is complete).
    this.closing = true;
    this.compaction?.cancel();
    // A clean stop with a long tail since the snapshot: write a new one, so the next start is quick.
    if (this.compactOnStop && this.journal && !this.journal.failure && this.tail > TAIL_RECORDS)
      this.compact();
    this.journal?.close();
    this.journal = undefined;
  }

  collection(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  private ensureCollection(
    db: string,
    name: string,
    options: Doc | undefined,
    log: boolean,
  ): Collection {
    let colls = this.dbs.get(db);
    if (!colls) {
      colls = new Map();
      this.dbs.set(db, colls);
    }
    let c = colls.get(name);
    if (!c) {
      validateCollectionName(name);
      c = new Collection(db, name, options ?? {});
      c.deferIndexes = this.replaying;
      colls.set(name, c);
      if (log) this.log({ o: 'create', db, coll: name, options: options ?? {} });
    }
    return c;
  }

  /** Returns the collection, creating it (implicitly, as mongod does on first write) when missing. */
  getOrCreate(db: string, name: string, options?: Doc): Collection {
    return this.ensureCollection(db, name, options, true);
  }

  createCollection(db: string, name: string, options: Doc): void {
    if (this.collection(db, name)) {
      throw serverError('NamespaceExists', `Collection ${db}.${name} already exists.`);
    }
    this.ensureCollection(db, name, options, true);
  }

  /** Replaces a collection's options (collMod). */
  setOptions(c: Collection, options: Doc): void {
    c.options = cloneDoc(options);
    this.log({ o: 'options', db: c.db, coll: c.name, options });
  }

  private changed(change: DocChange, op: JournalOp | (() => Buffer)): void {
    if (this.divert) return this.divert(change);
    if (typeof op === 'function') this.journal?.appendFramed(op());
    else this.log(op);
    for (const o of this.observers) o(change);
  }

  /**
   * Stores a new document; `bytes`: its BSON as the command carried it, which decodes to `doc`
   * (then journaled as they are, instead of encoding `doc` again).
   */
  insert(c: Collection, doc: Doc, bytes?: Uint8Array): void {
    c.insert(doc);
    this.changed(
      { op: 'insert', coll: c, after: doc },
      bytes ? () => frameInsert(c.db, c.name, bytes) : { o: 'insert', db: c.db, coll: c.name, doc },
    );
  }

  replace(c: Collection, oldDoc: Doc, newDoc: Doc): void {
    c.replace(oldDoc, newDoc);
    const change: DocChange = { op: 'replace', coll: c, before: oldDoc, after: newDoc };
    if (this.divert) return this.divert(change);
    this.changed(change, replaceOp(c, oldDoc, newDoc, this.journal !== undefined));
  }

  remove(c: Collection, doc: Doc): void {
    c.delete(doc);
    this.changed(
      { op: 'remove', coll: c, before: doc },
      { o: 'remove', db: c.db, coll: c.name, id: doc._id },
    );
  }

  /**
   * Applies a committed transaction's changes (each `after` the new version, or undefined for a
   * delete) as ONE journal record; a unique-key violation undoes the ones already applied and
   * throws, so memory and journal keep all of it or none.
   */
  applyTransaction(
    writes: Array<{ coll: Collection; id: unknown; after?: Doc }>,
    txn: TxnInfo,
  ): void {
    const done: DocChange[] = [];
    try {
      for (const w of writes) {
        const before = w.coll.docs.get(keyOf(w.id));
        if (before && w.after) w.coll.replace(before, w.after);
        else if (w.after) w.coll.insert(w.after);
        else if (before) w.coll.delete(before);
        else continue;
        const op = before ? (w.after ? 'replace' : 'remove') : 'insert';
        done.push({ op, coll: w.coll, before, after: w.after });
      }
    } catch (e) {
      for (const c of done.reverse()) undoChange(c);
      throw e;
    }
    if (done.length === 0) return;
    this.log({
      o: 'txn',
      ops: done.map((c): JournalOp => {
        const ns = { db: c.coll.db, coll: c.coll.name };
        if (c.op === 'insert') return { o: 'insert', ...ns, doc: c.after as Doc };
        if (c.op === 'replace') return replaceOp(c.coll, c.before as Doc, c.after as Doc, true);
        return { o: 'remove', ...ns, id: (c.before as Doc)._id };
      }),
    });
    for (const c of done) for (const o of this.observers) o(c, txn);
  }

  drop(db: string, name: string): boolean {
    const existed = this.dbs.get(db)?.delete(name) ?? false;
    if (existed) {
      this.log({ o: 'drop', db, coll: name });
      for (const o of this.observers) o({ op: 'drop', db, coll: name });
    }
    return existed;
  }

  dropDatabase(db: string): void {
    const colls = [...(this.dbs.get(db)?.keys() ?? [])];
    if (this.dbs.delete(db)) {
      this.log({ o: 'dropDatabase', db });
      for (const o of this.observers) o({ op: 'dropDatabase', db, colls });
    }
  }

  createIndex(c: Collection, spec: IndexSpec): void {
    c.addIndex(cloneDoc(spec));
    this.log({ o: 'createIndex', db: c.db, coll: c.name, spec });
  }

  dropIndex(c: Collection, name: string): void {
    c.dropIndex(name);
    this.log({ o: 'dropIndex', db: c.db, coll: c.name, name });
  }

  /**
   * Changes options of an index in place (collMod: `hidden`, `expireAfterSeconds`; `false` for
   * `hidden` removes it, as mongod lists a shown index without the field), journaled as the
   * index's `createIndex` record with its new spec, which a replay applies to the index of that
   * name and key (see apply).
   */
  modifyIndex(c: Collection, name: string, changes: Doc): void {
    const ix = c.index(name);
    if (!ix) return;
    for (const [k, v] of Object.entries(changes)) {
      if (k === 'hidden' && v === false) delete ix.spec.hidden;
      else ix.spec[k] = v;
    }
    this.log({ o: 'createIndex', db: c.db, coll: c.name, spec: cloneDoc(ix.spec) });
  }
}

/**
 * The journal record of a new version of a document: the fields it changes (`update`, replayed
 * onto the version before) when that is smaller than the whole document, else the whole new
 * version (`replace`). Without a journal the record is never written, so no delta is worked out.
 */
function replaceOp(c: Collection, before: Doc, after: Doc, journaled: boolean): JournalOp {
  const delta = journaled ? topLevelDelta(before, after) : undefined;
  if (!delta) return { o: 'replace', db: c.db, coll: c.name, doc: after };
  const op: JournalOp = { o: 'update', db: c.db, coll: c.name, id: after._id, set: delta.set };
  if (delta.unset.length) op.unset = delta.unset;
  return op;
}

/** The session and number of a committing transaction, for the change events it produces. */
export interface TxnInfo {
  lsid: Doc;
  txnNumber: unknown;
}

/** Reverts a change made directly on a collection (no journal, no observers). */
export function undoChange(c: DocChange): void {
  if (c.op === 'insert') c.coll.delete(c.after as Doc);
  else if (c.op === 'replace') c.coll.replace(c.after as Doc, c.before as Doc);
  else c.coll.insert(c.before as Doc);
}

/** Records of a journal's snapshot section (see compact), not counted as its tail. */
const SNAPSHOT_OPS = new Set(['create', 'createIndex', 'docs', 'indexOrder']);

function validateCollectionName(name: string): void {
  if (!name || name.includes('\0') || name.startsWith('.') || name.includes('$')) {
    throw serverError('InvalidNamespace', `Invalid collection name: ${name}`);
  }
}
