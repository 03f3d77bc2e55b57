/**
 * The array position the positional `$` update operator stands for: mongod's "elemMatchKey",
 * the position, in the first array on its path, of the element through which a condition of the
 * query matched the document (`{ tags: 'b' }` on `{ tags: ['a', 'b'] }` gives '1';
 * `{ 'comments.author': 'x' }` gives the position in `comments` of the comment by x;
 * `{ arr: { $elemMatch: ... } }` the position of the first element that matches).
 *
 * As in mongod: the conditions of an implicit or explicit `$and` are looked at in turn and the
 * last one that matched through an array gives the position; a `$or` gives the position of its
 * first branch that matches; `$nor`, `$not`, `$ne`, `$nin`, `$expr` and `$where` give none; a
 * condition met by the array as a whole (`{ tags: ['a', 'b'] }`, `$size`) gives none. mongod
 * first sorts the conditions of an `$and` into its canonical order; here they keep the order of
 * the filter (the same result unless two conditions each match through an array). Under a
 * collation (`collated`) strings are compared by the compiled query, which compares through it.
 */
import { ObjectId } from 'bson';
import type { Matcher } from './query';
import { isPlainObject, valueKey, valuesAtPath, type Doc } from './values';

/** A compiled filter (query.ts compileFilter: mingo's, or a collated one). */
type Query = Matcher;

type Compile = (filter: Doc) => Query;

/** How a query is compiled, and whether it compares strings through a collation. */
interface Matching {
  compile: Compile;
  collated: boolean;
}

/** Operators whose matches never record a position (negations and whole-array tests). */
const NO_POSITION = new Set(['$ne', '$nin', '$not', '$size', '$options', '$comment']);

/**
 * The position (a decimal string) for `$` in an update of `doc`, which matches `filter`; undefined
 * when no condition of the filter matched through an array.
 */
export function positionalMatch(
  filter: unknown,
  doc: Doc,
  compileFilter: Compile,
  collated = false,
): string | undefined {
  const cache = new Map<string, Query>();
  const compile: Compile = (f) => {
    const key = valueKey(f);
    let q = cache.get(key);
    if (!q) {
      q = compileFilter(f);
      cache.set(key, q);
    }
    return q;
  };
  return isPlainObject(filter) ? filterPosition(filter, doc, { compile, collated }) : undefined;
}

function filterPosition(filter: Doc, doc: Doc, m: Matching): string | undefined {
  let position: string | undefined;
  for (const [key, cond] of Object.entries(filter)) {
    let p: string | undefined;
    if (key === '$and' && Array.isArray(cond)) {
      for (const sub of cond) {
        if (!isPlainObject(sub)) continue;
        const q = filterPosition(sub, doc, m);
        if (q !== undefined) p = q;
      }
    } else if (key === '$or' && Array.isArray(cond)) {
      const branch = cond.find((sub) => isPlainObject(sub) && m.compile(sub).test(doc));
      if (branch) p = filterPosition(branch as Doc, doc, m);
    } else if (key.startsWith('$')) {
      continue; // $nor, $expr, $where, $comment, $jsonSchema...
    } else if (isOperatorObject(cond)) {
      for (const [op, arg] of Object.entries(cond)) {
        if (NO_POSITION.has(op)) continue;
        if (op === '$all' && Array.isArray(arg)) {
          // mongod reads $all as one equality (or $elemMatch) per value, each in turn.
          for (const v of arg) {
            const q = leafPosition(key, isOperatorObject(v) ? v : { $eq: v }, doc, m);
            if (q !== undefined) p = q;
          }
          continue;
        }
        const single: Doc = { [op]: arg };
        if (op === '$regex' && cond.$options !== undefined) single.$options = cond.$options;
        if (op === '$exists' && arg === false) continue;
        const q = leafPosition(key, single, doc, m);
        if (q !== undefined) p = q;
      }
    } else {
      p = leafPosition(key, cond, doc, m);
    }
    if (p !== undefined) position = p;
  }
  return position;
}

function isOperatorObject(v: unknown): v is Doc {
  if (!isPlainObject(v)) return false;
  const first = Object.keys(v)[0];
  return first !== undefined && first.startsWith('$');
}

/**
 * The position in the first array along `path` of the first element through which `{ path: cond }`
 * holds, found by putting each element in the array's place in turn.
 */
function leafPosition(path: string, cond: unknown, doc: Doc, m: Matching): string | undefined {
  const parts = path.split('.');
  let cur: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    if (!isPlainObject(cur)) {
      if (!Array.isArray(cur)) return undefined;
      const part = parts[i] as string;
      if (/^\d+$/.test(part)) {
        cur = cur[Number(part)]; // an explicit index: no position
        continue;
      }
      return arrayPosition(cur, parts.slice(0, i), path, cond, doc, m, false);
    }
    cur = cur[parts[i] as string];
  }
  if (!Array.isArray(cur)) return undefined;
  return arrayPosition(cur, parts, path, cond, doc, m, true);
}

function arrayPosition(
  arr: unknown[],
  prefix: string[],
  path: string,
  cond: unknown,
  doc: Doc,
  m: Matching,
  leaf: boolean,
): string | undefined {
  if (isScalar(cond) && !(m.collated && typeof cond === 'string')) {
    // Equality with a scalar (the commonest: { tags: 'b' }, { 'comments._id': id }), without mingo.
    const want = valueKey(cond);
    const rest = path.split('.').slice(prefix.length);
    const equal = (v: unknown) =>
      valueKey(v) === want || (Array.isArray(v) && v.some((x) => valueKey(x) === want));
    for (let i = 0; i < arr.length; i++) {
      const el = arr[i];
      if (leaf ? equal(el) : isPlainObject(el) && valuesAtPath(el, rest).some(equal))
        return String(i);
    }
    return undefined;
  }
  const query = m.compile({ [path]: cond });
  const elemMatch = isPlainObject(cond) && '$elemMatch' in cond;
  for (let i = 0; i < arr.length; i++) {
    const el = arr[i];
    if (!leaf && !isPlainObject(el)) continue;
    // $elemMatch tests an array: the element goes in as an array of one.
    const stand = leaf && elemMatch ? [el] : el;
    if (query.test(withValueAt(doc, prefix, stand))) return String(i);
  }
  return undefined;
}

/** A value an equality compares by valueKey alone (no regex, array, document, null or NaN). */
function isScalar(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return !Number.isNaN(v);
    default:
      return v instanceof ObjectId || v instanceof Date;
  }
}

/** A shallow copy of `doc` with `value` in place of what is at `path` (the copy shares the rest). */
function withValueAt(doc: Doc, path: string[], value: unknown): Doc {
  if (path.length === 0) return value as Doc;
  const [head, ...rest] = path as [string, ...string[]];
  const out: Doc = { ...doc };
  const child = doc[head];
  if (rest.length === 0) out[head] = value;
  else if (Array.isArray(child)) {
    const copy = child.slice();
    const idx = Number(rest[0]);
    copy[idx] = rest.length === 1 ? value : withValueAt(child[idx] as Doc, rest.slice(1), value);
    out[head] = copy;
  } else out[head] = withValueAt((child ?? {}) as Doc, rest, value);
  return out;
}
