/**
 * Running a filter that holds `$text`, as mongod's TEXT stage does: the collection's text index
 * gives, for each term of the search string, the documents holding it and its score there; a
 * document's text score is the sum over the terms; the matcher then checks negations, phrases
 * and case or diacritic sensitivity (text/query.ts). The rest of the filter is checked by the
 * caller (query.ts).
 *
 * Where `$text` may stand: at the top level or in `$and` (every match must match it), or in a
 * branch of a top-level `$or` whose other branches can each use an index (mongod's rule for
 * TEXT under OR). Once per filter, never under `$nor`.
 */
import type { Collection, TextIndex } from '../collection';
import { serverError } from '../errors';
import { indexable } from '../planner';
import { isPlainObject, type Doc } from '../values';
import { needsMatcher, parseTextArgs, parseTextQuery, textMatches } from './query';

/**
 * The field that stands for `$text` in a filter where it is one branch of an `$or`: candidates
 * are checked with it set to whether they match the text search. A field name with a NUL byte,
 * which no stored document can have.
 */
export const TEXT_MARKER = '\u0000$text';

/** Whether a filter mentions `$text` anywhere (cheap for the filters that cannot). */
export function mentionsText(filter: Doc): boolean {
  if ('$text' in filter) return true;
  if (!('$and' in filter || '$or' in filter || '$nor' in filter)) return false;
  return countText(filter) > 0;
}

function countText(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + countText(x), 0);
  if (!isPlainObject(v)) return 0;
  let n = 0;
  for (const [k, x] of Object.entries(v)) n += (k === '$text' ? 1 : 0) + countText(x);
  return n;
}

interface Located {
  args: unknown;
  /** The objects ANDed with `$text` (where a compound index's prefix equalities are read). */
  conjunction: Doc[];
  /** When `$text` is a branch of an `$or`: the other branches. */
  otherBranches?: Doc[];
}

/** The objects of a conjunction: `obj` and, through `$and`, every object ANDed with it. */
function conjunctionOf(obj: Doc): Doc[] {
  const out = [obj];
  const and = obj.$and;
  if (Array.isArray(and)) for (const x of and) if (isPlainObject(x)) out.push(...conjunctionOf(x));
  return out;
}

/** Where the one `$text` of a filter stands; mongod's errors for where it may not. */
function locate(filter: Doc): Located {
  const n = countText(filter);
  if (n > 1) throw serverError('BadValue', 'Too many text expressions');
  const conjunction = conjunctionOf(filter);
  for (const obj of conjunction) {
    if ('$text' in obj) return { args: obj.$text, conjunction };
  }
  for (const obj of conjunction) {
    if (Array.isArray(obj.$nor) && countText(obj.$nor) > 0)
      throw serverError('BadValue', 'text expression not allowed in nor');
    if (!Array.isArray(obj.$or)) continue;
    const branches = obj.$or.filter(isPlainObject);
    for (const branch of branches) {
      const inner = conjunctionOf(branch);
      const owner = inner.find((o) => '$text' in o);
      if (owner)
        return {
          args: owner.$text,
          conjunction: inner,
          otherBranches: branches.filter((b) => b !== branch),
        };
    }
  }
  throw serverError(
    'BadValue',
    '$text is supported at the top level of a filter, in $and, or in a branch of a top-level $or; ' +
      'this server does not support it nested elsewhere',
  );
}

/** The filter with `$text` taken out (`marker`: replaced by TEXT_MARKER). */
export function withoutText(filter: Doc, marker: boolean): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$text') {
      if (marker) out[TEXT_MARKER] = true;
    } else if ((k === '$and' || k === '$or') && Array.isArray(v)) {
      out[k] = v.map((x) => (isPlainObject(x) ? withoutText(x, marker) : x));
    } else out[k] = v;
  }
  return out;
}

/** The value a conjunction requires of a field by equality (`{ f: v }` or `{ f: { $eq: v } }`). */
function equalityOf(conjunction: Doc[], field: string): { value: unknown } | undefined {
  for (const obj of conjunction) {
    if (!(field in obj)) continue;
    const cond = obj[field];
    if (isPlainObject(cond) && Object.keys(cond).some((k) => k.startsWith('$'))) {
      const keys = Object.keys(cond);
      if (keys.length === 1 && keys[0] === '$eq') return { value: cond.$eq };
      continue;
    }
    return { value: cond };
  }
  return undefined;
}

function plannerError(ns: string, reason: string): Error {
  return serverError(
    'NoQueryExecutionPlans',
    `error processing query: ns=${ns} planner returned error :: caused by :: ${reason}`,
  );
}

export interface TextSearch {
  index: TextIndex;
  /**
   * The documents holding a term of the search (their ordinals in the index: `resolve` gives the
   * document) and their text scores, in parallel arrays; each may still fail the matcher.
   */
  ords: ArrayLike<number>;
  scores: ArrayLike<number>;
  /** Whether `resolve` can reject a document (negations, phrases, case or diacritics). */
  checks: boolean;
  /** The document of an ordinal, when it matches the `$text` clause. */
  resolve(ord: number): Doc | undefined;
  /** The rest of the filter: `$text` taken out, or (under `$or`) replaced by TEXT_MARKER. */
  filter: Doc;
  /** Whether every match matches the `$text` clause (it is not one branch of an `$or`). */
  required: boolean;
}

/**
 * The text search of a filter that holds `$text` (see `mentionsText`), with mongod's errors:
 * no collection or no text index (IndexNotFound), a compound index's prefix without equality,
 * an `$or` branch beside `$text` that no index serves (NoQueryExecutionPlans).
 */
export function textSearch(coll: Collection | undefined, filter: Doc, ns: string): TextSearch {
  const located = locate(filter);
  const args = parseTextArgs(located.args);
  if (!coll)
    throw serverError(
      'IndexNotFound',
      `text index required for $text query (no such collection '${ns}')`,
    );
  const index = coll.textIndex;
  if (!index) throw serverError('IndexNotFound', 'text index required for $text query');
  const query = parseTextQuery(args, index.text.defaultLanguage);
  const prefixValues: unknown[] = [];
  for (const field of index.text.extraBefore) {
    const eq = equalityOf(located.conjunction, field);
    if (!eq)
      throw plannerError(
        ns,
        'failed to use text index to satisfy $text query (if text index is compound, are equality predicates given for all prefix fields?)',
      );
    prefixValues.push(eq.value ?? null);
  }
  if (located.otherBranches?.some((b) => !indexable(coll, b)))
    throw plannerError(
      ns,
      'Failed to produce a solution for TEXT under OR - other non-TEXT clauses under OR have to be indexed as well.',
    );

  const prefix = index.text.prefixKey(prefixValues);
  const lists = [...query.termsForBounds]
    .map((term) => index.lookup(prefix, term))
    .filter((l) => l !== undefined);
  let ords: ArrayLike<number> = [];
  let scores: ArrayLike<number> = [];
  if (lists.length === 1) {
    // One term: its postings as they are (read before anything changes them).
    ords = lists[0]!.ords;
    scores = lists[0]!.scores;
  } else if (lists.length > 1) {
    ({ ords, scores } = index.sum(lists));
  }
  const checks = needsMatcher(query);
  const resolve = (ord: number): Doc | undefined => {
    const id = index.idOf(ord);
    const doc = id === undefined ? undefined : coll.docs.get(id);
    return doc && (!checks || textMatches(index.text, query, doc)) ? doc : undefined;
  };
  const required = located.otherBranches === undefined;
  return { index, ords, scores, checks, resolve, filter: withoutText(filter, !required), required };
}
