/**
 * A collection's documents keyed by their _id key, in insertion order (a Map's interface).
 *
 * Documents loaded from a journal's snapshot section (see journal.ts) are kept as the byte
 * offset of their BSON in the journal image that was read at start, and decoded the first time
 * they are read (then kept decoded). A start does not even read their _ids: the offsets are
 * listed (`addLazy`), and the first use of the collection (or the background warm-up) reads
 * each _id from the bytes and fills the map. Every read goes through `get` / `values` /
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
  /** How many entries are still undecoded. */
  private raw = 0;
  /**
   * Keys set or deleted since the snapshot was loaded, while some index still has to be built
   * from the snapshot's key order (those documents are no longer where that order says).
   */
  changed?: Set<string>;
  private warm?: IterableIterator<[string, Doc | number]>;

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
    return this.decode(key, v);
  }

  set(key: string, doc: Doc): this {
    if (this.lazy) this.materialize();
    if (typeof this.map.get(key) === 'number') this.raw--;
    this.map.set(key, doc);
    this.changed?.add(key);
    return this;
  }

  delete(key: string): boolean {
    if (this.lazy) this.materialize();
    const v = this.map.get(key);
    if (v === undefined) return false;
    if (typeof v === 'number') this.raw--;
    this.map.delete(key);
    this.changed?.add(key);
    return true;
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
    for (const off of offsets) {
      let key = rawIdKey(source, off);
      if (key === undefined) {
        DECODE.index = off;
        const doc = deserialize(source, DECODE) as Doc;
        key = valueKey(doc._id);
        this.map.set(key, doc);
      } else this.setRaw(key, source, off);
      keys.push(key);
    }
    if (this.raw === 0) this.source = undefined;
  }

  /** The snapshot's _id keys in its order (see ordinalKeys). */
  snapshotKeys(): string[] | undefined {
    if (this.lazy) this.materialize();
    return this.ordinalKeys;
  }

  /** No index will be built from the snapshot's order any more. */
  endSnapshot(): void {
    this.changed = undefined;
    this.ordinalKeys = undefined;
  }

  private setRaw(key: string, source: Buffer, offset: number): void {
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

  private decode(key: string, offset: number): Doc {
    DECODE.index = offset;
    const doc = deserialize(this.source as Uint8Array, DECODE) as Doc;
    this.map.set(key, doc);
    if (--this.raw === 0) this.source = undefined;
    return doc;
  }

  /** Decodes up to `n` undecoded documents (background warm-up); false when none is left. */
  decodeSome(n: number): boolean {
    if (this.lazy) {
      // The first slice of a collection's warm-up reads its _ids.
      this.materialize();
      return this.raw > 0;
    }
    if (this.raw === 0) return false;
    // A Map iterator stays valid while the map changes; it resumes where the last call stopped.
    this.warm ??= this.map.entries();
    while (n > 0 && this.raw > 0) {
      const next = this.warm.next();
      if (next.done) {
        this.warm = this.map.entries();
        continue;
      }
      const [k, v] = next.value;
      if (typeof v !== 'number') continue;
      this.decode(k, v);
      n--;
    }
    if (this.raw === 0) this.warm = undefined;
    return this.raw > 0;
  }

  /** Documents not decoded yet (including those not in the map yet). */
  get undecoded(): number {
    return this.raw + (this.lazy?.length ?? 0);
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
    for (const [k, v] of this.map) yield typeof v === 'number' ? this.decode(k, v) : v;
  }

  private *decodingEntries(): Generator<[string, Doc]> {
    for (const [k, v] of this.map) yield [k, typeof v === 'number' ? this.decode(k, v) : v];
  }
}
