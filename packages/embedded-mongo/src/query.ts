/**
 * Reading and writing documents with MongoDB semantics on top of mingo: filters, sort,
 * projection, pipeline updates, replacements and upserts; operator updates are applied by
 * src/update-operators.ts.
 */
import { ObjectId } from 'bson';
import { Aggregator, Query } from './mingo';
import type { Collection } from './collection';
import { badValue, serverError, MongoServerError } from './errors';
import { plan } from './planner';
import {
  cloneDoc,
  compareValues,
  isPlainObject,
  setField,
  valueKey,
  valuesAtPath,
  type Doc,
} from './values';
import { normalizeTimezones } from './timezones';
import { compileProjection } from './projection';
import { mentionsText, TEXT_MARKER, textSearch, withoutText } from './text/search';
import { checkCollatedFilter, collatedQuery, type Collator } from './collation';
import { positionalMatch } from './positional';
import { checkFilterOperators } from './unsupported';
import { applyOperators, compareFields, parseUpdate, type ParsedUpdate } from './update-operators';

export type SortSpec = Array<[string, 1 | -1]>;

/** Turns mingo's exceptions (unknown operators, bad arguments) into MongoDB BadValue errors. */
export function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof MongoServerError) throw e;
    throw badValue(e instanceof Error ? e.message : String(e));
  }
}

/** A compiled filter. */
export interface Matcher {
  test(doc: Doc): boolean;
}

/**
 * Compiles a filter; with a collator (see collation.ts), its comparisons of strings go through
 * the collation.
 */
export function compileFilter(filter: unknown, variables?: Doc, collator?: Collator): Matcher {
  if (filter !== undefined && filter !== null && !isPlainObject(filter)) {
    throw serverError('TypeMismatch', 'filter must be an object');
  }
  let f = (filter ?? {}) as Doc;
  // findDocs runs $text itself (text/search.ts). A filter compiled only to be checked (an update
  // that matched nothing) gets, in its place, a marker field that no document has.
  if (mentionsText(f)) f = withoutText(f, true);
  checkFilterOperators(f);
  if (collator) {
    checkCollatedFilter(f);
    return guard(() => collatedQuery(normalizeTimezones(f), collator, variables));
  }
  return guard(() => new Query(normalizeTimezones(f), variables ? { variables } : {}));
}

/** mongod's error for `{ $meta: 'textScore' }` (projection, sort) in a query without `$text`. */
export function noTextScore(): MongoServerError {
  return serverError(
    'Location40218',
    'query requires text score metadata, but it is not available',
  );
}

/** The sort key that `{ $meta: 'textScore' }` stands for: descending by text score. */
export const TEXT_SCORE_SORT = '\u0000textScore';

/**
 * Evaluates a command's `let` document as mongod does: every value is an expression evaluated
 * once (so `{ x: { $literal: '$y' } }` binds the string '$y'); the results are bound as `$$name`.
 */
export function evalLet(letDoc: unknown): Doc | undefined {
  if (letDoc === undefined || letDoc === null) return undefined;
  if (!isPlainObject(letDoc))
    throw serverError('TypeMismatch', "BSON field 'let' is the wrong type, expected type 'object'");
  for (const name of Object.keys(letDoc)) {
    if (!/^[a-z\u0080-\uffff][\w\u0080-\uffff]*$/.test(name))
      throw serverError(
        'FailedToParse',
        `'${name}' starts with an invalid character for a user variable name`,
      );
  }
  const [out] = guard(
    () => new Aggregator([{ $replaceWith: { v: normalizeTimezones(letDoc) } }]).run([{}]) as Doc[],
  );
  return (out?.v ?? {}) as Doc;
}

export function parseSort(sort: unknown): SortSpec {
  if (sort === undefined || sort === null) return [];
  if (!isPlainObject(sort)) throw badValue('sort must be an object');
  return Object.entries(sort).map(([k, v]) => {
    if (v === 1 || v === -1) return [k, v];
    if (isPlainObject(v)) {
      if (Object.keys(v).length === 1 && v.$meta === 'textScore') return [TEXT_SCORE_SORT, -1];
      throw badValue(`$meta sort ${JSON.stringify(v)} is not supported by this server`);
    }
    const n = Number(v);
    if (n === 1 || n === -1) return [k, n];
    throw badValue(`Illegal key in $sort specification: ${k}: ${String(v)}`);
  });
}

function sortKey(doc: Doc, path: string[], dir: 1 | -1, compare = compareValues): unknown {
  const values = valuesAtPath(doc, path).flatMap((v) =>
    Array.isArray(v) ? (v.length ? v : [undefined]) : [v],
  );
  let best: unknown = values[0];
  for (const v of values.slice(1)) {
    const c = compare(v, best);
    if ((dir === 1 && c < 0) || (dir === -1 && c > 0)) best = v;
  }
  return best;
}

/**
 * Sorts documents (`scores`: their text scores, for a `{ $meta: 'textScore' }` key; `collator`:
 * the collation strings compare by).
 */
export function sortDocs(
  docs: Doc[],
  sort: SortSpec,
  scores?: Map<Doc, number>,
  collator?: Collator,
): Doc[] {
  if (sort.length === 0) return docs;
  if (sort.length === 1 && sort[0]?.[0] === '$natural')
    return sort[0][1] === -1 ? docs.reverse() : docs;
  const compare = collator?.compare ?? compareValues;
  const keyed = docs.map((d) => ({
    d,
    k: sort.map(([f, dir]) =>
      f === TEXT_SCORE_SORT ? (scores?.get(d) ?? 0) : sortKey(d, f.split('.'), dir, compare),
    ),
  }));
  keyed.sort((a, b) => {
    for (let i = 0; i < sort.length; i++) {
      const c = compare(a.k[i], b.k[i]);
      if (c !== 0) return c * (sort[i] as [string, 1 | -1])[1];
    }
    return 0;
  });
  return keyed.map((x) => x.d);
}

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  /** `let` variables ($$name) for $expr in the filter. */
  variables?: Doc;
  /** The command's `hint` (an index name or key pattern, or `$natural`), checked already. */
  hint?: unknown;
  /** Filled in with what the read cost (explain's executionStats). */
  stats?: { docsExamined: number; plan: string };
  /** The namespace read (for errors that name it). */
  ns?: string;
  /** Filled in, for a filter with `$text`, with the text score of each document returned. */
  textScores?: Map<Doc, number>;
  /** The collation the read compares strings by (undefined: binary). */
  collator?: Collator;
}

/** A value a filter may compare by valueKey alone (no regex, array, document or NaN). */
function isSimpleValue(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return !Number.isNaN(v);
    case 'object':
      return v === null || v instanceof ObjectId || v instanceof Date;
    default:
      return false;
  }
}

/**
 * A matcher for the commonest filters without mingo: top-level fields (no dots) each equal to, or
 * `$in` a list of, strings, numbers, booleans, ObjectIds, Dates or null (which also matches a
 * missing field, as in MongoDB). A document whose field holds an array (where MongoDB matches any
 * element) is handed to mingo. Undefined for any other filter.
 */
function simpleMatcher(filter: Doc, full: () => Matcher): ((doc: Doc) => boolean) | undefined {
  const tests: Array<[string, (v: unknown) => boolean]> = [];
  for (const [field, cond] of Object.entries(filter)) {
    if (field.startsWith('$') || field.includes('.')) return undefined;
    if (isSimpleValue(cond)) {
      const want = valueKey(cond);
      tests.push([field, (v) => valueKey(v) === want]);
      continue;
    }
    if (!isPlainObject(cond)) return undefined;
    const ops = Object.entries(cond);
    if (ops.length === 0) return undefined;
    for (const [op, arg] of ops) {
      const test = simpleTest(op, arg);
      if (!test) return undefined;
      tests.push([field, test]);
    }
  }
  return (doc) => {
    for (const [field, test] of tests) {
      const v = doc[field];
      // Arrays (any element may match) and other BSON types (Decimal128...) are mingo's.
      if (Array.isArray(v) || (isPlainObjectLike(v) && !(v instanceof ObjectId)))
        return full().test(doc);
      if (!test(v)) return false;
    }
    return true;
  };
}

/** An object other than a Date (an embedded document or a BSON value class). */
function isPlainObjectLike(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !(v instanceof Date);
}

/** The kinds a range compares within (type bracketing): numbers, strings, dates. */
function rangeKind(v: unknown): 'number' | 'string' | 'date' | undefined {
  if (typeof v === 'number') return Number.isNaN(v) ? undefined : 'number';
  if (typeof v === 'string') return 'string';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : 'date';
  return undefined;
}

const RANGE_TESTS: Record<string, (c: number) => boolean> = {
  $gt: (c) => c > 0,
  $gte: (c) => c >= 0,
  $lt: (c) => c < 0,
  $lte: (c) => c <= 0,
};

/**
 * One operator of simpleMatcher on a non-array value: `$eq`, `$ne` and `$in` of simple values,
 * `$gt`/`$gte`/`$lt`/`$lte` of a number, string or date (a value of another type never matches,
 * as in MongoDB). Undefined for anything else.
 */
function simpleTest(op: string, arg: unknown): ((v: unknown) => boolean) | undefined {
  if (op === '$eq' || op === '$ne') {
    if (!isSimpleValue(arg)) return undefined;
    const want = valueKey(arg);
    return op === '$eq' ? (v) => valueKey(v) === want : (v) => valueKey(v) !== want;
  }
  if (op === '$in') {
    if (!Array.isArray(arg) || !arg.every(isSimpleValue)) return undefined;
    const wanted = new Set(arg.map(valueKey));
    return (v) => wanted.has(valueKey(v));
  }
  const inRange = RANGE_TESTS[op];
  const kind = rangeKind(arg);
  if (!inRange || !kind) return undefined;
  return (v) => rangeKind(v) === kind && inRange(compareValues(v, arg));
}

/** Matching documents (stored references, unprojected) in the requested order. */
export function findDocs(coll: Collection | undefined, filter: Doc, opts: FindOptions = {}): Doc[] {
  if (isPlainObject(filter) && mentionsText(filter)) return findText(coll, filter, opts);
  if (opts.sort?.some(([f]) => f === TEXT_SCORE_SORT)) throw noTextScore();
  let compiled: Matcher | undefined;
  const collator = opts.collator;
  const full = () => (compiled ??= compileFilter(filter, opts.variables, collator));
  const simple =
    isPlainObject(filter) && !opts.variables && !collator ? simpleMatcher(filter, full) : undefined;
  const query = simple ? { test: simple } : full();
  if (!coll) return [];
  const sort = opts.sort ?? [];
  const skip = opts.skip ?? 0;
  const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
  const natural = sort.length === 1 && sort[0]?.[0] === '$natural';
  const p = natural
    ? { candidates: coll.docs.values(), sorted: false, summary: 'COLLSCAN' }
    : plan(coll, filter, sort, opts.hint, collator);
  const stats = opts.stats ?? { docsExamined: 0, plan: '' };
  stats.plan = p.summary;
  if (p.sorted) {
    const out: Doc[] = [];
    let skipped = 0;
    for (const d of p.candidates) {
      stats.docsExamined++;
      if (!query.test(d)) continue;
      if (skipped < skip) {
        skipped++;
        continue;
      }
      out.push(d);
      if (out.length >= limit) break;
    }
    return out;
  }
  const matched: Doc[] = [];
  for (const d of p.candidates) {
    stats.docsExamined++;
    if (query.test(d)) matched.push(d);
  }
  const sorted = sortDocs(matched, sort, undefined, collator);
  return sorted.slice(skip, limit === Infinity ? undefined : skip + limit);
}

/**
 * A filter with `$text` (see text/search.ts): the text search's matches (or, with `$text` in an
 * `$or`, every document) checked against the rest of the filter, sorted, paged; their scores
 * go to `opts.textScores`. A page sorted by score alone reads documents best first (`bestFirst`)
 * and stops when the page is full (when nothing else is checked, only the page's documents are
 * read).
 */
function findText(coll: Collection | undefined, filter: Doc, opts: FindOptions): Doc[] {
  const search = textSearch(coll, filter, opts.ns ?? coll?.ns ?? '');
  const query = compileFilter(search.filter, opts.variables, opts.collator);
  const rest = Object.keys(search.filter).length > 0;
  const stats = opts.stats ?? { docsExamined: 0, plan: '' };
  stats.plan = `TEXT_MATCH ${search.index.name}`;
  const { ords } = search;
  const skip = opts.skip ?? 0;
  const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
  const sort = opts.sort ?? [];
  const scores = new Map<Doc, number>();
  const keep = (out: Doc[]) => {
    if (opts.textScores) for (const d of out) opts.textScores.set(d, scores.get(d) ?? 0);
    return out;
  };

  if (
    search.required &&
    limit !== Infinity &&
    sort.length === 1 &&
    sort[0]![0] === TEXT_SCORE_SORT
  ) {
    const wanted = skip + limit;
    // Best first, and only as far as the page needs: the best `wanted` (twice that when other
    // conditions or the text's own checks may reject some) from a bounded heap, every match
    // sorted only if the page is still not full after those. Sorting every match first cost
    // half of a search's time on a word found in a quarter of the posts.
    const order = bestFirst(search.scores, rest || search.checks ? wanted * 2 : wanted);
    const page: Doc[] = [];
    for (const i of order) {
      stats.docsExamined++;
      const d = search.resolve(ords[i]!);
      if (!d || (rest && !query.test(d))) continue;
      page.push(d);
      scores.set(d, search.scores[i]!);
      if (page.length >= wanted) break;
    }
    return keep(page.slice(skip));
  }

  const matched: Doc[] = [];
  if (search.required) {
    for (let i = 0; i < ords.length; i++) {
      stats.docsExamined++;
      const d = search.resolve(ords[i]!);
      if (!d || (rest && !query.test(d))) continue;
      matched.push(d);
      scores.set(d, search.scores[i]!);
    }
  } else {
    const hits = new Map<Doc, number>();
    for (let i = 0; i < ords.length; i++) {
      const d = search.resolve(ords[i]!);
      if (d) hits.set(d, search.scores[i]!);
    }
    for (const d of (coll as Collection).docs.values()) {
      stats.docsExamined++;
      const hit = hits.has(d);
      if (!query.test({ ...d, [TEXT_MARKER]: hit })) continue;
      matched.push(d);
      scores.set(d, hits.get(d) ?? 0);
    }
  }
  return keep(
    sortDocs(matched, sort, scores, opts.collator).slice(
      skip,
      limit === Infinity ? undefined : skip + limit,
    ),
  );
}

/**
 * How many documents a filter with `$text` matches, when the text search alone decides it (no
 * other condition, negation, phrase or sensitivity: every posting is a match); else undefined.
 */
export function textCount(coll: Collection, filter: Doc): number | undefined {
  if (!isPlainObject(filter) || !mentionsText(filter)) return undefined;
  const search = textSearch(coll, filter, coll.ns);
  if (!search.required || search.checks || Object.keys(search.filter).length > 0) return undefined;
  return search.ords.length;
}

/** Positions of `scores`, best first (ties in their order). */
function byScore(scores: ArrayLike<number>): Uint32Array {
  const order = new Uint32Array(scores.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((a, b) => scores[b]! - scores[a]! || a - b);
}

/**
 * Positions of `scores`, best first (ties in their order), computed as far as they are read: the
 * `n` best from a bounded heap (a pass over the scores, O(N log n)); if more are read, the `8n`
 * best the same way (a phrase or another condition that rejects many); only then every position
 * sorted (`byScore`). All use one order (score descending, then position), so the sequence is
 * `byScore`'s.
 */
function* bestFirst(scores: ArrayLike<number>, n: number): Generator<number> {
  let done = 0;
  for (const size of [n, 8 * n]) {
    const top = topByScore(scores, size);
    for (let i = done; i < top.length; i++) yield top[i]!;
    if (top.length < size) return; // every position was among them
    done = top.length;
  }
  const all = byScore(scores);
  for (let i = done; i < all.length; i++) yield all[i]!;
}

/** The positions of the `n` best scores, best first (ties in their order). */
function topByScore(scores: ArrayLike<number>, n: number): number[] {
  if (n <= 0) return [];
  // A heap of the best so far with the worst of them at the root: a later position with an
  // equal score is worse (ties keep their order), so it never displaces one.
  const heap: number[] = [];
  const worse = (a: number, b: number) =>
    scores[a]! < scores[b]! || (scores[a] === scores[b] && a > b);
  const down = (from: number) => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let w = i;
      if (l < heap.length && worse(heap[l]!, heap[w]!)) w = l;
      if (r < heap.length && worse(heap[r]!, heap[w]!)) w = r;
      if (w === i) return;
      [heap[i], heap[w]] = [heap[w]!, heap[i]!];
      i = w;
    }
  };
  for (let p = 0; p < scores.length; p++) {
    if (heap.length < n) {
      heap.push(p);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (scores[p]! > scores[heap[0]!]!) {
      heap[0] = p;
      down(0);
    }
  }
  return heap.sort((a, b) => scores[b]! - scores[a]! || a - b);
}

/** Filters, sorts and pages documents that are not in a collection (a view's output). */
export function findInDocs(docs: Doc[], filter: Doc, opts: FindOptions = {}): Doc[] {
  // A view's pipeline comes first: mongod's error for a $text that is not the first stage.
  if (isPlainObject(filter) && mentionsText(filter)) throw textNotFirst();
  if (opts.sort?.some(([f]) => f === TEXT_SCORE_SORT)) throw noTextScore();
  const query = compileFilter(filter, opts.variables, opts.collator);
  const skip = opts.skip ?? 0;
  const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
  const sorted = sortDocs(
    docs.filter((d) => query.test(d)),
    opts.sort ?? [],
    undefined,
    opts.collator,
  );
  return sorted.slice(skip, limit === Infinity ? undefined : skip + limit);
}

/**
 * A projection of top-level fields only, each 0/1/true/false (all included or all excluded, `_id`
 * apart), applied without mingo: undefined for any other projection. Fields keep the document's
 * order with `_id` first, as mongod returns them; values are shared with the stored version
 * (never changed in place).
 */
function simpleProjection(projection: Doc): ((doc: Doc) => Doc) | undefined {
  let include: boolean | undefined;
  let withId = true;
  const fields = new Set<string>();
  for (const [k, v] of Object.entries(projection)) {
    if (v !== 0 && v !== 1 && v !== true && v !== false) return undefined;
    if (k.length === 0 || k.includes('.') || k.includes('$')) return undefined;
    const on = v === 1 || v === true;
    if (k === '_id') {
      withId = on;
      continue;
    }
    if (include !== undefined && include !== on) return undefined;
    include = on;
    fields.add(k);
  }
  if (include === undefined) include = withId; // only `_id`: { _id: 1 } includes, { _id: 0 } excludes
  if (include)
    return (doc) => {
      const out: Doc = {};
      if (withId && doc._id !== undefined) out._id = doc._id;
      for (const k in doc) if (fields.has(k) && doc[k] !== undefined) setField(out, k, doc[k]);
      return out;
    };
  return (doc) => {
    const out: Doc = {};
    if (withId && doc._id !== undefined) out._id = doc._id;
    for (const k in doc) if (k !== '_id' && !fields.has(k)) setField(out, k, doc[k]);
    return out;
  };
}

/** mongod's error for a `$match` with `$text` anywhere but first in a pipeline. */
export function textNotFirst(): MongoServerError {
  return serverError(
    'Location17313',
    '$match with $text is only allowed as the first pipeline stage',
  );
}

function isTextScoreMeta(v: unknown): boolean {
  return isPlainObject(v) && Object.keys(v).length === 1 && v.$meta === 'textScore';
}

/**
 * Applies a find projection (see projection.ts for mongod's rules; the commonest ones without
 * it); `_id` stays the first field as in MongoDB. `scores`: the text scores of a `$text` query's
 * documents, for fields `{ $meta: 'textScore' }` (which, alone, keep every field, as in mongod).
 */
export function project(
  docs: Doc[],
  filter: Doc,
  projection: unknown,
  variables?: Doc,
  scores?: Map<Doc, number>,
): Doc[] {
  if (!projection || !isPlainObject(projection) || Object.keys(projection).length === 0)
    return docs;
  const meta = Object.keys(projection).filter((k) => isTextScoreMeta(projection[k]));
  if (meta.length > 0) {
    if (!scores) throw noTextScore();
    const rest: Doc = { ...projection };
    for (const k of meta) {
      if (k.split('.').includes('$'))
        throw badValue(`positional projection cannot be used with $meta: '${k}'`);
      delete rest[k];
    }
    const base = Object.keys(rest).length > 0 ? project(docs, filter, rest, variables) : docs;
    return base.map((d, i) => {
      const out: Doc = { ...d };
      for (const k of meta) setMetaField(out, k.split('.'), scores.get(docs[i]!) ?? 0);
      return out;
    });
  }
  const simple = simpleProjection(projection);
  if (simple) return docs.map(simple);
  const apply = guard(() => compileProjection(projection, filter, variables));
  return guard(() => docs.map(apply));
}

/** Sets a computed field at a path of a projected copy, copying the objects along the way. */
function setMetaField(doc: Doc, path: string[], value: unknown): void {
  let cur = doc;
  for (const part of path.slice(0, -1)) {
    const next = cur[part];
    cur[part] = isPlainObject(next) ? { ...next } : {};
    cur = cur[part] as Doc;
  }
  cur[path[path.length - 1]!] = value;
}

export function isOperatorUpdate(update: unknown): boolean {
  return isPlainObject(update) && Object.keys(update).some((k) => k.startsWith('$'));
}

function validateUpdate(update: unknown): void {
  if (Array.isArray(update)) return;
  if (!isPlainObject(update))
    throw badValue('Update argument must be either an object or an array');
}

function checkIdUnchanged(before: Doc, after: Doc): void {
  if (valueKey(before._id) !== valueKey(after._id)) {
    throw serverError(
      'ImmutableField',
      "Performing an update on the path '_id' would modify the immutable field '_id'",
    );
  }
}

/**
 * mongod rejects an operator that would change `_id` with ImmutableField (66) before applying
 * anything; setting it to its current value is allowed.
 */
function checkIdNotTargeted(modifier: Doc, doc: Doc): void {
  for (const [op, arg] of Object.entries(modifier)) {
    if (!isPlainObject(arg) || op === '$setOnInsert') continue;
    for (const [field, value] of Object.entries(arg)) {
      const targets = op === '$rename' ? [field, String(value)] : [field];
      for (const t of targets) {
        if (t !== '_id' && !t.startsWith('_id.')) continue;
        if (op === '$set' && t === '_id' && valueKey(value) === valueKey(doc._id)) continue;
        throw serverError(
          'ImmutableField',
          `Performing an update on the path '${t}' would modify the immutable field '_id'`,
        );
      }
    }
  }
}

function idFirst(doc: Doc): Doc {
  if (Object.keys(doc)[0] === '_id' || !('_id' in doc)) return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

export interface UpdateOptions {
  arrayFilters?: Doc[];
  inserting?: boolean;
  variables?: Doc;
  /** The statement's query: where it matched an array is the position `$` stands for. */
  filter?: Doc;
  /** The statement's collation (undefined: binary): the query matched through it. */
  collator?: Collator;
}

/** Returns the updated copy of `doc` (the stored document is never touched). */
export function applyUpdate(doc: Doc, update: unknown, opts: UpdateOptions = {}): Doc {
  validateUpdate(update);
  if (Array.isArray(update)) {
    if (opts.arrayFilters?.length)
      throw serverError(
        'FailedToParse',
        'arrayFilters may not be specified for pipeline-style updates',
      );
    const [out] = guard(
      () =>
        new Aggregator(normalizeTimezones(update as Doc[]), { variables: opts.variables }).run([
          cloneDoc(doc),
        ]) as Doc[],
    );
    if (!out) throw badValue('pipeline update produced no document');
    // A pipeline that drops _id (e.g. $replaceRoot) keeps the document's _id, as in mongod.
    const result = out._id === undefined && doc._id !== undefined ? { ...out, _id: doc._id } : out;
    if (!opts.inserting) checkIdUnchanged(doc, result);
    return idFirst(result);
  }
  const u = update as Doc;
  if (!isOperatorUpdate(u)) {
    if (
      '_id' in u &&
      doc._id !== undefined &&
      valueKey(u._id) !== valueKey(doc._id) &&
      !opts.inserting
    ) {
      throw serverError(
        'ImmutableField',
        `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${String(u._id)}`,
      );
    }
    const { _id: _ignored, ...rest } = cloneDoc(u);
    return doc._id === undefined ? rest : { _id: doc._id, ...rest };
  }
  if (!opts.inserting && !opts.arrayFilters?.length) {
    const simple = simpleUpdate(doc, u);
    if (simple) return simple;
  }
  const parsed = parsedOperators(u, opts);
  if (opts.inserting) checkUpsertId(u, doc);
  else checkIdNotTargeted(u, doc);
  const out = copyTargeted(doc, u);
  // The position `$` stands for: where the statement's query matched this document.
  const matched =
    parsed.positional && opts.filter && !opts.inserting
      ? positionalMatch(
          opts.filter,
          doc,
          (f) => compileFilter(f, opts.variables, opts.collator),
          opts.collator !== undefined,
        )
      : undefined;
  applyOperators(parsed, out, matched, opts.inserting === true);
  if (!opts.inserting) checkIdUnchanged(doc, out);
  return idFirst(out);
}

/** Parsed operator updates by update document: a multi update parses its update once. */
const parsedCache = new WeakMap<
  Doc,
  { arrayFilters: unknown; variables: unknown; parsed: ParsedUpdate }
>();

function parsedOperators(update: Doc, opts: UpdateOptions): ParsedUpdate {
  const hit = parsedCache.get(update);
  if (hit && hit.arrayFilters === opts.arrayFilters && hit.variables === opts.variables)
    return hit.parsed;
  const parsed = parseUpdate(update, opts.arrayFilters, (f) => compileFilter(f, opts.variables));
  parsedCache.set(update, {
    arrayFilters: opts.arrayFilters,
    variables: opts.variables,
    parsed,
  });
  return parsed;
}

/**
 * Checks an update that may match no document, as mongod does before it looks for one: an
 * operator update is parsed (unknown operators, conflicts, bad arguments, unused array filters
 * fail), pipelines and replacements are applied to an empty document.
 */
export function checkUpdate(update: unknown, opts: UpdateOptions = {}): void {
  if (isOperatorUpdate(update)) parsedOperators(update as Doc, opts);
  else applyUpdate({}, update, { ...opts, inserting: true });
}

/** An upsert keeps the `_id` its query gave the new document (mongod's immutable path). */
function checkUpsertId(update: Doc, seed: Doc): void {
  if (seed._id === undefined) return;
  for (const op of ['$set', '$setOnInsert']) {
    const arg = update[op];
    if (isPlainObject(arg) && '_id' in arg && valueKey(arg._id) !== valueKey(seed._id))
      throw serverError(
        'ImmutableField',
        "Performing an update on the path '_id' would modify the immutable field '_id'",
      );
  }
}

/**
 * The commonest updates without mingo: `$set`, `$unset` and `$inc` of top-level fields other than
 * `_id` (no dots, no `$`), each field named once, `$inc` by a number on a number or a missing
 * field. Returns the new version (sharing the fields it does not name), or undefined for any
 * other update, which src/update-operators.ts applies. As there (and in mongod), fields are
 * applied in the order of their names, so new fields are appended in that order.
 */
function simpleUpdate(doc: Doc, update: Doc): Doc | undefined {
  const seen = new Set<string>();
  for (const [op, arg] of Object.entries(update)) {
    if (op !== '$set' && op !== '$unset' && op !== '$inc') return undefined;
    if (!isPlainObject(arg)) return undefined;
    const fields = Object.keys(arg);
    if (fields.length === 0) return undefined;
    for (const f of fields) {
      if (f === '' || f === '_id' || f.includes('.') || f.startsWith('$') || seen.has(f))
        return undefined;
      seen.add(f);
      if (op === '$inc') {
        const by = arg[f];
        const current = doc[f];
        if (typeof by !== 'number' || (current !== undefined && typeof current !== 'number'))
          return undefined;
      }
    }
  }
  const changes: Array<[string, string, unknown]> = [];
  let created = 0;
  for (const [op, arg] of Object.entries(update) as Array<[string, Doc]>)
    for (const [f, v] of Object.entries(arg)) {
      changes.push([f, op, v]);
      if (op !== '$unset' && !Object.hasOwn(doc, f)) created++;
    }
  // Only the order of the fields it creates shows (they are appended).
  if (created > 1) changes.sort((a, b) => compareFields(a[0], b[0]));
  const out: Doc = { ...doc };
  for (const [f, op, v] of changes) {
    if (op === '$set') setField(out, f, cloneDoc(v));
    else if (op === '$unset') delete out[f];
    else out[f] = ((doc[f] as number | undefined) ?? 0) + (v as number);
  }
  return out;
}

/**
 * The copy of `doc` an operator update may change in place: a new top-level object whose fields
 * are deep copies where the update names them (the first segment of each path, both ends of a
 * `$rename`) and the stored values everywhere else. Stored documents are never changed in place,
 * so the new version can share what the update does not touch: one copy of what changes instead
 * of a deep copy of the whole document.
 */
function copyTargeted(doc: Doc, modifier: Doc): Doc {
  const out: Doc = { ...doc };
  for (const [op, arg] of Object.entries(modifier)) {
    if (!isPlainObject(arg)) continue;
    for (const [path, value] of Object.entries(arg)) {
      const targets = op === '$rename' ? [path, String(value)] : [path];
      for (const t of targets) {
        const dot = t.indexOf('.');
        const top = dot < 0 ? t : t.slice(0, dot);
        if (Object.hasOwn(doc, top) && out[top] === doc[top]) out[top] = cloneDoc(doc[top]);
      }
    }
  }
  return out;
}

function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur: Doc = doc;
  for (const p of parts.slice(0, -1)) {
    if (!isPlainObject(cur[p])) cur[p] = {};
    cur = cur[p] as Doc;
  }
  cur[parts[parts.length - 1] as string] = cloneDoc(value);
}

/** The document an upsert starts from: the filter's equality conditions. */
export function upsertSeed(filter: Doc): Doc {
  const seed: Doc = {};
  const visit = (f: Doc) => {
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(v)) v.forEach((p) => isPlainObject(p) && visit(p));
      else if (k.startsWith('$')) continue;
      else if (isPlainObject(v) && Object.keys(v).some((x) => x.startsWith('$'))) {
        if ('$eq' in v) setPath(seed, k, v.$eq);
      } else setPath(seed, k, v);
    }
  };
  visit(filter);
  return seed;
}

/** Builds the document an upsert inserts; generates an ObjectId _id when none is given. */
export function buildUpsert(filter: Doc, update: unknown, opts: UpdateOptions): Doc {
  const seed = isOperatorUpdate(update) || Array.isArray(update) ? upsertSeed(filter) : {};
  const replacement =
    !Array.isArray(update) && !isOperatorUpdate(update) ? (update as Doc) : undefined;
  let doc = applyUpdate(seed, update, { ...opts, inserting: true });
  if (!('_id' in doc)) {
    // The _id comes from the replacement, else the filter's equality, else a new ObjectId
    // (a null _id is a value like any other).
    const filterSeed = upsertSeed(filter);
    const id =
      replacement && '_id' in replacement
        ? replacement._id
        : '_id' in filterSeed
          ? filterSeed._id
          : new ObjectId();
    doc = { _id: id, ...doc };
  }
  return idFirst(doc);
}
