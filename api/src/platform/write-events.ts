/**
 * Tells in-process caches about every write mongoose makes through a model, whichever module
 * makes it: a model's schema announces its writes (`announceWrites`, before the model is
 * compiled), and a cache subscribes by collection name (`onWrites`). Writes that bypass
 * mongoose (`Model.collection`, another process) are not seen: caches bound their age instead.
 */
import type { Schema } from 'mongoose';

export interface WriteEvent {
  /** Documents being inserted or saved (create, save, insertMany). */
  documents?: Array<Record<string, unknown>>;
  /** A query write's filter (updateOne, deleteMany, ...). */
  filter?: Record<string, unknown>;
  /** A query write's update; undefined for deletes. */
  update?: unknown;
  /** A write that cannot be described (bulkWrite): forget everything. */
  unknown?: true;
}

type Listener = (event: WriteEvent) => void;

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

const listeners = new Map<string, Set<Listener>>();

function emit(collection: string, event: WriteEvent): void {
  for (const listener of listeners.get(collection) ?? []) listener(event);
}

/** Subscribes to the writes announced for `collection`; returns the unsubscribe function. */
export function onWrites(collection: string, listener: Listener): () => void {
  const set = listeners.get(collection) ?? new Set<Listener>();
  listeners.set(collection, set);
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * Announces every write through the schema's model, both before and after it reaches the
 * database: before, so that nothing read from then on is kept past the write; after, so that
 * nothing read while it ran is kept either.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema's documents
export function announceWrites(schema: Schema<any>, collection: string): void {
  const fromQuery = function (this: {
    getFilter(): Record<string, unknown>;
    getUpdate(): unknown;
  }) {
    emit(collection, { filter: this.getFilter(), update: this.getUpdate() ?? undefined });
  };
  for (const op of QUERY_WRITES) {
    schema.pre(op, { document: false, query: true }, fromQuery);
    schema.post(op, { document: false, query: true }, fromQuery);
  }
  const fromDocument = function (this: Record<string, unknown>) {
    emit(collection, { documents: [this] });
  };
  schema.pre('save', fromDocument);
  schema.post('save', fromDocument);
  schema.pre('deleteOne', { document: true, query: false }, fromDocument);
  schema.post('deleteOne', { document: true, query: false }, fromDocument);
  const fromMany = (docs: unknown) => {
    emit(collection, {
      documents: (Array.isArray(docs) ? docs : [docs]) as WriteEvent['documents'],
    });
  };
  schema.pre('insertMany', function (docs: unknown) {
    fromMany(docs);
  });
  schema.post('insertMany', function (docs: unknown) {
    fromMany(docs);
  });
  const unknown = () => emit(collection, { unknown: true });
  schema.pre('bulkWrite', unknown);
  schema.post('bulkWrite', unknown);
}
