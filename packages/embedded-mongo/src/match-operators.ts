/**
 * Query operators with mongod's semantics where mingo's differ, given to mingo in place of its
 * own (see mingo.ts): equality and ranges over every BSON type (numbers of every width alike,
 * BinData by length then bytes, type brackets), `$in` / `$nin` of BinData (a Buffer), `$type`
 * with mongod's type names and codes (an int32 is not a double, an ObjectId is `objectId` / 7),
 * `$all` on a field that is not an array, the `$bits*` operators on BinData, and `$elemMatch`
 * over DBRefs (`{ $elemMatch: { $id: ... } }` names the DBRef's fields). With a collation
 * (`matchOperators(collator)`, see collation.ts) equality, `$in`, `$all` and ranges compare
 * strings, also inside arrays and documents, through it.
 *
 * Paths are read as mongod reads them: through arrays (each element that is a document, and the
 * element at a numeric position), DBRefs as the `{ $ref, $id, $db }` documents they were, own
 * fields only (a field named `__proto__` or `constructor` is a field like any other). A leaf
 * array matches when the array itself or one of its elements does.
 */
import {
  Binary,
  BSONRegExp,
  BSONSymbol,
  Code,
  DBRef,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
} from 'bson';
import type { Options } from 'mingo/types';
import { Query } from 'mingo/query';
import { badValue, serverError } from './errors';
import type { Collator } from './collation';
import {
  compareValues,
  docView,
  holdsString,
  isPlainObject,
  typeRank,
  valueKey,
  type Doc,
} from './values';

type Predicate = (doc: unknown) => boolean;
type QueryOperator = (selector: string, value: unknown, options: Options) => Predicate;

/** What a path reaches: every value found, and whether some branch of it found nothing. */
interface Reached {
  values: unknown[];
  missing: boolean;
}

function isDoc(v: unknown): v is Doc {
  return isPlainObject(v) || v instanceof DBRef;
}

function walk(v: unknown, path: string[], i: number, out: Reached): void {
  if (i === path.length) {
    if (v === undefined) out.missing = true;
    else out.values.push(v);
    return;
  }
  const seg = path[i] as string;
  if (Array.isArray(v)) {
    // A numeric segment names a position; documents in the array are searched as well.
    if (/^\d+$/.test(seg) && Number(seg) < v.length) walk(v[Number(seg)], path, i + 1, out);
    let any = false;
    for (const el of v) {
      if (!isDoc(el)) continue;
      any = true;
      walk(el, path, i, out);
    }
    if (!any) out.missing = true;
    return;
  }
  if (!isDoc(v)) {
    out.missing = true;
    return;
  }
  const d = docView(v);
  walk(Object.hasOwn(d, seg) ? d[seg] : undefined, path, i + 1, out);
}

export function reach(doc: unknown, selector: string): Reached {
  const out: Reached = { values: [], missing: false };
  walk(doc, selector.split('.'), 0, out);
  return out;
}

/** Each value and, for an array, each of its elements (mongod's leaf array semantics). */
function candidates(r: Reached): unknown[] {
  const out: unknown[] = [];
  for (const v of r.values) {
    out.push(v);
    if (Array.isArray(v)) for (const el of v) out.push(el);
  }
  return out;
}

function isRegex(v: unknown): v is RegExp | BSONRegExp {
  return v instanceof RegExp || v instanceof BSONRegExp;
}

function toRegExp(v: RegExp | BSONRegExp): RegExp {
  if (v instanceof RegExp) return v;
  return new RegExp(v.pattern, v.options.replace(/[^imsux]/g, '').replace('x', ''));
}

function isNullish(v: unknown): boolean {
  return v === null || v === undefined;
}

/**
 * A test of one value for equality with `target`, MongoDB's way (null also matches missing);
 * through the collator when the target is or holds a string.
 */
function equalsTo(target: unknown, c?: Collator): (v: unknown) => boolean {
  if (target === null || target === undefined) return isNullish;
  if (c && holdsString(target)) return (v) => v !== undefined && v !== null && c.equals(v, target);
  if (typeof target === 'string') return (v) => v === target;
  if (typeof target === 'boolean') return (v) => v === target;
  if (typeof target === 'number' && !Number.isNaN(target)) {
    const numberKey = valueKey(target);
    return (v) =>
      v === target || (typeof v === 'object' && v !== null && valueKey(v) === numberKey);
  }
  const key = valueKey(target);
  return (v) => v !== undefined && v !== null && valueKey(v) === key;
}

/** A test for one `$in` / `$all` element: a regular expression matches strings (and itself). */
function matcherOf(target: unknown, c?: Collator): (v: unknown) => boolean {
  if (!isRegex(target)) return equalsTo(target, c);
  const re = toRegExp(target);
  const key = valueKey(target instanceof BSONRegExp ? re : target);
  return (v) =>
    (typeof v === 'string' && ((re.lastIndex = 0), re.test(v))) ||
    (v instanceof BSONSymbol && ((re.lastIndex = 0), re.test(v.value))) ||
    (isRegex(v) && valueKey(v instanceof BSONRegExp ? toRegExp(v) : v) === key);
}

/** Whether some value the path reaches (or, for null, its absence) passes `test`. */
function anyCandidate(
  doc: unknown,
  selector: string,
  test: (v: unknown) => boolean,
  nullish: boolean,
): boolean {
  const r = reach(doc, selector);
  if (nullish && (r.missing || r.values.length === 0)) return true;
  for (const v of candidates(r)) if (test(v)) return true;
  return false;
}

const eqOperator =
  (c?: Collator): QueryOperator =>
  (selector, value) => {
    const test = equalsTo(value, c);
    const nullish = isNullish(value);
    return (doc) => anyCandidate(doc, selector, test, nullish);
  };

const neOperator =
  (c?: Collator): QueryOperator =>
  (selector, value, options) => {
    if (isRegex(value)) throw badValue("Can't have regex as arg to $ne.");
    const eq = eqOperator(c)(selector, value, options);
    return (doc) => !eq(doc);
  };

function inTest(
  value: unknown,
  op: string,
  c?: Collator,
): { test: (v: unknown) => boolean; nullish: boolean } {
  if (!Array.isArray(value)) throw badValue(`${op} needs an array`);
  for (const v of value)
    if (isPlainObject(v) && Object.keys(v)[0]?.startsWith('$') && !('$ref' in v))
      throw badValue(`cannot nest $ under ${op}`);
  const keys = new Set<string>();
  // Besides the regular expressions, the values a collation compares (strings) are tested one
  // by one; every other value by its key.
  const others: Array<(v: unknown) => boolean> = [];
  let nullish = false;
  for (const v of value) {
    if (isNullish(v)) nullish = true;
    else if (isRegex(v) || (c && holdsString(v))) others.push(matcherOf(v, c));
    else keys.add(valueKey(v));
  }
  return {
    nullish,
    test: (v) =>
      (nullish && isNullish(v)) ||
      (v !== undefined && v !== null && keys.has(valueKey(v))) ||
      others.some((m) => m(v)),
  };
}

const inOperator =
  (c?: Collator): QueryOperator =>
  (selector, value) => {
    const { test, nullish } = inTest(value, '$in', c);
    return (doc) => anyCandidate(doc, selector, test, nullish);
  };

const ninOperator =
  (c?: Collator): QueryOperator =>
  (selector, value) => {
    const { test, nullish } = inTest(value, '$nin', c);
    return (doc) => !anyCandidate(doc, selector, test, nullish);
  };

/**
 * `$gt` / `$gte` / `$lt` / `$lte`: values of the target's canonical type only (numbers of every
 * width together), compared in BSON order; null as a target is equality with null for the
 * inclusive forms and matches nothing for the others; NaN equals only NaN; MinKey and MaxKey
 * compare with everything.
 */
function range(
  accept: (c: number) => boolean,
  inclusive: boolean,
  collator?: Collator,
): QueryOperator {
  const compare = collator ? collator.compare : compareValues;
  return (selector, value) => {
    if (isRegex(value))
      throw badValue(`Can't have RegEx as arg to predicate over field '${selector}'.`);
    if (value === null || value === undefined) {
      if (!inclusive) return () => false;
      return (doc) => anyCandidate(doc, selector, isNullish, true);
    }
    if (typeof value === 'number' && Number.isNaN(value)) {
      if (!inclusive) return () => false;
      return (doc) =>
        anyCandidate(doc, selector, (v) => typeRank(v) === 2 && Number.isNaN(toNumber(v)), false);
    }
    const rank = typeRank(value);
    const anyType = value instanceof MinKey || value instanceof MaxKey;
    const test = (v: unknown): boolean => {
      if (v === undefined) return false;
      if (!anyType && typeRank(v) !== rank) return false;
      if (rank === 2 && Number.isNaN(toNumber(v))) return false;
      return accept(compare(v, value));
    };
    return (doc) => anyCandidate(doc, selector, test, false);
  };
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Long) return v.toNumber();
  if (v instanceof Int32 || v instanceof Double) return v.value;
  if (v instanceof Decimal128) return Number(v.toString());
  return NaN;
}

/** mongod's type names (and `number`) and codes for `$type`. */
const TYPE_CODES: Record<string, number> = {
  double: 1,
  string: 2,
  object: 3,
  array: 4,
  binData: 5,
  undefined: 6,
  objectId: 7,
  bool: 8,
  date: 9,
  null: 10,
  regex: 11,
  dbPointer: 12,
  javascript: 13,
  symbol: 14,
  javascriptWithScope: 15,
  int: 16,
  timestamp: 17,
  long: 18,
  decimal: 19,
  minKey: -1,
  maxKey: 127,
};
const VALID_CODES = new Set(Object.values(TYPE_CODES));
/** `$type: 'number'`: any of double, int, long, decimal. */
const NUMBER = 0;

/**
 * The BSON type a stored value is sent back as: a JavaScript number is an int32 when it is an
 * integer in int32's range and a double otherwise (what the reply's encoder writes; an int64 or
 * an integral double that fits is decoded as such a number), a Long an int64.
 */
export function bsonTypeOf(v: unknown): number | undefined {
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 ? 16 : 1;
    case 'bigint':
      return 18;
    case 'string':
      return 2;
    case 'boolean':
      return 8;
    case 'undefined':
      return undefined;
    case 'function':
      return 13;
  }
  if (v === null) return 10;
  if (Array.isArray(v)) return 4;
  if (v instanceof Timestamp) return 17;
  if (v instanceof Long) return 18;
  if (v instanceof Int32) return 16;
  if (v instanceof Double) return 1;
  if (v instanceof Decimal128) return 19;
  if (v instanceof ObjectId) return 7;
  if (v instanceof Date) return 9;
  if (isRegex(v)) return 11;
  if (v instanceof Binary || v instanceof Uint8Array) return 5;
  if (v instanceof Code) return v.scope ? 15 : 13;
  if (v instanceof BSONSymbol) return 14;
  if (v instanceof MinKey) return -1;
  if (v instanceof MaxKey) return 127;
  return 3;
}

function typeCode(t: unknown): number {
  if (typeof t === 'string') {
    if (t === 'number') return NUMBER;
    const code = TYPE_CODES[t];
    if (code === undefined) throw badValue(`Unknown type name alias: ${t}`);
    return code;
  }
  if (typeof t === 'number' || t instanceof Long || t instanceof Int32 || t instanceof Double) {
    const n = Number(t instanceof Long ? t.toNumber() : t.valueOf());
    if (!Number.isInteger(n)) throw badValue(`Invalid numerical type code: ${n}`);
    if (!VALID_CODES.has(n)) throw badValue(`Invalid numerical type code: ${n}`);
    return n;
  }
  throw serverError('TypeMismatch', 'type must be represented as a number or a string');
}

const $type: QueryOperator = (selector, value) => {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) throw badValue(`${selector} must match at least one type`);
  const codes = new Set(list.map(typeCode));
  const matches = (v: unknown): boolean => {
    const code = bsonTypeOf(v);
    if (code === undefined) return false;
    return (
      codes.has(code) ||
      (codes.has(NUMBER) && (code === 1 || code === 16 || code === 18 || code === 19))
    );
  };
  return (doc) => candidates(reach(doc, selector)).some(matches);
};

const allOperator =
  (c?: Collator): QueryOperator =>
  (selector, value, options) => {
    if (!Array.isArray(value)) throw badValue('$all needs an array');
    if (value.length === 0) return () => false;
    const parts = value.map((v): Predicate => {
      if (isPlainObject(v) && Object.keys(v)[0] === '$elemMatch')
        return $elemMatch(selector, v.$elemMatch, options);
      if (isPlainObject(v) && Object.keys(v)[0]?.startsWith('$') && !('$ref' in v))
        throw badValue('no $ expressions in $all');
      const test = matcherOf(v, c);
      const nullish = isNullish(v);
      return (doc) => anyCandidate(doc, selector, test, nullish);
    });
    return (doc) => parts.every((p) => p(doc));
  };

/** The logical operators under which `$elemMatch`'s document form names fields. */
const LOGICAL = new Set(['$and', '$or', '$nor']);
/** A DBRef's fields, which look like operators. */
const DBREF_FIELDS = new Set(['$ref', '$id', '$db']);
/** The name each element is tested under (not a field name a filter can use by accident). */
const ELEMENT = '\u0000e';

/** `criteria` with every field name under ELEMENT (logical operators' clauses too). */
function underElement(criteria: Doc): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(criteria)) {
    if (LOGICAL.has(k) && Array.isArray(v))
      out[k] = v.map((c) => (isPlainObject(c) ? underElement(c) : c));
    else if (k.startsWith('$') && !DBREF_FIELDS.has(k)) out[k] = v;
    else out[`${ELEMENT}.${k}`] = v;
  }
  return out;
}

/**
 * `$elemMatch`: an element of the array matches every condition. Conditions made only of
 * operators (`{ $gte: 1, $in: [...] }`) test the element itself; otherwise they name the fields
 * of an element that is a document, where `$ref`, `$id` and `$db` are a DBRef's fields.
 */
export const $elemMatch: QueryOperator = (selector, value, options) => {
  if (!isPlainObject(value)) throw badValue('$elemMatch needs an Object');
  const elementTest = elemMatchTest(value, options);
  return (doc) => {
    const r = reach(doc, selector);
    for (const v of r.values)
      if (Array.isArray(v)) for (const el of v) if (elementTest(el)) return true;
    return false;
  };
};

/** The test one array element must pass for `$elemMatch: criteria`. */
export function elemMatchTest(criteria: Doc, options: Options): (el: unknown) => boolean {
  const keys = Object.keys(criteria);
  const valueForm =
    keys.length > 0 &&
    keys.every((k) => k.startsWith('$') && !LOGICAL.has(k) && !DBREF_FIELDS.has(k));
  if (valueForm) {
    const q = new Query({ [ELEMENT]: criteria }, options);
    return (el) => q.test({ [ELEMENT]: el });
  }
  const q = new Query(underElement(criteria), options);
  return (el) => isDoc(el) && q.test({ [ELEMENT]: el });
}

/** The bit positions a `$bits*` argument names: a bitmask number, a list of positions or BinData. */
function bitPositions(op: string, value: unknown): number[] {
  if (Array.isArray(value)) {
    return value.map((p) => {
      const n =
        typeof p === 'number'
          ? p
          : p instanceof Long || p instanceof Int32
            ? Number(p.toString())
            : NaN;
      if (!Number.isInteger(n))
        throw badValue(`bit positions must be an integer but got: ${String(p)}`);
      if (n < 0) throw badValue(`bit positions must be >= 0 but got: ${n}`);
      return n;
    });
  }
  if (value instanceof Binary || value instanceof Uint8Array) {
    const bytes = value instanceof Binary ? value.buffer : value;
    const out: number[] = [];
    for (let i = 0; i < bytes.length * 8; i++) if ((bytes[i >> 3]! >> (i & 7)) & 1) out.push(i);
    return out;
  }
  let mask: bigint;
  if (typeof value === 'number') {
    if (!Number.isInteger(value))
      throw badValue(`${op} takes an Array, a number, or a BinData but received: ${value}`);
    mask = BigInt(value);
  } else if (value instanceof Long || value instanceof Int32) {
    mask = BigInt(value.toString());
  } else if (typeof value === 'bigint') {
    mask = value;
  } else
    throw badValue(`${op} takes an Array, a number, or a BinData but received: ${String(value)}`);
  if (mask < 0n) throw badValue(`${op} bitmask must be a non-negative number`);
  const out: number[] = [];
  for (let i = 0; mask > 0n; i++, mask >>= 1n) if (mask & 1n) out.push(i);
  return out;
}

/** The bit at `pos` of a value the `$bits*` operators look at; undefined for other values. */
function bitReader(v: unknown): ((pos: number) => boolean) | undefined {
  if (v instanceof Binary || v instanceof Uint8Array) {
    const bytes = v instanceof Binary ? v.buffer : v;
    return (pos) => pos >> 3 < bytes.length && ((bytes[pos >> 3]! >> (pos & 7)) & 1) === 1;
  }
  let n: bigint;
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || Math.abs(v) >= 2 ** 63) return undefined;
    n = BigInt(v);
  } else if (v instanceof Long && !(v instanceof Timestamp)) n = BigInt(v.toString());
  else if (v instanceof Int32) n = BigInt(v.value);
  else if (typeof v === 'bigint') n = v;
  else return undefined;
  const bits = BigInt.asUintN(64, n);
  // Beyond 64 bits a number reads as its sign (two's complement).
  return (pos) => (pos < 64 ? ((bits >> BigInt(pos)) & 1n) === 1n : n < 0n);
}

function bits(op: string, all: boolean, set: boolean): QueryOperator {
  return (selector, value) => {
    const positions = bitPositions(op, value);
    const test = (v: unknown): boolean => {
      const read = bitReader(v);
      if (!read) return false;
      return all ? positions.every((p) => read(p) === set) : positions.some((p) => read(p) === set);
    };
    return (doc) => anyCandidate(doc, selector, test, false);
  };
}

/**
 * The query operators given to mingo; with a collator (a non-simple collation, collation.ts),
 * those that compare values compare strings through it. `$elemMatch` runs its criteria in the
 * same mingo context, so with the same operators.
 */
export function matchOperators(collator?: Collator): Record<`$${string}`, QueryOperator> {
  return {
    $eq: eqOperator(collator),
    $ne: neOperator(collator),
    $in: inOperator(collator),
    $nin: ninOperator(collator),
    $gt: range((c) => c > 0, false, collator),
    $gte: range((c) => c >= 0, true, collator),
    $lt: range((c) => c < 0, false, collator),
    $lte: range((c) => c <= 0, true, collator),
    $type,
    $all: allOperator(collator),
    $elemMatch,
    $bitsAllSet: bits('$bitsAllSet', true, true),
    $bitsAnySet: bits('$bitsAnySet', false, true),
    $bitsAllClear: bits('$bitsAllClear', true, false),
    $bitsAnyClear: bits('$bitsAnyClear', false, false),
  };
}

export const MATCH_OPERATORS = matchOperators();
