/**
 * A collection's documents keyed by their _id key (a Map's interface).
 *
 * Documents loaded from a journal's snapshot section (see journal.ts) stay bytes of the journal
 * image that was read at start, for as long as nobody changes them: the store knows each one by
 * its position in the snapshot (the order the snapshot wrote them in, which its index orders
 * refer to: see index-base.ts) and the offset of its BSON. Nothing per document is made at start
 * but that offset; the first lookup by _id builds a table from _id to position (`locate`): an
 * open-addressing hash table of positions in a typed array, hashed by the bytes of the ObjectId
 * read where they lie, with a Map only for the rare other _id types. So a server holding
 * millions of documents keeps neither millions of key strings nor the documents in V8's heap,
 * which every major GC would otherwise walk.
 *
 * A read decodes such a document and keeps the result in a bounded cache of recently read
 * documents (two generations of at most `DocStore.cacheLimit` documents each: a hit in the older
 * one moves the document to the younger; when the younger is full it becomes the older and the
 * oldest are dropped). A snapshot document set after the start is kept as an object in its
 * place (`replaced`: natural order does not change, as mongod's record ids do not), one deleted
 * is marked so (`state`); documents inserted since are kept as objects in `map` (everything,
 * without a snapshot). While indexes are built from the
 * snapshot's documents (see `pin`), every decoded one is kept, so that building several indexes
 * decodes each document once; they are let go when the last one is built.
 */
import { deserialize } from 'bson';
import { valueKey, type Doc } from './values';

/**
 * The valueKey of a stored document's _id read from its BSON at `off` (the _id is its first
 * field), for an ObjectId, an int32 or a string; undefined for other types (then it is decoded).
 */
export function rawIdKey(b: Buffer, off: number): string | undefined {
  const len = b.readInt32LE(off);
  if (b[off + 5] !== 0x5f || b[off + 6] !== 0x69 || b[off + 7] !== 0x64 || b[off + 8] !== 0)
    return undefined;
  const p = off + 9;
  switch (b[off + 4]) {
    case 0x07:
      return len >= 22 ? 'o' + b.toString('hex', p, p + 12) : undefined;
    case 0x10:
      return len >= 14 ? 'n' + b.readInt32LE(p) : undefined;
    case 0x02: {
      const n = b.readInt32LE(p);
      if (n < 1 || p + 4 + n > off + len || b[p + 4 + n - 1] !== 0) return undefined;
      const str = b.toString('utf8', p + 4, p + 4 + n - 1);
      // Only when it round-trips (valid UTF-8 without NUL), as the decoder would read it.
      return Buffer.byteLength(str) === n - 1 && !str.includes('\0') ? 's' + str : undefined;
    }
  }
  return undefined;
}

const DECODE = {
  promoteLongs: true,
  promoteValues: true,
  allowObjectSmallerThanBufferSize: true,
  index: 0,
};

/**
 * The BSON type of the _id of the document at `off` when it is its first field and an ObjectId
 * (0x07, its bytes at off + 9) or an int32 (0x10); 0 otherwise.
 */
function tableIdType(b: Buffer, off: number): number {
  const type = b[off + 4];
  if (b[off + 5] !== 0x5f || b[off + 6] !== 0x69 || b[off + 7] !== 0x64 || b[off + 8] !== 0)
    return 0;
  if (type === 0x07 && b.readInt32LE(off) >= 22) return 0x07;
  if (type === 0x10 && b.readInt32LE(off) >= 14) return 0x10;
  return 0;
}

/** The table's hash of an ObjectId's last four bytes, or of an int32 _id. */
function idHash(x: number): number {
  const h = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The value of a hex digit's character code (0–15; anything else > 15). */
function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return 99;
}

/** Whether the 12 bytes at `p` are the ObjectId whose key ('o' + 24 hex digits) is `key`. */
function sameObjectId(b: Buffer, p: number, key: string): boolean {
  for (let i = 0; i < 12; i++) {
    const v = (hexValue(key.charCodeAt(1 + 2 * i)) << 4) | hexValue(key.charCodeAt(2 + 2 * i));
    if (b[p + i] !== v) return false;
  }
  return true;
}

/** The snapshot's documents (see the class comment). */
interface Snapshot {
  source: Buffer;
  /** Where each document's BSON starts in `source`, by position. */
  offsets: number[];
  /**
   * By position: UNCHANGED, REPLACED (the document is in `replaced`) or DELETED since the start;
   * empty until the first lookup (everything unchanged).
   */
  state: Uint8Array;
  /** Positions still UNCHANGED (held as bytes). */
  live: number;
  /** Documents of the snapshot set since the start, by position. */
  replaced: Map<number, Doc>;
  /** Position + 1 by hash of an ObjectId or int32 _id (0: empty); built on the first lookup. */
  table?: Int32Array;
  /** Positions of documents whose _id is neither, by _id key. */
  others?: Map<string, number>;
}

const UNCHANGED = 0;
const REPLACED = 1;
const DELETED = 2;

export class DocStore {
  /**
   * How many decoded snapshot documents each collection keeps per generation (see the class
   * comment): at most twice as many are held.
   */
  static cacheLimit = 10_000;

  /** Documents set since the snapshot was loaded (every document, without one). */
  private readonly map = new Map<string, Doc>();
  /** The snapshot's documents, listed by `addLazy` while the journal is replayed. */
  private snap?: Snapshot;
  /** Recently decoded snapshot documents by position (see the class comment). */
  private young = new Map<number, Doc>();
  private old = new Map<number, Doc>();
  /**
   * Every decoded snapshot document by its position, while indexes are built (see `pin`):
   * index builds walk the snapshot's order by position, with no lookup by _id.
   */
  private pinned?: (Doc | undefined)[];
  /** How far `pinSome` has decoded (a position in the snapshot). */
  private pinning = 0;

  get size(): number {
    const s = this.snap;
    return this.map.size + (s ? s.live + s.replaced.size : 0);
  }

  /**
   * Lists a snapshot document (its BSON starts at `offset` of `source`, the same image for every
   * call), stored undecoded. False when `source` is another image, or documents were already
   * stored otherwise (nothing is listed).
   */
  addLazy(source: Buffer, offset: number): boolean {
    let s = this.snap;
    if (!s) {
      if (this.map.size > 0) return false;
      s = this.snap = {
        source,
        offsets: [],
        state: new Uint8Array(0),
        live: 0,
        replaced: new Map(),
      };
    }
    if (s.source !== source || s.table) return false;
    s.offsets.push(offset);
    s.live++;
    return true;
  }

  /** How many documents the snapshot listed (what its index orders' positions refer to). */
  get snapshotCount(): number {
    return this.snap?.offsets.length ?? 0;
  }

  /** The journal image the snapshot's documents are bytes of. */
  get snapshotImage(): Buffer | undefined {
    return this.snap?.source;
  }

  /** Where the snapshot's document at `position` starts in `snapshotImage`. */
  snapshotOffset(position: number): number {
    return this.snap!.offsets[position]!;
  }

  /** Whether the snapshot's document at `position` is still the stored one, unchanged. */
  snapshotLive(position: number): boolean {
    const s = this.snap!;
    return s.state.length === 0 || s.state[position] === UNCHANGED;
  }

  /** The _id key of the snapshot's document at `position`. */
  snapshotKey(position: number): string {
    const s = this.snap!;
    const off = s.offsets[position]!;
    const key = rawIdKey(s.source, off);
    if (key !== undefined) return key;
    DECODE.index = off;
    return valueKey((deserialize(s.source, DECODE) as Doc)._id);
  }

  /** Builds the table from _id key to position (see the class comment); once. */
  private locateTable(s: Snapshot): Int32Array {
    const n = s.offsets.length;
    let size = 16;
    while (size < n * 2) size *= 2;
    const table = new Int32Array(size);
    const mask = size - 1;
    const b = s.source;
    for (let i = 0; i < n; i++) {
      const off = s.offsets[i]!;
      const type = tableIdType(b, off);
      if (type === 0) {
        (s.others ??= new Map()).set(this.snapshotKey(i), i);
        continue;
      }
      let h = idHash(type === 0x07 ? b.readUInt32BE(off + 17) : b.readInt32LE(off + 9)) & mask;
      while (table[h] !== 0) h = (h + 1) & mask;
      table[h] = i + 1;
    }
    if (s.state.length === 0) s.state = new Uint8Array(n);
    s.table = table;
    return table;
  }

  /**
   * The snapshot position of the document with this _id key, if the snapshot has one and it was
   * not deleted since; else -1.
   */
  private locate(key: string): number {
    const s = this.snap;
    if (!s || !this.snapshotHeld) return -1;
    const table = s.table ?? this.locateTable(s);
    let i = -1;
    const first = key.charCodeAt(0);
    const mask = table.length - 1;
    const b = s.source;
    if (first === 111 /* o */ && key.length === 25) {
      const x = Number.parseInt(key.slice(17), 16);
      if (x === x)
        for (let h = idHash(x) & mask; table[h] !== 0; h = (h + 1) & mask) {
          const p = table[h]! - 1;
          const off = s.offsets[p]!;
          if (b[off + 4] === 0x07 && sameObjectId(b, off + 9, key)) {
            i = p;
            break;
          }
        }
    } else if (first === 110 /* n */) {
      const x = Number(key.slice(1));
      if ((x | 0) === x && !Object.is(x, -0))
        for (let h = idHash(x) & mask; table[h] !== 0; h = (h + 1) & mask) {
          const p = table[h]! - 1;
          const off = s.offsets[p]!;
          if (b[off + 4] === 0x10 && b.readInt32LE(off + 9) === x) {
            i = p;
            break;
          }
        }
    }
    if (i < 0) i = s.others?.get(key) ?? -1;
    return i >= 0 && s.state[i] !== DELETED ? i : -1;
  }

  /** The snapshot's document at `position` changes state (from UNCHANGED or REPLACED). */
  private change(position: number, to: number, doc?: Doc): void {
    const s = this.snap!;
    if (s.state[position] === UNCHANGED) {
      s.live--;
      this.young.delete(position);
      this.old.delete(position);
      if (this.pinned) this.pinned[position] = undefined;
    }
    s.state[position] = to;
    if (doc) s.replaced.set(position, doc);
    else s.replaced.delete(position);
  }

  /** The document at a snapshot position that is not DELETED. */
  private at(i: number, keep: boolean): Doc {
    const s = this.snap!;
    return s.state.length > 0 && s.state[i] === REPLACED
      ? s.replaced.get(i)!
      : this.cached(i, keep);
  }

  /** Whether a document of the snapshot is still stored (unchanged or replaced). */
  private get snapshotHeld(): boolean {
    const s = this.snap;
    return s !== undefined && s.live + s.replaced.size > 0;
  }

  has(key: string): boolean {
    return this.map.has(key) || this.locate(key) >= 0;
  }

  get(key: string): Doc | undefined {
    const doc = this.map.get(key);
    if (doc !== undefined || !this.snap) return doc;
    const i = this.locate(key);
    return i >= 0 ? this.at(i, true) : undefined;
  }

  set(key: string, doc: Doc): this {
    const i = this.snap && !this.map.has(key) ? this.locate(key) : -1;
    if (i >= 0) this.change(i, REPLACED, doc);
    else this.map.set(key, doc);
    return this;
  }

  delete(key: string): boolean {
    if (this.map.delete(key)) return true;
    const i = this.locate(key);
    if (i < 0) return false;
    this.change(i, DELETED);
    return true;
  }

  /**
   * The documents set or inserted since the snapshot was loaded (every document without one),
   * by _id key.
   */
  *changedSinceSnapshot(): Generator<[string, Doc]> {
    const s = this.snap;
    if (s) for (const [i, doc] of s.replaced) yield [this.snapshotKey(i), doc];
    yield* this.map.entries();
  }

  /** Builds the table from _id to position now (background warm-up); false when it was built. */
  decodeSome(): boolean {
    const s = this.snap;
    if (!s || s.table) return false;
    this.locateTable(s);
    return true;
  }

  /**
   * Indexes are about to be built from the documents: keep every decoded one until `unpin`
   * (each index build would otherwise decode the whole collection again).
   */
  pin(): void {
    if (this.snap && this.snap.live > 0) this.pinned ??= [];
  }

  /** Every index is built: the documents decoded for the builds are let go. */
  unpin(): void {
    this.pinned = undefined;
    this.pinning = 0;
  }

  /**
   * Decodes up to `n` more documents into the pinned ones (the background warm-up, before it
   * builds a collection's indexes, a slice per event-loop turn); false when all are.
   */
  pinSome(n: number): boolean {
    this.pin();
    const s = this.snap;
    if (!this.pinned || !s) return false;
    while (n > 0 && this.pinning < s.offsets.length) {
      if (this.snapshotDoc(this.pinning)) n--;
      this.pinning++;
    }
    return this.pinning < s.offsets.length;
  }

  /**
   * The document at position `i` of the snapshot, decoded (and pinned while indexes are built);
   * undefined when it has been set or removed since.
   */
  snapshotDoc(i: number): Doc | undefined {
    const state = this.snap!.state;
    if (state.length > 0 && state[i] === DELETED) return undefined;
    return this.at(i, false);
  }

  /**
   * The document at position `i` as the snapshot holds it, even if it was set or deleted since
   * (an index reading the snapshot's keys needs that version); decoded without being cached.
   */
  snapshotVersion(i: number): Doc {
    return this.cached(i, false);
  }

  /** The stored BSON of a snapshot document not set since the start (collStats sizes it as it is). */
  rawBytes(key: string): Uint8Array | undefined {
    const i = this.map.has(key) ? -1 : this.locate(key);
    if (i < 0 || !this.snapshotLive(i)) return undefined;
    const s = this.snap!;
    const off = s.offsets[i]!;
    return s.source.subarray(off, off + s.source.readInt32LE(off));
  }

  /**
   * The snapshot's document at `position` as set since the start, when it was (REPLACED);
   * undefined when it is unchanged or deleted.
   */
  replacedAt(position: number): Doc | undefined {
    return this.snap?.replaced.get(position);
  }

  /**
   * The snapshot position of the stored document with this _id key when it is one of the
   * snapshot's (unchanged or set since); -1 otherwise (inserted since, or absent).
   */
  snapshotPosition(key: string): number {
    return this.map.has(key) ? -1 : this.locate(key);
  }

  /** The documents inserted since the snapshot was loaded (every document without one), by _id key. */
  insertedEntries(): IterableIterator<[string, Doc]> {
    return this.map.entries();
  }

  /**
   * A snapshot document, from the caches or decoded; `keep`: a decoded one joins the cache of
   * recently read documents (scans of a whole collection do not, so they do not flush it).
   */
  private cached(i: number, keep: boolean): Doc {
    const pinned = this.pinned;
    let doc = pinned?.[i];
    if (doc) return doc;
    doc = this.young.get(i);
    if (doc) return doc;
    doc = this.old.get(i);
    if (doc) {
      this.old.delete(i);
      this.remember(i, doc);
      return doc;
    }
    const s = this.snap!;
    DECODE.index = s.offsets[i]!;
    doc = deserialize(s.source, DECODE) as Doc;
    if (pinned) pinned[i] = doc;
    else if (keep) this.remember(i, doc);
    return doc;
  }

  private remember(i: number, doc: Doc): void {
    if (this.young.size >= DocStore.cacheLimit) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(i, doc);
  }

  /** Snapshot documents held only as bytes (not decoded, or decoded and let go). */
  get undecoded(): number {
    return (this.snap?.live ?? 0) - this.decodedCount;
  }

  /** Snapshot documents decoded and kept (the caches, pinned ones while indexes are built). */
  get decodedCount(): number {
    let pinned = 0;
    if (this.pinned) for (const doc of this.pinned) if (doc) pinned++;
    return this.young.size + this.old.size + pinned;
  }

  /** Entries still held as bytes of the snapshot. */
  get rawCount(): number {
    return this.snap?.live ?? 0;
  }

  *keys(): Generator<string> {
    const s = this.snap;
    if (s && this.snapshotHeld)
      for (let i = 0; i < s.offsets.length; i++)
        if (s.state.length === 0 || s.state[i] !== DELETED) yield this.snapshotKey(i);
    yield* this.map.keys();
  }

  values(): IterableIterator<Doc> {
    if (!this.snapshotHeld) return this.map.values();
    return this.decodingValues();
  }

  entries(): IterableIterator<[string, Doc]> {
    if (!this.snapshotHeld) return this.map.entries();
    return this.decodingEntries();
  }

  [Symbol.iterator](): IterableIterator<[string, Doc]> {
    return this.entries();
  }

  // In natural order: the snapshot's documents where they were, then those inserted since.
  private *decodingValues(): Generator<Doc> {
    const s = this.snap!;
    for (let i = 0; i < s.offsets.length; i++)
      if (s.state.length === 0 || s.state[i] !== DELETED) yield this.at(i, false);
    yield* this.map.values();
  }

  private *decodingEntries(): Generator<[string, Doc]> {
    const s = this.snap!;
    for (let i = 0; i < s.offsets.length; i++)
      if (s.state.length === 0 || s.state[i] !== DELETED)
        yield [this.snapshotKey(i), this.at(i, false)];
    yield* this.map.entries();
  }
}
