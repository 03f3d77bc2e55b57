/**
 * A small query planner. From a filter it derives per-field constraints that every matching
 * document must satisfy (equalities, $in lists, ranges), picks the index that narrows the
 * candidates most (or that already yields the requested sort order), and scans only that part
 * of the index. The full filter is always re-checked on each candidate, so an index only ever
 * has to return a superset of the matches. The one exception is coveredCount(), which counts the
 * matches of a simple filter from index keys alone, only when it can prove the count exact.
 */
import type { Collection, Index } from './collection';
import { ObjectId } from 'bson';
import { compareValues, isPlainObject, valueKey, type Doc } from './values';
import { holdsString, sameCollation, type Collator } from './collation';

interface FieldBounds {
  eq?: unknown[]; // the value must be one of these
  low?: unknown;
  high?: unknown;
}

const MAX_IN_COMBINATIONS = 1000;

function usableScalar(v: unknown): boolean {
  return (
    !(v instanceof RegExp) && !(isPlainObject(v) && Object.keys(v).some((k) => k.startsWith('$')))
  );
}

function addConstraint(bounds: Map<string, FieldBounds>, field: string, cond: unknown): void {
  if (field.startsWith('$')) return;
  const b = bounds.get(field) ?? {};
  if (isPlainObject(cond) && Object.keys(cond).some((k) => k.startsWith('$'))) {
    for (const [op, v] of Object.entries(cond)) {
      if (op === '$eq' && usableScalar(v)) b.eq = [v];
      else if (op === '$in' && Array.isArray(v) && v.every(usableScalar)) b.eq = v;
      else if ((op === '$gt' || op === '$gte') && usableScalar(v) && v !== null) b.low = v;
      else if ((op === '$lt' || op === '$lte') && usableScalar(v) && v !== null) b.high = v;
    }
  } else if (usableScalar(cond)) {
    b.eq = [cond];
  }
  bounds.set(field, b);
}

export function extractBounds(
  filter: Doc,
  bounds = new Map<string, FieldBounds>(),
): Map<string, FieldBounds> {
  for (const [field, cond] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(cond)) {
      for (const part of cond) if (isPlainObject(part)) extractBounds(part, bounds);
    } else {
      addConstraint(bounds, field, cond);
    }
  }
  return bounds;
}

export interface Plan {
  /** Candidate documents, possibly with duplicates removed already. */
  candidates: Iterable<Doc>;
  /** True when candidates already come in the requested sort order. */
  sorted: boolean;
  /** Human-readable summary (explain, tests, benchmarks). */
  summary: string;
}

function sortMatches(
  index: Index,
  from: number,
  sort: Array<[string, 1 | -1]>,
): 'forward' | 'reverse' | null {
  if (sort.length === 0 || index.multikey) return null;
  if (from + sort.length > index.fields.length) return null;
  let dir: 'forward' | 'reverse' | null = null;
  for (let i = 0; i < sort.length; i++) {
    const f = index.fields[from + i];
    const [name, d] = sort[i] as [string, 1 | -1];
    if (!f || f.name !== name) return null;
    const here = f.dir === d ? 'forward' : 'reverse';
    if (dir && dir !== here) return null;
    dir = here;
  }
  return dir;
}

function* lookup(coll: Collection, ids: Iterable<string>): Generator<Doc> {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    const d = coll.docs.get(id);
    if (d) yield d;
  }
}

interface IndexChoice {
  index: Index;
  prefixes: unknown[][];
  range?: FieldBounds;
  dir: 'forward' | 'reverse' | null;
  score: number;
}

/**
 * The usable index whose equality prefix and following range narrow the scan the most (ties:
 * the first), with the $in combinations of its prefix and whether it yields `sort`.
 */
function chooseIndex(
  indexes: Index[],
  bounds: Map<string, FieldBounds>,
  sort: Array<[string, 1 | -1]>,
  collator?: Collator,
): IndexChoice | undefined {
  let best: IndexChoice | undefined;
  for (const index of indexes) {
    // An index of another collation orders and equates strings otherwise: usable only for
    // bounds without strings, and never for the order of a sort (mongod's rule).
    const sameOrder = sameCollation(index.collator, collator);
    if (!sameOrder && boundsHoldStrings(index, bounds)) continue;
    let prefixes: unknown[][] = [[]];
    let i = 0;
    for (; i < index.fields.length; i++) {
      const b = bounds.get((index.fields[i] as { name: string }).name);
      if (!b?.eq || b.eq.length === 0 || prefixes.length * b.eq.length > MAX_IN_COMBINATIONS) break;
      const next: unknown[][] = [];
      for (const p of prefixes) for (const v of b.eq) next.push([...p, v]);
      prefixes = next;
    }
    const nextField = index.fields[i];
    const rb = nextField ? bounds.get(nextField.name) : undefined;
    const range = rb && (rb.low !== undefined || rb.high !== undefined) ? rb : undefined;
    // With several prefixes ($in lists) each one's range is in sort order: merged (mergeScans).
    const dir = sameOrder ? sortMatches(index, i, sort) : null;
    const score = i * 10 + (range ? 5 : 0) + (dir ? 3 : 0);
    if (!best || score > best.score) best = { index, prefixes, range, dir, score };
  }
  return best;
}

/** Whether any bound the filter puts on one of the index's fields is or holds a string. */
function boundsHoldStrings(index: Index, bounds: Map<string, FieldBounds>): boolean {
  for (const f of index.fields) {
    const b = bounds.get(f.name);
    if (!b) continue;
    if (b.eq?.some(holdsString) || holdsString(b.low) || holdsString(b.high)) return true;
  }
  return false;
}

/**
 * Whether `index` holds every document the filter can match: a complete index always does; a
 * sparse one (no partial filter) does when the filter asks one of its fields to
 * equal values that are neither null nor missing, since a document without that field cannot
 * match (what mongod does too: `{ dedupeKey: 'x' }` reads the sparse unique index, not the
 * collection).
 */
function holdsEveryMatch(index: Index, bounds: Map<string, FieldBounds>): boolean {
  if (index.complete) return true;
  if (!index.spec.sparse || index.hasPartialFilter) return false;
  return index.fields.some((f) => {
    const eq = bounds.get(f.name)?.eq;
    return eq !== undefined && eq.length > 0 && eq.every((v) => v !== null && v !== undefined);
  });
}

/**
 * The index a `hint` names (by name or key pattern), `'$natural'` for a collection scan, or
 * undefined without a hint. Hints naming no index (or a hidden one) were refused before
 * (commands/context.ts checkHint).
 */
export function hintedIndex(coll: Collection, hint: unknown): Index | '$natural' | undefined {
  if (typeof hint === 'string') return coll.index(hint);
  if (!isPlainObject(hint) || Object.keys(hint).length === 0) return undefined;
  if ('$natural' in hint) return '$natural';
  const key = valueKey(hint);
  return coll.indexes.find((ix) => valueKey(ix.spec.key) === key);
}

/**
 * Whether some index serves `filter` (an `_id` equality, or an equality or range on an index's
 * leading field): mongod's condition for each `$or` branch beside a `$text` (see text/search.ts).
 * Hidden indexes serve nothing.
 */
export function indexable(coll: Collection, filter: Doc): boolean {
  const bounds = extractBounds(filter);
  if (bounds.get('_id')?.eq) return true;
  const best = chooseIndex(
    coll.indexes.filter((ix) => !ix.spec.hidden && holdsEveryMatch(ix, bounds)),
    bounds,
    [],
  );
  return best !== undefined && best.score > 0;
}

export function plan(
  coll: Collection,
  filter: Doc,
  sort: Array<[string, 1 | -1]>,
  hint?: unknown,
  collator?: Collator,
): Plan {
  const bounds = extractBounds(filter);
  const hinted = hint === undefined ? undefined : hintedIndex(coll, hint);
  if (hinted === '$natural')
    return { candidates: coll.docs.values(), sorted: sort.length === 0, summary: 'COLLSCAN' };
  const idBounds = bounds.get('_id');
  // `_id` keys are binary: a lookup by them only when no collation compares the strings.
  const binaryIds = !collator || !idBounds?.eq?.some(holdsString);
  if (idBounds?.eq && binaryIds && !hinted) {
    const keys = idBounds.eq.map(valueKey);
    return { candidates: lookup(coll, keys), sorted: keys.length <= 1, summary: 'IDHACK' };
  }

  // A hinted index is used whatever it holds, as mongod does (a sparse or partial one may then
  // miss matches); hidden indexes are invisible to the planner.
  // A hinted index of another collation than the query's cannot take string bounds: it is then
  // scanned whole, as mongod scans it with [MinKey, MaxKey] bounds.
  const best =
    chooseIndex(
      hinted
        ? [hinted]
        : coll.indexes.filter((ix) => !ix.spec.hidden && holdsEveryMatch(ix, bounds)),
      bounds,
      sort,
      collator,
    ) ?? (hinted ? { index: hinted, prefixes: [[]], dir: null, score: 0 } : undefined);
  if (!best || (best.score === 0 && !hinted)) {
    return { candidates: coll.docs.values(), sorted: sort.length === 0, summary: 'COLLSCAN' };
  }
  const { index, prefixes, range, dir } = best;
  const reverse = dir === 'reverse';
  if (dir && prefixes.length > 1) {
    return {
      candidates: lookup(coll, mergeScans(index, prefixes, range, reverse)),
      sorted: true,
      summary: `IXSCAN ${index.name} (sort merge)`,
    };
  }
  function* ids(): Generator<string> {
    for (const prefix of prefixes) {
      const [lo, hi] = index.bounds(prefix, range);
      yield* index.scan(lo, hi, reverse);
    }
  }
  return {
    candidates: lookup(coll, ids()),
    sorted: dir !== null || sort.length === 0,
    summary: `IXSCAN ${index.name}${dir ? ' (sorted)' : ''}`,
  };
}

/**
 * The ranges of several equality prefixes (an `$in` list), each already in the requested order
 * after its prefix, merged into one stream in that order (mongod's SORT_MERGE): a sorted, limited
 * page reads about as many keys as it returns, not every key of every listed value.
 */
function* mergeScans(
  index: Index,
  prefixes: unknown[][],
  range: FieldBounds | undefined,
  reverse: boolean,
): Generator<string> {
  const from = (prefixes[0] as unknown[]).length;
  const n = index.fields.length;
  const sign = reverse ? -1 : 1;
  const compareValue = index.compareValue;
  // Keys compare by the fields after the prefix, then by _id key, as the tree orders them.
  const cmp = (a: unknown[], b: unknown[]): number => {
    for (let i = from; i < n; i++) {
      const c = compareValue(a[i], b[i]);
      if (c !== 0) return c * (index.fields[i] as { dir: number }).dir * sign;
    }
    const ia = a[n] as string;
    const ib = b[n] as string;
    return (ia < ib ? -1 : ia > ib ? 1 : 0) * sign;
  };
  // A binary min-heap of each scan's next key.
  const heap: Array<{ key: unknown[]; rest: Iterator<unknown[]> }> = [];
  const less = (i: number, j: number) =>
    cmp((heap[i] as { key: unknown[] }).key, (heap[j] as { key: unknown[] }).key) < 0;
  const swap = (i: number, j: number) => {
    const t = heap[i] as (typeof heap)[number];
    heap[i] = heap[j] as (typeof heap)[number];
    heap[j] = t;
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(l, m)) m = l;
      if (r < heap.length && less(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (const prefix of prefixes) {
    const [lo, hi] = index.bounds(prefix, range);
    const rest = index.scanKeys(lo, hi, reverse);
    const first = rest.next();
    if (!first.done) heap.push({ key: first.value, rest });
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length) {
    const top = heap[0] as (typeof heap)[number];
    yield top.key[n] as string;
    const next = top.rest.next();
    if (!next.done) top.key = next.value;
    else {
      const last = heap.pop() as (typeof heap)[number];
      if (heap.length === 0) return;
      heap[0] = last;
    }
    down(0);
  }
}

/*
 * Covered counts: counting the matches of a simple filter from index keys alone, without
 * fetching a document or running mingo (countDocuments() over a large collection).
 */

/** Value kinds whose matching below agrees with both mingo and mongod. */
type Kind = 'null' | 'number' | 'string' | 'boolean' | 'date' | 'objectid';

/**
 * Index keys store a missing field as null. Anything else (NaN, Long, Decimal128, embedded
 * documents...) has no kind: mingo and mongod may disagree on it, so the count gives up.
 */
function kindOf(v: unknown): Kind | undefined {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'number':
      return Number.isNaN(v) ? undefined : 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
  }
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : 'date';
  if (v instanceof ObjectId) return 'objectid';
  return undefined;
}

/** Whether a key value (of a known kind) satisfies one condition. */
type KeyTest = (v: unknown, kind: Kind) => boolean;

const RANGES: Record<string, (c: number) => boolean> = {
  $gt: (c) => c > 0,
  $gte: (c) => c >= 0,
  $lt: (c) => c < 0,
  $lte: (c) => c <= 0,
};

/**
 * Equality and comparisons only hold between values of one type bracket (5 never equals '5',
 * a Date range never matches a string), except that null equals null and missing. Within a
 * bracket compareValues orders as mingo does for these kinds (numbers across int/double).
 */
function keyTest(op: string, arg: unknown): KeyTest | undefined {
  if (op === '$in') {
    if (!Array.isArray(arg)) return undefined;
    const tests = arg.map((a) => keyTest('$eq', a)).filter((t): t is KeyTest => t !== undefined);
    if (tests.length !== arg.length) return undefined;
    return (v, kind) => tests.some((t) => t(v, kind));
  }
  const argKind = kindOf(arg);
  if (argKind === undefined || arg === undefined) return undefined;
  if (op === '$eq') {
    return argKind === 'null'
      ? (_v, kind) => kind === 'null'
      : (v, kind) => kind === argKind && compareValues(v, arg) === 0;
  }
  const inRange = RANGES[op];
  // mingo and mongod disagree on whether `$gte: null` matches a missing field.
  if (!inRange || argKind === 'null') return undefined;
  return (v, kind) => kind === argKind && inRange(compareValues(v, arg));
}

/**
 * Per-field tests for a filter of plain top-level fields, each an equality or an object of
 * $eq/$in/$gt/$gte/$lt/$lte with scalar arguments; undefined for any other filter.
 */
function fieldTests(filter: Doc): Map<string, KeyTest[]> | undefined {
  const tests = new Map<string, KeyTest[]>();
  for (const [field, cond] of Object.entries(filter)) {
    // Dotted paths are left out: index keys flatten arrays along the path without marking
    // the index multikey, so one document may have several keys (or none).
    if (field === '' || field.startsWith('$') || field.includes('.')) return undefined;
    const ops = isPlainObject(cond) ? Object.entries(cond) : [['$eq', cond] as const];
    if (ops.length === 0) return undefined; // `{ a: {} }` is an equality to an empty document
    const fieldTests: KeyTest[] = [];
    for (const [op, arg] of ops) {
      const t = keyTest(op, arg);
      if (!t) return undefined;
      fieldTests.push(t);
    }
    tests.set(field, fieldTests);
  }
  return tests;
}

/** An index where every document has exactly one key, holding every tested field. */
function countsExactly(index: Index, fields: Iterable<string>): boolean {
  // Keys in a collation's order: the binary tests below would not follow its ranges.
  if (index.collator) return false;
  if (!index.complete || index.multikey || index.fields.some((f) => f.path.length > 1))
    return false;
  for (const field of fields) if (!index.fields.some((f) => f.name === field)) return false;
  return true;
}

/** $in lists without duplicates ([null, null], [5, 5.0]), so that no key range is walked twice. */
function distinctEqualities(bounds: Map<string, FieldBounds>): Map<string, FieldBounds> {
  for (const b of bounds.values()) {
    if (b.eq) b.eq = [...new Map(b.eq.map((v) => [valueKey(v), v])).values()];
  }
  return bounds;
}

/**
 * Whether an index key matches every field's tests; undefined when a tested value has no kind
 * and no earlier field already rules the key out.
 */
function keyMatches(
  key: unknown[],
  checks: ReadonlyArray<readonly [number, KeyTest[]]>,
): boolean | undefined {
  for (const [pos, tests] of checks) {
    const v = key[pos];
    const kind = kindOf(v);
    if (kind === undefined) return undefined;
    for (const t of tests) if (!t(v, kind)) return false;
  }
  return true;
}

/**
 * The exact number of documents matching `filter`, counted from the keys of one index, or
 * undefined when that cannot be proven (unsupported filter, no suitable index, a key value of
 * an ambiguous type); the caller then matches documents as usual.
 */
export function coveredCount(coll: Collection, filter: Doc): number | undefined {
  const tests = fieldTests(filter);
  if (!tests) return undefined;
  if (tests.size === 0) return coll.docs.size;
  const choice = chooseIndex(
    coll.indexes.filter((ix) => !ix.spec.hidden && countsExactly(ix, tests.keys())),
    distinctEqualities(extractBounds(filter)),
    [],
  );
  if (!choice) return undefined;
  const { index, prefixes, range } = choice;
  const checks = [...tests].map(
    ([field, t]) => [index.fields.findIndex((f) => f.name === field), t] as const,
  );
  let n = 0;
  for (const prefix of prefixes) {
    const [lo, hi] = index.bounds(prefix, range);
    for (const key of index.scanKeys(lo, hi, false)) {
      const m = keyMatches(key, checks);
      if (m === undefined) return undefined;
      if (m) n++;
    }
  }
  return n;
}
