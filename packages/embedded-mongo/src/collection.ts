/**
 * One collection: documents in insertion order keyed by _id, plus its indexes. Unique indexes
 * reject duplicates with mongod's E11000 error; every index (single or compound) also serves the
 * query planner (see planner.ts) through its keys in order: an ordered B-tree of them or, after a
 * start from a snapshot, the snapshot's keys read where they lie plus a B-tree of later changes.
 */
import os from 'node:os';
import BTree from 'sorted-btree';
import { bulkLoad } from 'sorted-btree/extended/bulkLoad';
import { MaxKey, MinKey, ObjectId } from 'bson';
import { Query } from './mingo';
import { serverError } from './errors';
import { DocStore } from './doc-store';
import { readTopLevel, SnapshotBase, type IndexKey } from './index-base';
import { compareValues, valueKey, valuesAtPath, isPlainObject, type Doc } from './values';
import { isTextIndexKey, TextSpec } from './text/spec';
import { checkCollation, collatorFor, displayCollation, type Collator } from './collation';
import { TextPostings, type Postings, type TextEntries } from './text/postings';

export interface IndexSpec {
  name: string;
  key: Record<string, unknown>;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Doc;
  [option: string]: unknown;
}

export type { IndexKey } from './index-base';

/**
 * Where each document of a collection goes among the documents a new snapshot writes: by
 * position in the loaded snapshot (-1: not written there) for its unchanged documents, else by
 * _id key (see Index.order).
 */
export interface SnapshotOrdinals {
  byPosition?: Int32Array;
  of(id: string): number | undefined;
}

const MIN = new MinKey();
const MAX = new MaxKey();

export class Index {
  readonly fields: Array<{ path: string[]; name: string; dir: 1 | -1 }>;
  /**
   * The keys, or, with a `base`, the keys of documents changed or inserted since the snapshot
   * the base reads (the base's keys of those documents are skipped as no longer live).
   */
  private _tree: BTree<IndexKey, true>;
  /**
   * After a start from a snapshot: the keys as the snapshot holds them, read from its bytes
   * (see index-base.ts), instead of a B-tree of every key built at start.
   */
  private base?: SnapshotBase;
  /** For unique indexes: value key -> _id key of its one owner (in `_tree`, not in `base`). */
  private readonly owners = new Map<string, string>();
  private readonly partial?: Query;
  private _multikey = false;
  /**
   * Not ready yet (after a start): made ready the first time the index is used (or by the
   * background warm-up); until then it needs no maintenance, since it is made from the documents
   * as they are then. `order`: the snapshot's record of the index (see `order`), from which it
   * reads its keys (see `base`); without one it is built from the documents. `done` is told once
   * it is ready.
   */
  protected pending?: { docs: DocStore; order?: Uint8Array; done: () => void };
  /** How the index was last made (for tests). */
  builtFrom?: 'snapshot base' | 'sort';
  /** Key order read from the journal's snapshot, waiting for `defer`. */
  snapshotOrder?: Uint8Array;

  /** The index's collation (see collation.ts); undefined: binary. */
  readonly collator?: Collator;
  /** Compares two values of an indexed field, in the index's order (its collation's). */
  readonly compareValue: (a: unknown, b: unknown) => number;
  /**
   * Whether keys must be unique: a unique index, or the `_id` index of a collection with a
   * collation (binary duplicates of `_id` are refused by the collection itself).
   */
  private readonly enforcesUnique: boolean;

  constructor(
    readonly spec: IndexSpec,
    private readonly ns: string,
  ) {
    this.fields = Object.entries(spec.key).map(([name, dir]) => ({
      name,
      path: name.split('.'),
      dir: dir === -1 ? -1 : 1,
    }));
    const fields = this.fields;
    this.collator = indexCollator(spec.collation);
    // Stored as mongod reports it (a spec journaled before collations were implemented).
    if (this.collator) spec.collation = this.collator.spec;
    const collated = this.collator?.compare;
    this.compareValue = collated ?? compareValues;
    this.enforcesUnique = spec.unique === true || (spec.name === '_id_' && collated !== undefined);
    this._tree = new BTree<IndexKey, true>(
      undefined,
      collated
        ? (a, b) => {
            for (let i = 0; i < fields.length; i++) {
              const c = collated(a[i], b[i]);
              if (c !== 0) return c * (fields[i] as { dir: number }).dir;
            }
            const ia = a[fields.length] as string;
            const ib = b[fields.length] as string;
            return ia < ib ? -1 : ia > ib ? 1 : 0;
          }
        : (a, b) => {
            for (let i = 0; i < fields.length; i++) {
              const c = compareValues(a[i], b[i]);
              if (c !== 0) return c * (fields[i] as { dir: number }).dir;
            }
            const ia = a[fields.length] as string;
            const ib = b[fields.length] as string;
            return ia < ib ? -1 : ia > ib ? 1 : 0;
          },
    );
    if (spec.partialFilterExpression) this.partial = new Query(spec.partialFilterExpression);
    this.topLevel = this.fields.every((f) => f.path.length === 1);
    this.names = this.topLevel ? this.fields.map((f) => Buffer.from(f.name)) : undefined;
  }

  /** The indexed fields' names as bytes, when all are top-level (read from the snapshot). */
  private readonly names?: Buffer[];

  /** Whether every indexed field is a top-level one. */
  private readonly topLevel: boolean;

  get name(): string {
    return this.spec.name;
  }

  /** The B-tree of keys (of later changes only, with a base: see `_tree`). */
  private get tree(): BTree<IndexKey, true> {
    if (this.pending) this.buildPending();
    return this._tree;
  }

  /**
   * One step of the background warm-up for an index that reads the snapshot: the index made
   * ready (cheap), or its fences read. False when there was nothing of that kind to do.
   */
  warmBase(): boolean {
    if (this.pending?.order && this.pending.docs.snapshotCount > 0) {
      this.buildPending();
      return true;
    }
    if (this.base && !this.base.warm) {
      this.base.warmUp();
      return true;
    }
    return false;
  }

  /** Whether some document holds an array in an indexed field (known once built). */
  get multikey(): boolean {
    if (this.pending) this.buildPending();
    return this._multikey;
  }

  get built(): boolean {
    return this.pending === undefined;
  }

  /** Leaves the index to be built from `docs` on first use (see `pending`). */
  defer(docs: DocStore, done: () => void): void {
    this.pending = { docs, order: this.snapshotOrder, done };
    this.snapshotOrder = undefined;
  }

  /** Dropped before it was built: nothing to build. */
  abandon(): void {
    const p = this.pending;
    this.pending = undefined;
    this.base = undefined;
    p?.done();
  }

  /** Builds a deferred index now (or sets it up to read the snapshot's keys: see `base`). */
  buildPending(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    if (!(p.order && this.readSnapshot(p.docs, p.order))) {
      // The collection's other indexes are built from the same decoded documents.
      p.docs.pin();
      this.build(p.docs);
    }
    p.done();
  }

  /**
   * Serves the keys of documents unchanged since the snapshot from it (`order`: its record of
   * this index, see `order`), and puts the keys of the others in the B-tree; false when the
   * record does not fit the snapshot's documents (then the index is built).
   */
  private readSnapshot(docs: DocStore, order: Uint8Array): boolean {
    const count = docs.snapshotCount;
    const image = docs.snapshotImage;
    if (!image || count === 0 || order.byteLength % 4 !== 0) return false;
    const positions = new Uint32Array(order.byteLength / 4);
    new Uint8Array(positions.buffer).set(order);
    if (os.endianness() === 'BE') Buffer.from(positions.buffer).swap32();
    for (let i = 0; i < positions.length; i++) if (positions[i]! >= count) return false;
    const names = this.names;
    const values: unknown[] = [];
    const keyOf = (position: number): IndexKey => {
      const off = docs.snapshotOffset(position);
      const id = docs.snapshotKey(position);
      if (names && readTopLevel(image, off, names, values)) {
        const k = values.slice(0, names.length);
        k.push(id);
        return k;
      }
      // A type read only by decoding: the snapshot's version of the document.
      const t = this.tuples(docs.snapshotVersion(position))[0] ?? [];
      t.push(id);
      return t;
    };
    const cmp = this._tree._compare;
    const fields = this.fields;
    const n = fields.length;
    const compareValue = this.compareValue;
    const compareAt = (position: number, k: IndexKey): number => {
      if (!names || !readTopLevel(image, docs.snapshotOffset(position), names, values))
        return cmp(keyOf(position), k);
      for (let i = 0; i < n; i++) {
        const c = compareValue(values[i], k[i]);
        if (c !== 0) return c * fields[i]!.dir;
      }
      const id = docs.snapshotKey(position);
      const other = k[n] as string;
      return id < other ? -1 : id > other ? 1 : 0;
    };
    this.base = new SnapshotBase(positions, docs, keyOf, cmp, compareAt);
    this.builtFrom = 'snapshot base';
    // What the journal's tail changed after the snapshot (and what changed since the start).
    for (const [id, doc] of docs.changedSinceSnapshot()) this.add(doc, id);
    return true;
  }

  /**
   * The snapshot's record of this index: for each key in index order, the ordinal of its
   * document among those a new snapshot writes (see `SnapshotOrdinals`); undefined for a
   * multikey index (a document has several keys) or when a key's document is not there.
   *
   * The keys read from the loaded snapshot (the base) are walked by position, their ordinals
   * looked up by position without making their _id keys; each later change's key is placed
   * among them by a search, as `scan` does.
   */
  order(ordinals: SnapshotOrdinals): Uint32Array | undefined {
    if (this.multikey) return undefined;
    const tree = this.tree;
    const base = this.base;
    const n = this.fields.length;
    const out = new Uint32Array((base?.length ?? 0) + tree.size);
    let m = 0;
    const [lo, hi] = this.bounds([]);
    let j = 0; // how far the base is written
    const baseUpTo = (stop: number): boolean => {
      const byPosition = ordinals.byPosition;
      for (; j < stop; j++) {
        const p = base!.position(j);
        if (!base!.live(j)) continue;
        const o = byPosition ? byPosition[p]! : -1;
        if (o < 0) return false;
        out[m++] = o;
      }
      return true;
    };
    for (const k of treeKeys(tree, lo, hi, false)) {
      if (base && !baseUpTo(base.search(k, false))) return undefined;
      const o = ordinals.of(k[n] as string);
      if (o === undefined) return undefined;
      out[m++] = o;
    }
    if (base && !baseUpTo(base.length)) return undefined;
    return out.subarray(0, m);
  }

  /** Every key in index order (tests compare them with a build from scratch). */
  keys(): Generator<IndexKey> {
    const [lo, hi] = this.bounds([]);
    return this.scanKeys(lo, hi, false);
  }

  /** Whether the index has a partial filter (it holds only the documents that pass it). */
  get hasPartialFilter(): boolean {
    return this.partial !== undefined;
  }

  /**
   * Whether the index holds every document (usable by the planner for any query whose
   * collation it is compatible with: see planner.ts).
   */
  get complete(): boolean {
    return !this.spec.sparse && !this.partial;
  }

  protected covers(doc: Doc): boolean {
    if (this.partial && !this.partial.test(doc)) return false;
    if (this.spec.sparse)
      return this.fields.some((f) => valuesAtPath(doc, f.path).some((v) => v !== undefined));
    return true;
  }

  /**
   * The one key of a document whose indexed fields are top-level and hold no array, `id` last,
   * in an array of exactly its size (index builds make millions); undefined otherwise.
   */
  private simpleKey(doc: Doc, id: string): IndexKey | undefined {
    const f = this.fields;
    const n = f.length;
    if (!this.topLevel) return undefined;
    const a = doc[f[0]!.name];
    if (Array.isArray(a)) return undefined;
    if (n === 1) return [a ?? null, id];
    const b = doc[f[1]!.name];
    if (Array.isArray(b)) return undefined;
    if (n === 2) return [a ?? null, b ?? null, id];
    const c = doc[f[2]!.name];
    if (Array.isArray(c)) return undefined;
    if (n === 3) return [a ?? null, b ?? null, c ?? null, id];
    return undefined;
  }

  /** Every key tuple the document produces (several when a field holds an array). */
  tuples(doc: Doc): unknown[][] {
    // The common case first: top-level fields, none holding an array, make one tuple.
    const simple: unknown[] = [];
    for (const f of this.fields) {
      if (f.path.length !== 1) break;
      const v = doc[f.name];
      if (Array.isArray(v)) break;
      simple.push(v === undefined ? null : v);
    }
    if (simple.length === this.fields.length) return [simple];
    let tuples: unknown[][] = [[]];
    for (const f of this.fields) {
      const raw = valuesAtPath(doc, f.path);
      const values: unknown[] = [];
      for (const v of raw) {
        if (Array.isArray(v)) {
          this._multikey = true;
          if (v.length === 0) values.push(undefined);
          else values.push(...v);
          values.push(v);
        } else values.push(v === undefined ? null : v);
      }
      const next: unknown[][] = [];
      for (const t of tuples) for (const v of values) next.push([...t, v]);
      tuples = next;
    }
    return tuples;
  }

  /**
   * Whether replacing `before` by `after` leaves this index's keys as they are (then the
   * collection skips its remove and add). Only worth asking where keys are costly to make.
   */
  unchanged(_before: Doc, _after: Doc): boolean {
    return false;
  }

  /** Throws E11000 if inserting `doc` (with _id key `id`) would duplicate a unique key. */
  checkUnique(doc: Doc, id: string): void {
    if (!this.enforcesUnique) return;
    if (this.pending) this.buildPending();
    if (!this.covers(doc)) return;
    for (const t of this.tuples(doc)) {
      // Keys equal through a collation lie together in the tree ('A@x' beside 'a@x').
      const owner = this.collator ? this.collatedOwner(t, id) : this.owners.get(valueKey(t));
      if (owner !== undefined && owner !== id) throw this.duplicateError(t);
      if (this.base && this.baseOwner(t, id) !== undefined) throw this.duplicateError(t);
    }
  }

  /** Another document whose key in the tree has values equal to `t` (collated indexes). */
  private collatedOwner(t: unknown[], id: string): string | undefined {
    const n = this.fields.length;
    const compareValue = this.compareValue;
    for (const [k] of this._tree.entries([...t, ''])) {
      for (let f = 0; f < n; f++) if (compareValue(k[f], t[f]) !== 0) return undefined;
      if (k[n] !== id) return k[n] as string;
    }
    return undefined;
  }

  /** Another live document of the snapshot whose key has the values `t`, if any. */
  private baseOwner(t: unknown[], id: string): string | undefined {
    const base = this.base as SnapshotBase;
    const n = this.fields.length;
    for (let i = base.search([...t, ''], false); i < base.length; i++) {
      const k = base.key(i);
      for (let f = 0; f < n; f++) if (this.compareValue(k[f], t[f]) !== 0) return undefined;
      if (base.live(i) && k[n] !== id) return k[n] as string;
    }
    return undefined;
  }

  duplicateError(tuple: unknown[]) {
    const keyValue: Doc = {};
    this.fields.forEach((f, i) => (keyValue[f.name] = tuple[i]));
    const shown = this.fields.map((f, i) => `${f.name}: ${display(tuple[i])}`).join(', ');
    const collation = isPlainObject(this.spec.collation)
      ? ` collation: ${displayCollation(this.spec.collation)}`
      : '';
    return serverError(
      'DuplicateKey',
      `E11000 duplicate key error collection: ${this.ns} index: ${this.name}${collation} dup key: { ${shown} }`,
      { keyPattern: this.spec.key, keyValue },
    );
  }

  add(doc: Doc, id: string): void {
    // A deferred index is built from the documents as they are when it is built.
    if (this.pending || !this.covers(doc)) return;
    for (const t of this.tuples(doc)) {
      this._tree.set([...t, id], true);
      if (this.spec.unique && !this.collator) this.owners.set(valueKey(t), id);
    }
  }

  remove(doc: Doc, id: string): void {
    if (this.pending || !this.covers(doc)) return;
    for (const t of this.tuples(doc)) {
      this._tree.delete([...t, id]);
      if (this.spec.unique && !this.collator && this.owners.get(valueKey(t)) === id)
        this.owners.delete(valueKey(t));
    }
  }

  /**
   * Builds the index from scratch over `docs` (it must be empty): every key computed, sorted once
   * and loaded into the B-tree in one pass, instead of one insertion (and rebalancing) per key.
   */
  build(docs: DocStore): void {
    const cmp = this._tree._compare;
    this.builtFrom = 'sort';
    const keys: IndexKey[] = [];
    for (const [id, doc] of docs) {
      if (!this.covers(doc)) continue;
      const k = this.simpleKey(doc, id);
      if (k) {
        keys.push(k);
        continue;
      }
      for (const t of this.tuples(doc)) {
        t.push(id);
        keys.push(t);
      }
    }
    keys.sort(cmp);
    if (this.spec.unique && !this.collator) {
      const n = this.fields.length;
      for (const k of keys) this.owners.set(tupleKey(k, n), k[n] as string);
    }
    if (this._multikey) {
      // A document can produce the same key twice (an array holding a value twice).
      let n = 0;
      for (let i = 0; i < keys.length; i++)
        if (n === 0 || cmp(keys[n - 1] as IndexKey, keys[i] as IndexKey) !== 0)
          keys[n++] = keys[i] as IndexKey;
      keys.length = n;
    }
    this._tree = bulkLoad<IndexKey, true>(keys, new Array<true>(keys.length).fill(true), 32, cmp);
  }

  /** Lowest and highest possible keys (in tree order) for an equality prefix plus an optional range. */
  bounds(prefix: unknown[], range?: { low?: unknown; high?: unknown }): [IndexKey, IndexKey] {
    const lo: unknown[] = [...prefix];
    const hi: unknown[] = [...prefix];
    for (let i = prefix.length; i < this.fields.length; i++) {
      const dir = (this.fields[i] as { dir: number }).dir;
      let a: unknown = dir === 1 ? MIN : MAX;
      let b: unknown = dir === 1 ? MAX : MIN;
      if (i === prefix.length && range) {
        // In tree order a descending field runs from high to low.
        const [first, last] = dir === 1 ? [range.low, range.high] : [range.high, range.low];
        if (first !== undefined) a = first;
        if (last !== undefined) b = last;
      }
      lo.push(a);
      hi.push(b);
    }
    lo.push('');
    hi.push('\uffff');
    return [lo, hi];
  }

  /** Whole keys within [lo, hi] in index order, or reversed. */
  *scanKeys(lo: IndexKey, hi: IndexKey, reverse: boolean): Generator<IndexKey> {
    const tree = this.tree;
    const base = this.base;
    if (!base) {
      yield* treeKeys(tree, lo, hi, reverse);
      return;
    }
    // The base's keys from lo (or, reversed, from hi) until past the other bound, merged with
    // the later changes' keys in the same range. One search: the caller often stops early.
    const cmp = tree._compare;
    const sign = reverse ? -1 : 1;
    const end = reverse ? lo : hi;
    const later = treeKeys(tree, lo, hi, reverse);
    let next = later.next();
    const step = reverse ? -1 : 1;
    for (
      let i = reverse ? base.search(hi, true) - 1 : base.search(lo, false);
      i >= 0 && i < base.length;
      i += step
    ) {
      // Past the bound even if no longer live (its snapshot key still has its place).
      const k = base.key(i);
      if (cmp(k, end) * sign > 0) break;
      if (!base.live(i)) continue;
      while (!next.done && cmp(next.value, k) * sign < 0) {
        yield next.value;
        next = later.next();
      }
      yield k;
    }
    while (!next.done) {
      yield next.value;
      next = later.next();
    }
  }

  /** _id keys within [lo, hi] in index order, or reversed. */
  *scan(lo: IndexKey, hi: IndexKey, reverse: boolean): Generator<string> {
    const tree = this.tree;
    const n = this.fields.length;
    const base = this.base;
    if (!base) {
      for (const k of treeKeys(tree, lo, hi, reverse)) yield k[n] as string;
      return;
    }
    // The base's _ids in [a, b), with each later change's key placed among them by a search
    // (no key of the base read but the search's: a compaction scans whole indexes).
    const a = base.search(lo, false);
    const b = base.search(hi, true);
    let j = a; // how far the base is yielded, counted in the scan's direction
    for (const k of treeKeys(tree, lo, hi, reverse)) {
      const stop = reverse ? a + b - base.search(k, true) : base.search(k, false);
      for (; j < stop; j++) {
        const i = reverse ? a + b - 1 - j : j;
        if (base.live(i)) yield base.id(i);
      }
      yield k[n] as string;
    }
    for (; j < b; j++) {
      const i = reverse ? a + b - 1 - j : j;
      if (base.live(i)) yield base.id(i);
    }
  }
}

/**
 * A text index (`{ content: 'text' }`, stored as `{ _fts: 'text', _ftsx: 1 }`): the terms of each
 * document's weighted strings with their scores, in an inverted index (text/postings.ts) instead
 * of the B-tree. Used only by `$text` queries (text/search.ts), never by the planner.
 */
export class TextIndex extends Index {
  readonly text: TextSpec;
  private readonly postings: TextPostings;
  /** The top-level fields the keys depend on (undefined: every field, with the wildcard). */
  private readonly fieldsRead?: string[];
  /**
   * The entries of the last two documents worked out: a write checks its new version first,
   * then removes the old one's entries and adds the new one's.
   */
  private memo: Array<{ doc: Doc; entries: TextEntries }> = [];

  constructor(spec: IndexSpec, ns: string) {
    super(spec, ns);
    this.text = new TextSpec(spec);
    this.postings = new TextPostings(this.text);
    this.fieldsRead = this.text.readsEverything ? undefined : this.text.topLevelFields();
  }

  /** A document has several keys: no key order in the snapshot, built from the documents. */
  override get multikey(): boolean {
    return true;
  }

  override get complete(): boolean {
    return false;
  }

  override order(): undefined {
    return undefined;
  }

  override *keys(): Generator<IndexKey> {}

  private entriesOf(doc: Doc): TextEntries {
    const hit = this.memo.find((m) => m.doc === doc);
    if (hit) return hit.entries;
    const entries = this.postings.entries(doc);
    this.memo = [{ doc, entries }, ...this.memo.slice(0, 1)];
    return entries;
  }

  /** Not unique: checks what the document files, so mongod's errors come before any change. */
  override checkUnique(doc: Doc): void {
    if (this.covers(doc)) this.entriesOf(doc);
  }

  override add(doc: Doc, id: string): void {
    if (this.pending || !this.covers(doc)) return;
    this.postings.add(id, this.entriesOf(doc));
  }

  override remove(doc: Doc, id: string): void {
    if (this.pending || !this.covers(doc)) return;
    this.postings.remove(id, this.entriesOf(doc));
  }

  override build(docs: DocStore): void {
    this.builtFrom = 'sort';
    this.postings.clear();
    for (const [id, doc] of docs)
      if (this.covers(doc)) this.postings.add(id, this.postings.entries(doc));
  }

  /** The fields the index reads are the same values (an update of a post's counters). */
  override unchanged(before: Doc, after: Doc): boolean {
    if (!this.fieldsRead || this.hasPartialFilter) return false;
    for (const f of this.fieldsRead) {
      const a = before[f];
      const b = after[f];
      if (a !== b && valueKey(a) !== valueKey(b)) return false;
    }
    return true;
  }

  /** The documents holding `term` under the prefix key `prefix`, with its score in each. */
  lookup(prefix: string, term: string): Readonly<Postings> | undefined {
    if (this.pending) this.buildPending();
    return this.postings.lookup(prefix, term);
  }

  /** Several terms' postings (from `lookup`) summed per document (see TextPostings.sum). */
  sum(lists: ReadonlyArray<Readonly<Postings>>): { ords: number[]; scores: number[] } {
    return this.postings.sum(lists);
  }

  /** The `_id` key of the document at a posting's ordinal. */
  idOf(ord: number): string | undefined {
    return this.postings.idOf(ord);
  }
}

/**
 * The collator of an index's stored collation. An index stored with a collation this server
 * does not implement (accepted and ignored before collations were implemented) stays binary,
 * as it was built.
 */
function indexCollator(collation: unknown): Collator | undefined {
  if (!isPlainObject(collation)) return undefined;
  try {
    return collatorFor(checkCollation(collation));
  } catch {
    return undefined;
  }
}

/** The B-tree's keys within [lo, hi] in tree order, or reversed. */
function* treeKeys(
  tree: BTree<IndexKey, true>,
  lo: IndexKey,
  hi: IndexKey,
  reverse: boolean,
): Generator<IndexKey> {
  const cmp = tree._compare;
  if (!reverse) {
    for (const [k] of tree.entries(lo)) {
      if (cmp(k, hi) > 0) return;
      yield k;
    }
  } else {
    for (const [k] of tree.entriesReversed(hi)) {
      if (cmp(k, lo) < 0) return;
      yield k;
    }
  }
}

/** valueKey of a key's first `n` values as an array (what the unique check looks up). */
function tupleKey(k: IndexKey, n: number): string {
  let out = '[';
  for (let i = 0; i < n; i++) out += (i ? ',' : '') + valueKey(k[i]);
  return out + ']';
}

function display(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof ObjectId) return `ObjectId('${v.toHexString()}')`;
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (v === null || v === undefined) return 'null';
  if (isPlainObject(v) || Array.isArray(v)) return JSON.stringify(v);
  return String(v);
}

export function idKeyOf(doc: Doc): string {
  return valueKey(doc._id);
}

export class Collection {
  readonly docs = new DocStore();
  readonly indexes: Index[] = [];

  /**
   * While the journal is replayed, documents are stored without index entries or unique checks
   * (every record was checked when it was written); `buildIndexes` then builds each index in bulk.
   */
  deferIndexes = false;

  constructor(
    readonly db: string,
    readonly name: string,
    /** Creation options (validator, viewOn/pipeline...); replaced as a whole by collMod. */
    public options: Doc = {},
  ) {
    const collation = isPlainObject(options.collation) ? options.collation : undefined;
    this.indexes.push(
      new Index({ name: '_id_', key: { _id: 1 }, ...(collation ? { collation } : {}) }, this.ns),
    );
  }

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  index(name: string): Index | undefined {
    return this.indexes.find((i) => i.name === name);
  }

  /** Validates and stores a new document; throws E11000 before changing anything. */
  insert(doc: Doc): void {
    const id = idKeyOf(doc);
    if (this.deferIndexes) {
      this.docs.set(id, doc);
      return;
    }
    if (this.docs.has(id)) throw (this.indexes[0] as Index).duplicateError([doc._id]);
    for (const ix of this.indexes) ix.checkUnique(doc, id);
    this.docs.set(id, doc);
    for (const ix of this.indexes) ix.add(doc, id);
  }

  /** Replaces a stored document by a new version with the same _id (unique checks first). */
  replace(oldDoc: Doc, newDoc: Doc): void {
    const id = idKeyOf(oldDoc);
    if (this.deferIndexes) {
      this.docs.set(id, newDoc);
      return;
    }
    for (const ix of this.indexes) ix.checkUnique(newDoc, id);
    for (const ix of this.indexes) if (!ix.unchanged(oldDoc, newDoc)) ix.remove(oldDoc, id);
    this.docs.set(id, newDoc);
    for (const ix of this.indexes) if (!ix.unchanged(oldDoc, newDoc)) ix.add(newDoc, id);
  }

  delete(doc: Doc): void {
    const id = idKeyOf(doc);
    if (!this.docs.delete(id) || this.deferIndexes) return;
    for (const ix of this.indexes) ix.remove(doc, id);
  }

  /** The collection's text index (there is at most one), if any. */
  get textIndex(): TextIndex | undefined {
    for (const ix of this.indexes) if (ix instanceof TextIndex) return ix;
    return undefined;
  }

  addIndex(spec: IndexSpec): void {
    const ix = isTextIndexKey(spec.key) ? new TextIndex(spec, this.ns) : new Index(spec, this.ns);
    if (this.deferIndexes) {
      this.indexes.push(ix);
      return;
    }
    for (const [id, doc] of this.docs) {
      ix.checkUnique(doc, id);
      ix.add(doc, id);
    }
    this.indexes.push(ix);
  }

  /**
   * Ends the replay mode (see deferIndexes): every index is left to be built on first use or by
   * the background warm-up (`Index.defer`), from the snapshot's key order when there is one.
   */
  endReplay(): void {
    if (!this.deferIndexes) return;
    this.deferIndexes = false;
    let left = this.indexes.length;
    const done = () => {
      if (--left > 0) return;
      // Every index built: the documents decoded for the builds go.
      this.docs.unpin();
    };
    for (const ix of this.indexes) ix.defer(this.docs, done);
  }

  /** Builds every index still deferred (before a change that must see all of them). */
  buildIndexes(): void {
    for (const ix of this.indexes) ix.buildPending();
  }

  dropIndex(name: string): void {
    const i = this.indexes.findIndex((x) => x.name === name);
    if (i > 0) this.indexes.splice(i, 1)[0]?.abandon();
  }
}
