/**
 * BSON value helpers: MongoDB's cross-type sort order, equality keys for _id and index entries,
 * and a deep copy that keeps BSON value classes (ObjectId, Long, Binary...) intact.
 */
import {
  Binary,
  DBRef,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
  BSONRegExp,
} from 'bson';

export type Doc = Record<string, unknown>;

/** Whether a value is or holds a string (the values a collation compares differently). */
export function holdsString(v: unknown): boolean {
  if (typeof v === 'string') return true;
  if (Array.isArray(v)) return v.some(holdsString);
  if (isPlainObject(v)) return Object.values(v).some(holdsString);
  return false;
}

/** MongoDB's canonical type order for comparisons and sorting (numbers of every width share 2). */
export function typeRank(v: unknown): number {
  if (v === undefined || v === null) return 1;
  if (v instanceof MinKey) return 0;
  if (v instanceof MaxKey) return 100;
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return 2;
    case 'string':
      return 3;
    case 'boolean':
      return 8;
    case 'object':
      break;
    default:
      return 3;
  }
  // Before Long: bson's Timestamp is a subclass of Long, but sorts after dates, not as a number.
  if (v instanceof Timestamp) return 10;
  if (v instanceof Long || v instanceof Int32 || v instanceof Double || v instanceof Decimal128)
    return 2;
  if (Array.isArray(v)) return 5;
  if (v instanceof Binary || v instanceof Uint8Array) return 6;
  if (v instanceof ObjectId) return 7;
  if (v instanceof Date) return 9;
  if (v instanceof RegExp || v instanceof BSONRegExp) return 11;
  return 4; // embedded document
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Long) return v.toNumber();
  if (v instanceof Int32 || v instanceof Double) return v.valueOf();
  if (v instanceof Decimal128) return Number(v.toString());
  return NaN;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number) ? -1 : 1;
  }
  return 0;
}

/** Compares two BSON values in MongoDB's order (numbers by value across numeric types). */
export function compareValues(a: unknown, b: unknown): number {
  // The common pairs first (index keys are mostly these), with the results of the general path.
  const t = typeof a;
  if (t === typeof b) {
    if (t === 'string')
      return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
    if (t === 'number' && a === a && b === b)
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    if (a instanceof Date && b instanceof Date) {
      const x = a.getTime();
      const y = b.getTime();
      return x < y ? -1 : x > y ? 1 : 0;
    }
  }
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 1:
    case 0:
    case 100:
      return 0;
    case 2: {
      const x = toNumber(a);
      const y = toNumber(b);
      if (Number.isNaN(x) || Number.isNaN(y)) {
        return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : -1) : 1;
      }
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 3: {
      const x = String(a);
      const y = String(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 4: {
      const ea = Object.entries(docView(a));
      const eb = Object.entries(docView(b));
      for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
        const [ka, va] = ea[i] as [string, unknown];
        const [kb, vb] = eb[i] as [string, unknown];
        const t = typeRank(va) - typeRank(vb);
        if (t !== 0) return t < 0 ? -1 : 1;
        if (ka !== kb) return ka < kb ? -1 : 1;
        const c = compareValues(va, vb);
        if (c !== 0) return c;
      }
      return ea.length === eb.length ? 0 : ea.length < eb.length ? -1 : 1;
    }
    case 5: {
      const xa = a as unknown[];
      const xb = b as unknown[];
      for (let i = 0; i < Math.min(xa.length, xb.length); i++) {
        const c = compareValues(xa[i], xb[i]);
        if (c !== 0) return c;
      }
      return xa.length === xb.length ? 0 : xa.length < xb.length ? -1 : 1;
    }
    case 6: {
      const ba = a instanceof Binary ? a.buffer : (a as Uint8Array);
      const bb = b instanceof Binary ? b.buffer : (b as Uint8Array);
      return compareBytes(ba, bb);
    }
    case 7:
      return compareBytes((a as ObjectId).id, (b as ObjectId).id);
    case 8:
      return a === b ? 0 : a ? 1 : -1;
    case 9: {
      const x = (a as Date).getTime();
      const y = (b as Date).getTime();
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 10:
      return (a as Timestamp).compare(b as Timestamp);
    default:
      return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  }
}

/**
 * A string that is equal for two values exactly when MongoDB considers them equal
 * (1, 1.0 and NumberLong(1) share a key). Used for _id lookups and unique index entries.
 */
export function valueKey(v: unknown): string {
  if (v === undefined || v === null) return 'z';
  switch (typeof v) {
    case 'string':
      return 's' + v;
    case 'number':
      return 'n' + (Object.is(v, -0) ? 0 : v);
    case 'boolean':
      return v ? 'bt' : 'bf';
    case 'bigint':
      return 'n' + v.toString();
  }
  if (v instanceof ObjectId) return 'o' + v.toHexString();
  if (v instanceof Date) return 'd' + v.getTime();
  // Before Long, of which bson's Timestamp is a subclass: a timestamp never equals a number.
  if (v instanceof Timestamp) return 't' + v.toString();
  if (v instanceof Long || v instanceof Int32 || v instanceof Double) return 'n' + toNumber(v);
  if (v instanceof Decimal128) return 'n' + Number(v.toString());
  if (Array.isArray(v)) return '[' + v.map(valueKey).join(',') + ']';
  if (v instanceof Binary) return 'x' + v.sub_type + ':' + Buffer.from(v.buffer).toString('hex');
  if (v instanceof Uint8Array) return 'x0:' + Buffer.from(v).toString('hex');
  if (v instanceof RegExp) return 'r' + v.toString();
  if (v instanceof MinKey) return '-';
  if (v instanceof MaxKey) return '+';
  if (typeof v === 'object') {
    return (
      '{' +
      Object.entries(docView(v))
        .map(([k, x]) => JSON.stringify(k) + ':' + valueKey(x))
        .join(',') +
      '}'
    );
  }
  return 'u' + String(v);
}

/**
 * An embedded document's fields as stored: a DBRef (which bson decodes `{ $ref, $id, $db }`
 * documents into) as its `$ref`, `$id`, `$db` and other fields, in that order.
 */
export function docView(v: unknown): Doc {
  if (v instanceof DBRef) return v.toJSON() as unknown as Doc;
  return v as Doc;
}

function isPlainObject(v: unknown): v is Doc {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Sets a field of a document as its own data property: a field named `__proto__` (a legal field
 * name, which bson decodes as an own property) is kept as a field instead of replacing the
 * object's prototype.
 */
export function setField(doc: Doc, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(doc, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  else doc[key] = value;
}

/** Deep copy of plain objects and arrays; BSON value objects are immutable here and shared. */
export function cloneDoc<T>(v: T): T {
  if (Array.isArray(v)) return v.map(cloneDoc) as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (isPlainObject(v)) {
    const out: Doc = {};
    for (const k of Object.keys(v)) setField(out, k, cloneDoc(v[k]));
    return out as T;
  }
  return v;
}

export { isPlainObject };

/** Reads a dotted path; arrays along the way yield every element's value (multikey semantics). */
export function valuesAtPath(doc: unknown, path: string[], i = 0): unknown[] {
  if (i === path.length) return [doc];
  if (Array.isArray(doc)) {
    const seg = path[i] as string;
    if (/^\d+$/.test(seg)) return valuesAtPath(doc[Number(seg)], path, i + 1);
    return doc.flatMap((el) =>
      isPlainObject(el) || el instanceof DBRef ? valuesAtPath(el, path, i) : [],
    );
  }
  if (doc instanceof DBRef) return valuesAtPath(docView(doc), path, i);
  if (!isPlainObject(doc)) return [undefined];
  const seg = path[i] as string;
  // Own fields only: a path named like a prototype property (`constructor`) reads nothing.
  return valuesAtPath(Object.hasOwn(doc, seg) ? doc[seg] : undefined, path, i + 1);
}

/** Whether MongoDB considers two values equal (same as comparing their valueKey), cheaply when shared. */
export function sameValue(a: unknown, b: unknown): boolean {
  return a === b || valueKey(a) === valueKey(b);
}

/** Whether two documents are the same (field order included), field by field. */
export function sameDocument(a: Doc, b: Doc): boolean {
  if (a === b) return true;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i] as string;
    if (k !== kb[i] || !sameValue(a[k], b[k])) return false;
  }
  return true;
}

/**
 * The change from `before` to `after` as top-level fields to set (changed or new, in `after`'s
 * order) and to remove, such that `applyDelta(before, delta)` rebuilds `after` with its field
 * order; undefined when it cannot (fields reordered) or would not be smaller than `after`.
 */
export function topLevelDelta(before: Doc, after: Doc): { set: Doc; unset: string[] } | undefined {
  const oldKeys = Object.keys(before);
  const newKeys = Object.keys(after);
  const unset: string[] = [];
  let i = 0;
  for (const k of oldKeys) {
    if (!Object.hasOwn(after, k)) {
      unset.push(k);
      continue;
    }
    if (newKeys[i++] !== k) return undefined;
  }
  const set: Doc = {};
  let changed = 0;
  for (let j = 0; j < newKeys.length; j++) {
    const k = newKeys[j] as string;
    if (j < i && sameValue(before[k], after[k])) continue;
    if (j >= i && Object.hasOwn(before, k)) return undefined;
    set[k] = after[k];
    changed++;
  }
  if (changed >= newKeys.length) return undefined;
  return { set, unset };
}

/** Applies a `topLevelDelta` to a document, returning the new version (the old one is untouched). */
export function applyDelta(before: Doc, delta: { set?: Doc; unset?: string[] }): Doc {
  const out: Doc = { ...before };
  for (const k of delta.unset ?? []) delete out[k];
  for (const [k, v] of Object.entries(delta.set ?? {})) setField(out, k, v);
  return out;
}
