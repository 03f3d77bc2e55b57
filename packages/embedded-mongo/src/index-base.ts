/**
 * An index's keys as the journal's snapshot holds them, read where they lie instead of being
 * rebuilt as JavaScript objects at start (see Index and the README's "Snapshot").
 *
 * The snapshot lists, for each index that is not multikey, the position of each key's document
 * in the snapshot, in index order (an `indexOrder` record). That list is the index: its n-th key
 * is read from the n-th document's BSON bytes, which stay in the journal image read at start.
 * A search is a binary search over every FENCE-th key (read once, kept as objects: the only keys
 * held in V8's heap) and then among at most FENCE − 1 keys read from the bytes; a scan walks the
 * positions and reads a key only where it has to compare one. A document changed or removed
 * since the snapshot no longer has its key here (the caller skips it: see `live`); its key as it
 * is now lives in the index's B-tree of later changes.
 */
import { ObjectId } from 'bson';
import type { DocStore } from './doc-store';

export type IndexKey = unknown[]; // [...field values, _id key]

/**
 * Every how many keys one is kept as an object for the binary search. On the 100k dataset (9.8M
 * keys in 59 indexes) reading the fences is most of a restart's warm-up: 8 took 2.7 s of CPU, 16
 * took 1.0 s, 32 about half of that, and a search then reads at most 5 keys from bytes, with no
 * measurable cost per query (bench:snapshot-reads; BENCHMARKS.md as of commit c4c8fbc).
 */
export const FENCE = 32;

export class SnapshotBase {
  private fences?: IndexKey[];

  constructor(
    /** Snapshot positions of the keys' documents, in index order. */
    private readonly order: Uint32Array,
    private readonly docs: DocStore,
    /** The index key of the snapshot document at a position, as the snapshot holds it. */
    private readonly keyOf: (position: number) => IndexKey,
    private readonly cmp: (a: IndexKey, b: IndexKey) => number,
    /** cmp(keyOf(position), k), without making the key (its _id key only on a tie). */
    private readonly compareAt: (position: number, k: IndexKey) => number,
  ) {}

  get length(): number {
    return this.order.length;
  }

  key(i: number): IndexKey {
    return this.keyOf(this.order[i]!);
  }

  /** The snapshot position of the i-th key's document. */
  position(i: number): number {
    return this.order[i]!;
  }

  /** The _id key of the i-th key's document. */
  id(i: number): string {
    return this.docs.snapshotKey(this.order[i]!);
  }

  /** Whether the i-th key is still its document's (not changed or removed since the snapshot). */
  live(i: number): boolean {
    return this.docs.snapshotLive(this.order[i]!);
  }

  get warm(): boolean {
    return this.fences !== undefined;
  }

  /** Reads every FENCE-th key (the background warm-up, or the first search). */
  warmUp(): void {
    if (this.fences) return;
    const fences: IndexKey[] = [];
    for (let i = 0; i < this.order.length; i += FENCE) fences.push(this.key(i));
    this.fences = fences;
  }

  /** The first position whose key is ≥ `k` (`after`: > `k`); `length` when there is none. */
  search(k: IndexKey, after: boolean): number {
    this.warmUp();
    const fences = this.fences!;
    const cmp = this.cmp;
    const before = after ? (x: IndexKey) => cmp(x, k) <= 0 : (x: IndexKey) => cmp(x, k) < 0;
    let lo = 0;
    let hi = fences.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(fences[mid]!)) lo = mid + 1;
      else hi = mid;
    }
    // The answer lies after fence lo − 1 and at or before fence lo.
    let a = lo === 0 ? 0 : (lo - 1) * FENCE + 1;
    let b = Math.min(this.order.length, lo * FENCE);
    const order = this.order;
    const compareAt = this.compareAt;
    while (a < b) {
      const mid = (a + b) >>> 1;
      const c = compareAt(order[mid]!, k);
      if (after ? c <= 0 : c < 0) a = mid + 1;
      else b = mid;
    }
    return a;
  }
}

const MISSING = Symbol('missing');
/** ObjectId's constructor from 12 bytes at an offset (as the decoder calls it; not in its types). */
const ObjectIdAt = ObjectId as unknown as new (bytes: Uint8Array, offset: number) => ObjectId;
const TWO_32 = 4294967296;

/**
 * The values of top-level fields `names` (UTF-8 bytes each) of the BSON document at `off` of
 * `b`, as the decoder would give them (missing or undefined: null), into `out`; false when one
 * of them has a type read here only by decoding the whole document (a document, an array,
 * binary data, a decimal...). Skips the other fields without reading them.
 */
export function readTopLevel(b: Buffer, off: number, names: Buffer[], out: unknown[]): boolean {
  const n = names.length;
  for (let i = 0; i < n; i++) out[i] = MISSING;
  let found = 0;
  const end = off + b.readInt32LE(off) - 1;
  let p = off + 4;
  while (p < end && found < n) {
    const type = b[p]!;
    const nameStart = p + 1;
    let nameEnd = nameStart;
    while (nameEnd < end && b[nameEnd] !== 0) nameEnd++;
    if (nameEnd >= end) return false;
    const v = nameEnd + 1;
    const length = nameEnd - nameStart;
    let which = -1;
    for (let i = 0; i < n && which < 0; i++) {
      const name = names[i]!;
      if (name.length !== length || out[i] !== MISSING) continue;
      let j = 0;
      while (j < length && name[j] === b[nameStart + j]) j++;
      if (j === length) which = i;
    }
    let size: number;
    let value: unknown;
    switch (type) {
      case 0x01:
        size = 8;
        if (which >= 0) value = b.readDoubleLE(v);
        break;
      case 0x02:
        size = 4 + b.readInt32LE(v);
        if (which >= 0) value = b.toString('utf8', v + 4, v + size - 1);
        break;
      case 0x07:
        size = 12;
        if (which >= 0) value = new ObjectIdAt(b, v);
        break;
      case 0x08:
        size = 1;
        if (which >= 0) value = b[v] === 1;
        break;
      case 0x09:
        size = 8;
        if (which >= 0) value = new Date(b.readInt32LE(v + 4) * TWO_32 + b.readUInt32LE(v));
        break;
      case 0x06: // undefined
      case 0x0a:
        size = 0;
        if (which >= 0) value = null;
        break;
      case 0x10:
        size = 4;
        if (which >= 0) value = b.readInt32LE(v);
        break;
      case 0x12: {
        size = 8;
        if (which >= 0) {
          const x = b.readInt32LE(v + 4) * TWO_32 + b.readUInt32LE(v);
          // Beyond 2^53 the decoder gives a Long: decode the document instead.
          if (!Number.isSafeInteger(x)) return false;
          value = x;
        }
        break;
      }
      case 0x03:
      case 0x04:
      case 0x0f:
        if (which >= 0) return false;
        size = b.readInt32LE(v);
        break;
      case 0x05:
        if (which >= 0) return false;
        size = 5 + b.readInt32LE(v);
        break;
      case 0x0d:
      case 0x0e:
        if (which >= 0) return false;
        size = 4 + b.readInt32LE(v);
        break;
      case 0x11:
        if (which >= 0) return false;
        size = 8;
        break;
      case 0x13:
        if (which >= 0) return false;
        size = 16;
        break;
      case 0x0b: {
        if (which >= 0) return false;
        const e1 = b.indexOf(0, v);
        const e2 = e1 < 0 ? -1 : b.indexOf(0, e1 + 1);
        if (e2 < 0 || e2 >= end) return false;
        size = e2 + 1 - v;
        break;
      }
      case 0x0c:
        if (which >= 0) return false;
        size = 4 + b.readInt32LE(v) + 12;
        break;
      case 0xff:
      case 0x7f:
        if (which >= 0) return false;
        size = 0;
        break;
      default:
        return false;
    }
    if (which >= 0) {
      out[which] = value;
      found++;
    }
    p = v + size;
  }
  for (let i = 0; i < n; i++) if (out[i] === MISSING) out[i] = null;
  return true;
}
