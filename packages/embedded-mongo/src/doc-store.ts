/**
 * A collection's documents keyed by their _id key, in insertion order (a Map's interface).
 *
 * Documents loaded from a journal's snapshot section (see journal.ts) stay the byte offset of
 * their BSON in the journal image that was read at start, for as long as nobody changes them.
 * A read decodes such a document and keeps the result in a bounded cache of recently read
 * documents (two generations of at most `DocStore.cacheLimit` documents each: a hit in the older
 * one moves the document to the younger; when the younger is full it becomes the older and the
 * oldest are dropped), so a server holding millions of documents keeps only the ones in use as
 * JavaScript objects: the rest stay bytes outside V8's heap, which every major GC would
 * otherwise walk. Documents inserted or changed while running are kept as objects.
 *
 * A start does not even read the snapshot's _ids: the offsets are listed (`addLazy`), and the
 * first use of the collection (or the background warm-up) reads each _id from the bytes and
 * fills the map. While a collection's indexes are being built from the snapshot (see `pin`),
 * every decoded document is kept, so that building several indexes decodes each document once;
 * they are let go when the last one is built. Every read goes through `get` / `values` /
 * `entries`, which decode.
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

export class DocStore {
  /**
   * How many decoded snapshot documents each collection keeps per generation (see the class
   * comment): at most twice as many are held.
   */
  static cacheLimit = 10_000;

  private readonly map = new Map<string, Doc | number>();
  /** The journal image that numeric entries point into. */
  private source?: Buffer;
  /** Snapshot documents listed but not in the map yet (their offsets in `source`). */
  private lazy?: number[];
  /**
   * The _id keys of the snapshot's documents in the order it holds them (what its index orders
   * refer to), while an index may still be built from such an order (`endSnapshot` drops it).
   */
  ordinalKeys?: string[];
  /** How many entries are bytes in `source`. */
  private raw = 0;
  /**
   * Keys set or deleted since the snapshot was loaded, while some index still has to be built
   * from the snapshot's key order (those documents are no longer where that order says).
   */
  changed?: Set<string>;
  /** Recently decoded snapshot documents (see the class comment). */
  private young = new Map<string, Doc>();
  private old = new Map<string, Doc>();
  /**
   * Where each snapshot document's BSON starts in `source`, in the snapshot's order (the order
   * `ordinalKeys` lists their _ids in, and so ascending). Kept while `ordinalKeys` is.
   */
  private ordinalOffsets?: number[];
  /** Positions of snapshot documents decoded when listed (their _id not readable from bytes). */
  private listedDecoded?: Set<number>;
  /**
   * Every decoded snapshot document by its position in the snapshot, while indexes are built
   * (see `pin`): index builds walk the snapshot's order by position, with no lookup by _id.
   */
  private pinned?: (Doc | undefined)[];
  /** How far `pinSome` has decoded (a position in the snapshot's order). */
  private pinning = 0;

  get size(): number {
    // Listed snapshot documents count without being read (a snapshot holds each _id once).
    return this.map.size + (this.lazy?.length ?? 0);
  }

  has(key: string): boolean {
    if (this.lazy) this.materialize();
    return this.map.has(key);
  }

  get(key: string): Doc | undefined {
    if (this.lazy) this.materialize();
    const v = this.map.get(key);
    if (typeof v !== 'number') return v;
    return this.cached(key, v, true);
  }

  set(key: string, doc: Doc): this {
    if (this.lazy) this.materialize();
    const v = this.map.get(key);
    if (typeof v === 'number') this.forget(key, v);
    this.map.set(key, doc);
    this.changed?.add(key);
    return this;
  }

  delete(key: string): boolean {
    if (this.lazy) this.materialize();
    const v = this.map.get(key);
    if (v === undefined) return false;
    if (typeof v === 'number') this.forget(key, v);
    this.map.delete(key);
    this.changed?.add(key);
    return true;
  }

  /** A snapshot document's entry is replaced or removed: its bytes and decoded copies go. */
  private forget(key: string, offset: number): void {
    this.young.delete(key);
    this.old.delete(key);
    if (this.pinned) {
      const i = this.ordinalOf(offset);
      if (i >= 0) this.pinned[i] = undefined;
    }
    if (--this.raw === 0) this.dropSource();
  }

  /**
   * No entry is bytes any more: the decoded copies go, and the image too unless an index still
   * reads its keys from the snapshot (`endSnapshot` lets it go then).
   */
  private dropSource(): void {
    if (!this.ordinalOffsets) this.source = undefined;
    this.young.clear();
    this.old.clear();
    this.pinned = undefined;
  }

  /** The snapshot position of the document stored at `offset` (binary search); -1 if none. */
  private ordinalOf(offset: number): number {
    const offsets = this.ordinalOffsets;
    if (!offsets) return -1;
    let lo = 0;
    let hi = offsets.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const o = offsets[mid]!;
      if (o === offset) return mid;
      if (o < offset) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * Lists a snapshot document (its BSON starts at `offset` of `source`, the same image for every
   * call), to be stored undecoded at the collection's first use. False when `source` is another
   * image (nothing is listed).
   */
  addLazy(source: Buffer, offset: number): boolean {
    if (this.source && this.source !== source) return false;
    this.source = source;
    (this.lazy ??= []).push(offset);
    return true;
  }

  /** Puts the listed snapshot documents in the map (their _ids read from their bytes). */
  private materialize(): void {
    const offsets = this.lazy as number[];
    const source = this.source as Buffer;
    this.lazy = undefined;
    const keys = (this.ordinalKeys ??= []);
    const positions = (this.ordinalOffsets ??= []);
    for (const off of offsets) {
      let key = rawIdKey(source, off);
      if (key === undefined) {
        DECODE.index = off;
        const doc = deserialize(source, DECODE) as Doc;
        key = valueKey(doc._id);
        this.map.set(key, doc);
        (this.listedDecoded ??= new Set()).add(positions.length);
      } else this.setRaw(key, off);
      positions.push(off);
      keys.push(key);
    }
    if (this.raw === 0) this.dropSource();
  }

  /** The snapshot's _id keys in its order (see ordinalKeys). */
  snapshotKeys(): string[] | undefined {
    if (this.lazy) this.materialize();
    return this.ordinalKeys;
  }

  /**
   * Indexes are about to be built from the documents: keep every decoded one until
   * `endSnapshot` (each index build would otherwise decode the whole collection again).
   */
  pin(): void {
    if (this.lazy) this.materialize();
    if (this.raw > 0 && this.ordinalOffsets) this.pinned ??= [];
  }

  /**
   * Decodes up to `n` more documents into the pinned ones (the background warm-up, before it
   * builds a collection's indexes, a slice per event-loop turn); false when all are.
   */
  pinSome(n: number): boolean {
    this.pin();
    const offsets = this.ordinalOffsets;
    if (!this.pinned || !offsets) return false;
    while (n > 0 && this.pinning < offsets.length) {
      if (this.snapshotDoc(this.pinning, undefined)) n--;
      this.pinning++;
    }
    return this.pinning < offsets.length;
  }

  /**
   * The document at position `i` of the snapshot's order (see ordinalKeys), decoded (and pinned
   * while indexes are built); undefined when it has been changed or removed since. `key` is its
   * _id key when the caller has it.
   */
  snapshotDoc(i: number, key: string | undefined): Doc | undefined {
    const pinned = this.pinned;
    let doc = pinned?.[i];
    if (doc) return doc;
    const offsets = this.ordinalOffsets;
    const off = offsets?.[i];
    key ??= this.ordinalKeys?.[i];
    if (off === undefined || key === undefined) return undefined;
    // Changed since the snapshot (recorded in `changed` once an index order was read), or
    // decoded when listed: the map holds what is there now.
    const changed = this.changed;
    if (!changed || changed.has(key) || this.listedDecoded?.has(i)) return this.get(key);
    doc = this.young.get(key) ?? this.old.get(key);
    if (!doc) {
      DECODE.index = off;
      doc = deserialize(this.source as Uint8Array, DECODE) as Doc;
    }
    if (pinned) pinned[i] = doc;
    return doc;
  }

  /** Every index is built: the documents decoded for the builds are let go. */
  unpin(): void {
    this.pinned = undefined;
    this.pinning = 0;
  }

  /**
   * No index will be built from the snapshot's order or read its keys from the snapshot any
   * more: the order's bookkeeping goes, and the image once no entry is bytes of it.
   */
  endSnapshot(): void {
    this.unpin();
    this.changed = undefined;
    this.ordinalKeys = undefined;
    this.ordinalOffsets = undefined;
    this.listedDecoded = undefined;
    if (this.raw === 0) this.source = undefined;
  }

  /** How many documents the snapshot listed (what its index orders' positions refer to). */
  get snapshotCount(): number {
    return this.lazy?.length ?? this.ordinalOffsets?.length ?? 0;
  }

  /** The _id key of the snapshot's document at `position` (see ordinalKeys). */
  snapshotKey(position: number): string {
    if (this.lazy) this.materialize();
    return this.ordinalKeys![position]!;
  }

  /** Where the snapshot's document at `position` starts in `snapshotImage`. */
  snapshotOffset(position: number): number {
    if (this.lazy) return this.lazy[position]!;
    return this.ordinalOffsets![position]!;
  }

  /** The journal image the snapshot's documents are bytes of. */
  get snapshotImage(): Buffer | undefined {
    return this.source;
  }

  /** Whether the document with this _id key was set or deleted since the snapshot was loaded. */
  changedSinceSnapshot(key: string): boolean {
    const changed = this.changed;
    return changed !== undefined && changed.size > 0 && changed.has(key);
  }

  private setRaw(key: string, offset: number): void {
    const size = this.map.size;
    this.map.set(key, offset);
    if (this.map.size !== size) this.raw++;
    // Replaced an entry (never in a well-formed snapshot): count again.
    else this.raw = [...this.map.values()].filter((v) => typeof v === 'number').length;
  }

  /** The stored BSON of a document not decoded yet (compaction copies it as it is). */
  rawBytes(key: string): Uint8Array | undefined {
    if (this.lazy) this.materialize();
    const v = this.map.get(key);
    if (typeof v !== 'number' || !this.source) return undefined;
    const s = this.source;
    const len = s[v]! | (s[v + 1]! << 8) | (s[v + 2]! << 16) | (s[v + 3]! << 24);
    return s.subarray(v, v + len);
  }

  /**
   * A snapshot document, from the caches or decoded; `keep`: a decoded one joins the cache of
   * recently read documents (scans of a whole collection do not, so they do not flush it).
   */
  private cached(key: string, offset: number, keep: boolean): Doc {
    let doc = this.young.get(key);
    if (doc) return doc;
    doc = this.old.get(key);
    if (doc) {
      this.old.delete(key);
      this.remember(key, doc);
      return doc;
    }
    const pinned = this.pinned;
    const i = pinned ? this.ordinalOf(offset) : -1;
    if (i >= 0) {
      doc = pinned![i];
      if (doc) return doc;
    }
    DECODE.index = offset;
    doc = deserialize(this.source as Uint8Array, DECODE) as Doc;
    if (i >= 0) pinned![i] = doc;
    else if (keep) this.remember(key, doc);
    return doc;
  }

  private remember(key: string, doc: Doc): void {
    if (this.young.size >= DocStore.cacheLimit) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, doc);
  }

  /** Reads the snapshot's _ids (background warm-up); false when there were none to read. */
  decodeSome(): boolean {
    if (!this.lazy) return false;
    this.materialize();
    return true;
  }

  /** Snapshot documents held only as bytes (not decoded, or decoded and let go). */
  get undecoded(): number {
    return (this.lazy?.length ?? 0) + this.raw - this.decodedCount;
  }

  /** Snapshot documents decoded and kept (the caches, pinned ones while indexes are built). */
  get decodedCount(): number {
    let pinned = 0;
    if (this.pinned) for (const doc of this.pinned) if (doc) pinned++;
    return this.young.size + this.old.size + pinned;
  }

  /** Entries still held as bytes of the snapshot. */
  get rawCount(): number {
    return this.raw;
  }

  keys(): IterableIterator<string> {
    if (this.lazy) this.materialize();
    return this.map.keys();
  }

  values(): IterableIterator<Doc> {
    if (this.lazy) this.materialize();
    if (this.raw === 0) return this.map.values() as IterableIterator<Doc>;
    return this.decodingValues();
  }

  entries(): IterableIterator<[string, Doc]> {
    if (this.lazy) this.materialize();
    if (this.raw === 0) return this.map.entries() as IterableIterator<[string, Doc]>;
    return this.decodingEntries();
  }

  [Symbol.iterator](): IterableIterator<[string, Doc]> {
    return this.entries();
  }

  private *decodingValues(): Generator<Doc> {
    for (const [k, v] of this.map) yield typeof v === 'number' ? this.cached(k, v, false) : v;
  }

  private *decodingEntries(): Generator<[string, Doc]> {
    for (const [k, v] of this.map) yield [k, typeof v === 'number' ? this.cached(k, v, false) : v];
  }
}
