/**
 * A collection's documents keyed by their _id key, in insertion order (a Map's interface).
 *
 * Documents loaded from a journal's snapshot section (see journal.ts) are kept as the byte
 * offset of their BSON in the journal image that was read at start, and decoded the first time
 * they are read (then kept decoded). A start therefore does not decode every document: it only
 * reads each one's _id. Every other read goes through `get` / `values` / `entries`, which decode.
 */
import { deserialize } from 'bson';
import type { Doc } from './values';

const DECODE = {
  promoteLongs: true,
  promoteValues: true,
  allowObjectSmallerThanBufferSize: true,
  index: 0,
};

export class DocStore {
  private readonly map = new Map<string, Doc | number>();
  /** The journal image that numeric entries point into. */
  private source?: Uint8Array;
  /** How many entries are still undecoded. */
  private raw = 0;
  /**
   * Keys set or deleted since the snapshot was loaded, while some index still has to be built
   * from the snapshot's key order (those documents are no longer where that order says).
   */
  changed?: Set<string>;
  private warm?: IterableIterator<[string, Doc | number]>;

  get size(): number {
    return this.map.size;
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  get(key: string): Doc | undefined {
    const v = this.map.get(key);
    if (typeof v !== 'number') return v;
    return this.decode(key, v);
  }

  set(key: string, doc: Doc): this {
    if (typeof this.map.get(key) === 'number') this.raw--;
    this.map.set(key, doc);
    this.changed?.add(key);
    return this;
  }

  delete(key: string): boolean {
    const v = this.map.get(key);
    if (v === undefined) return false;
    if (typeof v === 'number') this.raw--;
    this.map.delete(key);
    this.changed?.add(key);
    return true;
  }

  /**
   * Stores an undecoded document: its BSON starts at `offset` of `source` (the same image for
   * every call). Returns false, storing nothing, when `source` is another image.
   */
  setRaw(key: string, source: Uint8Array, offset: number): boolean {
    if (this.source && this.source !== source) return false;
    this.source = source;
    const size = this.map.size;
    this.map.set(key, offset);
    if (this.map.size !== size) this.raw++;
    // Replaced an entry (never in a well-formed snapshot): count again.
    else this.raw = [...this.map.values()].filter((v) => typeof v === 'number').length;
    return true;
  }

  /** The stored BSON of a document not decoded yet (compaction copies it as it is). */
  rawBytes(key: string): Uint8Array | undefined {
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

  get undecoded(): number {
    return this.raw;
  }

  keys(): IterableIterator<string> {
    return this.map.keys();
  }

  values(): IterableIterator<Doc> {
    if (this.raw === 0) return this.map.values() as IterableIterator<Doc>;
    return this.decodingValues();
  }

  entries(): IterableIterator<[string, Doc]> {
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
