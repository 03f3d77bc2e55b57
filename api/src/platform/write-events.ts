/**
 * Tells read caches about every write mongoose makes through a model, whichever module makes it.
 * A model's schema announces its writes (`announceWrites`, before the model is compiled) on the
 * connection the model is bound to, so the source of write events is the database connection an
 * app was given, not the process: an app subscribes through its Database (`db.ts`) when it is
 * created and unsubscribes when it closes. Writes that bypass mongoose (`Model.collection`,
 * another process) are not seen: caches bound their age instead.
 */
import type { Connection, Schema } from 'mongoose';

export interface WriteEvent {
  /** Documents being inserted or saved (create, save, insertMany). */
  documents?: Array<Record<string, unknown>>;
  /** A query write's filter (updateOne, deleteMany, ...). */
  filter?: Record<string, unknown>;
  /** A query write's update; undefined for deletes. */
  update?: unknown;
  /** A write that cannot be described (bulkWrite): forget everything. */
  unknown?: true;
  /** `documents` are new (create, insertMany, a change stream's insert), not saved changes. */
  inserted?: true;
  /** The document `filter` names by `_id` was deleted (a change stream's delete). */
  deleted?: true;
}

export type WriteListener = (collection: string, event: WriteEvent) => void;

/** The connection event that carries announced writes (a name no mongoose event uses). */
const WRITE_EVENT = 'campus:write';

const QUERY_WRITES = [
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'replaceOne',
  'findOneAndReplace',
  'deleteOne',
  'deleteMany',
  'findOneAndDelete',
] as const;

function emit(connection: Connection | undefined, collection: string, event: WriteEvent): void {
  connection?.emit(WRITE_EVENT, collection, event);
}

/** How long an insert of this process is waited for in its change stream (then forgotten). */
const OWN_INSERT_MS = 60_000;
/** At most this many own inserts are remembered (past that: the oldest go). */
const MAX_OWN = 10_000;

/**
 * The inserts made through each connection that were announced on it already, so that their echo
 * in the connection's change stream (`followChanges`) is not handled a second time. Each app
 * process hears its own writes from its hooks, and from its change stream again.
 *
 * Only what cannot be mistaken is recognised: an insert acknowledged to this connection outside a
 * transaction (a `save` of a new document or an `insertMany`, announced by its hooks after the
 * database answered; a new post, a notification): the collection and `_id` of a document name
 * exactly one insert that took effect. An echo that arrives before the hook recorded it is handled
 * as any other event (the entry is then forgotten after OWN_INSERT_MS).
 *
 * Updates and deletes are always handled (another process may have made the same write on the same
 * document at the same time), and so is every event of a transaction (it carries a session id,
 * `lsid`): leaving out this process's own transactions (by session id and transaction number)
 * made `comments/page-cache.test.ts` serve a comment page without a comment just added, so some
 * write of a transaction reaches the caches only through its echo, or a pooled server session's id
 * came back on a later write outside any transaction (not settled).
 *
 * Per connection: `collection:_id` of the inserts it announced, with when.
 */
const ownInserts = new WeakMap<Connection, Map<string, number>>();

function ownInsertsOf(connection: Connection): Map<string, number> {
  let inserts = ownInserts.get(connection);
  if (!inserts) {
    inserts = new Map();
    ownInserts.set(connection, inserts);
  }
  return inserts;
}

const insertKey = (collection: string, id: unknown) => `${collection}:${typeof id}:${String(id)}`;

function markOwnInserts(
  connection: Connection | undefined,
  collection: string,
  documents: Array<Record<string, unknown>>,
): void {
  if (!connection) return;
  const inserts = ownInsertsOf(connection);
  const now = Date.now();
  for (const [key, at] of inserts) {
    if (at > now - OWN_INSERT_MS && inserts.size < MAX_OWN) break;
    inserts.delete(key);
  }
  for (const doc of documents)
    if (doc._id !== undefined) inserts.set(insertKey(collection, doc._id), now);
}

/** Whether a change stream event is the echo of a write this connection announced already. */
function isOwnEcho(connection: Connection, change: ChangeEvent, collection: string): boolean {
  const inserts = ownInserts.get(connection);
  if (!inserts) return false;
  // A transaction's events are always handled: see ownInserts.
  if (change.lsid !== undefined) return false;
  if (change.operationType !== 'insert' || change.documentKey?._id === undefined) return false;
  return inserts.delete(insertKey(collection, change.documentKey._id));
}

/** Subscribes to every write announced on `connection`; returns the unsubscribe function. */
export function onWrites(connection: Connection, listener: WriteListener): () => void {
  connection.on(WRITE_EVENT, listener);
  return () => {
    connection.off(WRITE_EVENT, listener);
  };
}

/**
 * Announces every write through the schema's model, both before and after it reaches the
 * database: before, so that nothing read from then on is kept past the write; after, so that
 * nothing read while it ran is kept either.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema's documents
export function announceWrites(schema: Schema<any>, collection: string): void {
  const fromQuery = function (this: {
    model: { db: Connection };
    getFilter(): Record<string, unknown>;
    getUpdate(): unknown;
  }) {
    emit(this.model.db, collection, {
      filter: this.getFilter(),
      update: this.getUpdate() ?? undefined,
    });
  };
  for (const op of QUERY_WRITES) {
    schema.pre(op, { document: false, query: true }, fromQuery);
    schema.post(op, { document: false, query: true }, fromQuery);
  }
  // A document's `db` is its model's connection.
  const fromDocument = function (this: Record<string, unknown> & { db: Connection }) {
    emit(this.db, collection, { documents: [this] });
  };
  type Saved = Record<string, unknown> & {
    db: Connection;
    isNew: boolean;
    $locals: Record<string, unknown>;
  };
  // A save is an insert when the document is new; after it, mongoose says it is not any more.
  schema.pre('save', function (this: Saved) {
    this.$locals.campusInserted = this.isNew;
    emit(this.db, collection, { documents: [this], ...(this.isNew ? { inserted: true } : {}) });
  });
  schema.post('save', function (this: Saved) {
    const inserted = this.$locals.campusInserted === true;
    if (inserted) markOwnInserts(this.db, collection, [this]);
    emit(this.db, collection, { documents: [this], ...(inserted ? { inserted: true } : {}) });
  });
  schema.pre('deleteOne', { document: true, query: false }, fromDocument);
  schema.post('deleteOne', { document: true, query: false }, fromDocument);
  // insertMany and bulkWrite hooks run with the model as `this`.
  const fromMany = (model: { db: Connection }, docs: unknown) => {
    emit(model.db, collection, {
      documents: (Array.isArray(docs) ? docs : [docs]) as WriteEvent['documents'],
      inserted: true,
    });
  };
  schema.pre('insertMany', function (this: { db: Connection }, docs: unknown) {
    fromMany(this, docs);
  });
  schema.post('insertMany', function (this: { db: Connection }, docs: unknown) {
    markOwnInserts(
      this.db,
      collection,
      (Array.isArray(docs) ? docs : [docs]) as Array<Record<string, unknown>>,
    );
    fromMany(this, docs);
  });
  const unknown = function (this: { db: Connection }) {
    emit(this.db, collection, { unknown: true });
  };
  schema.pre('bulkWrite', unknown);
  schema.post('bulkWrite', unknown);
}

/** A number the filter pins a field to (`{ f: 5 }` or `{ f: { $eq: 5 } }`), if any. */
export function pinned(
  filter: Record<string, unknown> | undefined,
  field: string,
): number | undefined {
  let v = filter?.[field];
  if (v && typeof v === 'object' && '$eq' in v) v = (v as { $eq: unknown }).$eq;
  return typeof v === 'number' ? v : undefined;
}

/**
 * The fields an update operator document changes (`{ $set: { a }, $inc: { b } }` -> a, b), or
 * undefined when it cannot tell (a replacement, a pipeline): treat that as "anything".
 */
export function updatedFields(update: unknown): Set<string> | undefined {
  if (!update || typeof update !== 'object' || Array.isArray(update)) return undefined;
  const fields = new Set<string>();
  for (const [op, value] of Object.entries(update)) {
    if (!op.startsWith('$') || !value || typeof value !== 'object') return undefined;
    for (const path of Object.keys(value)) fields.add(path.split('.')[0]!);
  }
  return fields;
}

/**
 * Announces a write once more, e.g. when the transaction that made it commits (its hooks ran
 * while it was still invisible to other readers): see modules/counters/atomic.ts.
 */
export function announceWrite(connection: Connection, collection: string, event: WriteEvent): void {
  emit(connection, collection, event);
}

/** How long a failed change stream waits before it follows the database again. */
const CHANGE_STREAM_RETRY_MS = 1_000;

type ChangeEvent = {
  _id: unknown;
  operationType: string;
  ns?: { coll?: string };
  documentKey?: { _id?: unknown };
  fullDocument?: Record<string, unknown> | null;
  updateDescription?: { updatedFields?: Record<string, unknown>; removedFields?: string[] };
  /** The session and transaction number of the transaction that made the change, if any. */
  lsid?: { id?: unknown };
  txnNumber?: unknown;
};

/** A change stream event as the write it describes (undefined: every read of it may be stale). */
export function changeToWriteEvent(change: ChangeEvent): WriteEvent {
  const _id = change.documentKey?._id;
  switch (change.operationType) {
    case 'insert':
      return { documents: [change.fullDocument ?? { _id }], inserted: true };
    case 'update': {
      const { updatedFields = {}, removedFields = [] } = change.updateDescription ?? {};
      const update: Record<string, Record<string, unknown>> = {};
      if (Object.keys(updatedFields).length > 0) update.$set = updatedFields;
      if (removedFields.length > 0)
        update.$unset = Object.fromEntries(removedFields.map((f) => [f, '']));
      return { filter: { _id }, update };
    }
    case 'replace':
      return { filter: { _id } };
    case 'delete':
      return { filter: { _id }, deleted: true };
    default: // drop, rename, dropDatabase, invalidate
      return { unknown: true };
  }
}

/**
 * Follows the writes ANY process makes to `collections` of the connection's database, through a
 * change stream, and hands each to `listener` as a WriteEvent (the same shape as the writes this
 * process announces itself), so caches forget what other API processes changed. A stream that
 * fails reports the error (`onError`: the caller forgets everything, since events may have been
 * missed) and follows again after a second, resuming after the last event it saw (a second
 * failure in a row starts afresh). The echoes of this connection's own writes, which it announced
 * already, are left out (ownInserts). Returns the function that stops following.
 */
export function followChanges(
  connection: Connection,
  collections: readonly string[],
  listener: WriteListener,
  onError: (err: unknown) => void,
): () => void {
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let resumeAfter: unknown;
  let failures = 0;
  let stream: ReturnType<NonNullable<Connection['db']>['watch']> | undefined;
  const watched = new Set(collections);
  // The followed collections' events, and those about the whole database (no collection named).
  const matching = [
    {
      $match: {
        $or: [
          { 'ns.coll': { $in: [...collections] } },
          { operationType: { $in: ['dropDatabase', 'invalidate'] } },
        ],
      },
    },
  ];

  const follow = () => {
    retry = undefined;
    if (closed) return;
    let current: NonNullable<typeof stream>;
    try {
      if (!connection.db) throw new Error('followChanges: the database connection is not open');
      current = connection.db.watch(matching, {
        ...(resumeAfter && failures < 2 ? { resumeAfter } : {}),
      });
    } catch (err) {
      restart(err);
      return;
    }
    stream = current;
    current.on('change', (change: ChangeEvent) => {
      failures = 0;
      resumeAfter = change._id;
      const collection = change.ns?.coll;
      // This process's own write, which its hooks announced already (ownInserts).
      if (collection && watched.has(collection) && isOwnEcho(connection, change, collection))
        return;
      const event = changeToWriteEvent(change);
      if (collection && watched.has(collection)) listener(collection, event);
      else for (const name of collections) listener(name, event); // dropDatabase, invalidate
      if (change.operationType === 'invalidate') restart(undefined);
    });
    current.on('error', (err: unknown) => restart(err));
  };
  const restart = (err: unknown) => {
    if (closed) return;
    stream?.close().catch(() => undefined);
    stream = undefined;
    if (err !== undefined) {
      failures += 1;
      onError(err);
    } else {
      resumeAfter = undefined;
    }
    if (!closed && !retry) {
      retry = setTimeout(follow, err === undefined ? 0 : CHANGE_STREAM_RETRY_MS);
      retry.unref();
    }
  };
  const stop = () => {
    closed = true;
    if (retry) clearTimeout(retry);
    stream?.close().catch(() => undefined);
    connection.off('close', stop);
  };
  // A connection closed before its app: nothing left to follow.
  connection.on('close', stop);
  follow();
  return stop;
}
