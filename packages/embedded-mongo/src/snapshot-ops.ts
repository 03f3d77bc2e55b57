/**
 * The records of a snapshot section (see journal.ts and the README's "Snapshot"): per
 * collection `create`, one `createIndex` per index, `docs` records of about 4 MiB holding the
 * documents' BSON one after the other, then one `indexOrder` record per index that is not
 * multikey.
 *
 * Documents of the loaded snapshot that nobody changed are copied as the bytes they are in the
 * journal image (runs of them that lie one after the other in it as one piece), without making
 * their _id keys or looking them up; the others are encoded. An index's order maps each key to
 * the ordinal of its document among those written: by snapshot position for the unchanged
 * documents (a typed array), by _id key only for those changed or inserted since the snapshot
 * was loaded (see Index.order).
 */
import os from 'node:os';
import { Binary, serialize } from 'bson';
import type { Collection, SnapshotOrdinals } from './collection';
import type { JournalOp } from './journal';
import type { Doc } from './values';

/** A snapshot's `docs` records hold about this many bytes of documents each. */
export const SNAPSHOT_CHUNK = 4 * 1024 * 1024;
/** A record holds at most 16 MiB: past this many keys an index is sorted at start instead. */
const MAX_ORDER_KEYS = 4_000_000;

export function* snapshotOps(
  dbs: Map<string, Map<string, Collection>>,
): Generator<JournalOp, void, undefined> {
  for (const [db, colls] of dbs) {
    for (const [coll, c] of colls) {
      yield { o: 'create', db, coll, options: c.options };
      for (const ix of c.indexes.slice(1)) yield { o: 'createIndex', db, coll, spec: ix.spec };
      const ordinals = yield* collectionDocs(db, coll, c);
      for (const ix of c.indexes) {
        const order = ix.order(ordinals);
        if (!order || order.length > MAX_ORDER_KEYS) continue;
        const data = Buffer.from(order.buffer, order.byteOffset, order.byteLength);
        if (os.endianness() === 'BE') data.swap32();
        yield { o: 'indexOrder', db, coll, name: ix.name, order: new Binary(data) };
      }
    }
  }
}

/** The `docs` records of a collection; returns where each document went (see Index.order). */
function* collectionDocs(
  db: string,
  coll: string,
  c: Collection,
): Generator<JournalOp, SnapshotOrdinals, undefined> {
  const store = c.docs;
  const count = store.snapshotCount;
  const image = store.snapshotImage;
  const byPosition = count > 0 ? new Int32Array(count).fill(-1) : undefined;
  const byId = new Map<string, number>();
  let ordinal = 0;

  let pieces: Uint8Array[] = [];
  let bytes = 0;
  // A run of unchanged documents lying one after the other in the image, not yet in `pieces`.
  let runStart = 0;
  let runEnd = 0;
  const endRun = () => {
    if (runEnd > runStart) pieces.push(image!.subarray(runStart, runEnd));
    runStart = runEnd = 0;
  };
  const full = (length: number) => bytes > 0 && bytes + length > SNAPSHOT_CHUNK;
  const record = (): JournalOp => {
    endRun();
    const data = Buffer.concat(pieces, bytes);
    pieces = [];
    bytes = 0;
    return { o: 'docs', db, coll, data: new Binary(data) };
  };

  for (let i = 0; i < count; i++) {
    if (store.snapshotLive(i)) {
      const off = store.snapshotOffset(i);
      const length = image!.readInt32LE(off);
      if (full(length)) yield record();
      if (off !== runEnd || runEnd === 0) {
        endRun();
        runStart = off;
      }
      runEnd = off + length;
      bytes += length;
      byPosition![i] = ordinal++;
      continue;
    }
    const doc = store.replacedAt(i);
    if (!doc) continue; // deleted
    const raw = serialize(doc);
    if (full(raw.length)) yield record();
    endRun();
    pieces.push(raw);
    bytes += raw.length;
    byId.set(store.snapshotKey(i), ordinal++);
  }
  for (const [key, doc] of store.insertedEntries()) {
    const raw = serialize(doc as Doc);
    if (full(raw.length)) yield record();
    endRun();
    pieces.push(raw);
    bytes += raw.length;
    byId.set(key, ordinal++);
  }
  if (bytes > 0) yield record();

  return {
    byPosition,
    of(id: string): number | undefined {
      const o = byId.get(id);
      if (o !== undefined || !byPosition) return o;
      const p = store.snapshotPosition(id);
      const at = p >= 0 ? byPosition[p]! : -1;
      return at >= 0 ? at : undefined;
    },
  };
}
