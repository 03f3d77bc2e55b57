/**
 * The unified test format's matching rules ("Evaluating Matches"): flexible numeric comparison,
 * extra fields allowed only in root-level documents, key order ignored, and the special
 * operators $$exists, $$type, $$unsetOrMatches, $$matchesEntity, $$matchesHexBytes,
 * $$sessionLsid, $$lte, $$matchAsDocument and $$matchAsRoot.
 */
import {
  Binary,
  BSONRegExp,
  BSONSymbol,
  Code,
  DBRef,
  Decimal128,
  Double,
  EJSON,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
} from 'bson';

export type Doc = Record<string, unknown>;

export class MatchError extends Error {}

export interface MatchContext {
  /** Looks up an entity for $$matchesEntity / $$sessionLsid. */
  entity(name: string): unknown;
}

export function isDocument(v: unknown): v is Doc {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function isNumeric(v: unknown): boolean {
  return (
    typeof v === 'number' ||
    typeof v === 'bigint' ||
    v instanceof Int32 ||
    v instanceof Long ||
    v instanceof Double
  );
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Long) return v.toNumber();
  if (v instanceof Int32 || v instanceof Double) return v.valueOf();
  return NaN;
}

function show(v: unknown): string {
  try {
    return EJSON.stringify(v as Doc, { relaxed: true });
  } catch {
    return String(v);
  }
}

function fail(path: string, message: string): never {
  throw new MatchError(`${path || '(root)'}: ${message}`);
}

/** Whether `v` is a value of the named BSON type ($type aliases). */
export function hasType(v: unknown, type: string): boolean {
  switch (type) {
    case 'double':
      return v instanceof Double || typeof v === 'number';
    case 'int':
      return v instanceof Int32 || (typeof v === 'number' && Number.isInteger(v));
    case 'long':
      return (
        v instanceof Long || typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))
      );
    case 'decimal':
      return v instanceof Decimal128;
    case 'number':
      return isNumeric(v) || v instanceof Decimal128;
    case 'string':
      return typeof v === 'string';
    case 'object':
      return isDocument(v) || v instanceof DBRef;
    case 'array':
      return Array.isArray(v);
    case 'binData':
      return v instanceof Binary || v instanceof Uint8Array;
    case 'undefined':
      return v === undefined;
    case 'objectId':
      return v instanceof ObjectId;
    case 'bool':
      return typeof v === 'boolean';
    case 'date':
      return v instanceof Date;
    case 'null':
      return v === null;
    case 'regex':
      return v instanceof RegExp || v instanceof BSONRegExp;
    case 'javascript':
      return v instanceof Code && !v.scope;
    case 'javascriptWithScope':
      return v instanceof Code && !!v.scope;
    case 'symbol':
      return v instanceof BSONSymbol;
    case 'timestamp':
      return v instanceof Timestamp;
    case 'minKey':
      return v instanceof MinKey;
    case 'maxKey':
      return v instanceof MaxKey;
    default:
      throw new MatchError(`unknown $$type ${type}`);
  }
}

/** Exact equality of two non-document, non-array values (numbers compared by value). */
function scalarEquals(expected: unknown, actual: unknown): boolean {
  if (isNumeric(expected) && isNumeric(actual)) {
    const a = toNumber(expected);
    const b = toNumber(actual);
    return a === b || (Number.isNaN(a) && Number.isNaN(b));
  }
  if (expected === null || expected === undefined) return actual === expected;
  if (expected instanceof ObjectId) return actual instanceof ObjectId && expected.equals(actual);
  if (expected instanceof Date)
    return actual instanceof Date && expected.getTime() === actual.getTime();
  if (expected instanceof Decimal128)
    return actual instanceof Decimal128 && expected.toString() === actual.toString();
  if (expected instanceof Binary)
    return (
      actual instanceof Binary &&
      expected.sub_type === actual.sub_type &&
      Buffer.from(expected.buffer).equals(Buffer.from(actual.buffer))
    );
  if (expected instanceof RegExp || expected instanceof BSONRegExp) {
    const src = (r: unknown) =>
      r instanceof RegExp
        ? [r.source, r.flags.split('').sort().join('')]
        : r instanceof BSONRegExp
          ? [r.pattern, r.options.split('').sort().join('')]
          : undefined;
    return JSON.stringify(src(expected)) === JSON.stringify(src(actual));
  }
  if (expected instanceof Timestamp) return actual instanceof Timestamp && expected.equals(actual);
  if (expected instanceof MinKey) return actual instanceof MinKey;
  if (expected instanceof MaxKey) return actual instanceof MaxKey;
  if (typeof expected === 'object' && typeof actual === 'object')
    return show(expected) === show(actual);
  return expected === actual;
}

function specialOperator(v: unknown): string | undefined {
  if (!isDocument(v)) return undefined;
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0]!.startsWith('$$') ? keys[0] : undefined;
}

/**
 * Asserts that `actual` matches `expected`; throws MatchError naming the first mismatch.
 * `root` allows extra fields in `actual` when both are documents.
 */
export function match(
  expected: unknown,
  actual: unknown,
  ctx: MatchContext,
  root = true,
  path = '',
): void {
  const op = specialOperator(expected);
  if (op) {
    matchOperator(op, (expected as Doc)[op], actual, ctx, root, path);
    return;
  }
  if (isDocument(expected)) {
    if (!isDocument(actual))
      fail(path, `expected a document ${show(expected)}, got ${show(actual)}`);
    for (const [key, value] of Object.entries(expected)) {
      const sub = path ? `${path}.${key}` : key;
      const keyOp = specialOperator(value);
      if (keyOp === '$$exists') {
        const exists = Object.hasOwn(actual, key) && actual[key] !== undefined;
        if (exists !== (value as Doc).$$exists)
          fail(sub, exists ? `should not exist (is ${show(actual[key])})` : 'should exist');
        continue;
      }
      if (keyOp === '$$unsetOrMatches') {
        if (!Object.hasOwn(actual, key) || actual[key] === undefined) continue;
        match((value as Doc).$$unsetOrMatches, actual[key], ctx, false, sub);
        continue;
      }
      if (!Object.hasOwn(actual, key) || actual[key] === undefined) {
        // $$type: "undefined" cannot be expressed otherwise
        fail(sub, `missing (expected ${show(value)})`);
      }
      match(value, actual[key], ctx, false, sub);
    }
    if (!root) {
      for (const key of Object.keys(actual)) {
        if (!Object.hasOwn(expected, key) && actual[key] !== undefined)
          fail(path ? `${path}.${key}` : key, `unexpected field (value ${show(actual[key])})`);
      }
    }
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual))
      fail(path, `expected an array ${show(expected)}, got ${show(actual)}`);
    if (actual.length !== expected.length)
      fail(
        path,
        `expected ${expected.length} elements ${show(expected)}, got ${actual.length}: ${show(actual)}`,
      );
    expected.forEach((e, i) => match(e, actual[i], ctx, false, `${path}[${i}]`));
    return;
  }
  if (!scalarEquals(expected, actual))
    fail(path, `expected ${show(expected)}, got ${show(actual)}`);
}

function matchOperator(
  op: string,
  arg: unknown,
  actual: unknown,
  ctx: MatchContext,
  root: boolean,
  path: string,
): void {
  switch (op) {
    case '$$exists':
      if ((actual !== undefined) !== arg) fail(path, `$$exists ${String(arg)}`);
      return;
    case '$$type': {
      const types = Array.isArray(arg) ? (arg as string[]) : [arg as string];
      if (actual === undefined || !types.some((t) => hasType(actual, t)))
        fail(path, `expected type ${types.join('|')}, got ${show(actual)}`);
      return;
    }
    case '$$unsetOrMatches':
      if (actual === undefined) return;
      match(arg, actual, ctx, root, path);
      return;
    case '$$matchesEntity':
      match(ctx.entity(arg as string), actual, ctx, root, path);
      return;
    case '$$matchesHexBytes': {
      const hex =
        typeof actual === 'string' ? actual : Buffer.from(actual as Uint8Array).toString('hex');
      if (hex.toLowerCase() !== String(arg).toLowerCase())
        fail(path, `expected bytes ${String(arg)}`);
      return;
    }
    case '$$sessionLsid': {
      const session = ctx.entity(arg as string) as { id?: unknown } | undefined;
      if (!session?.id) throw new MatchError(`${String(arg)} is not a session entity`);
      match(session.id, actual, ctx, false, path);
      return;
    }
    case '$$lte':
      if (!isNumeric(actual) || toNumber(actual) > toNumber(arg))
        fail(path, `expected <= ${show(arg)}, got ${show(actual)}`);
      return;
    case '$$matchAsDocument':
      if (typeof actual !== 'string') fail(path, 'expected an Extended JSON string');
      match(arg, EJSON.parse(actual, { relaxed: false }), ctx, false, path);
      return;
    case '$$matchAsRoot':
      match(arg, actual, ctx, true, path);
      return;
    default:
      throw new MatchError(`unsupported special operator ${op}`);
  }
}

/** Collection outcome comparison: exact documents (no extra fields anywhere), key order free. */
export function matchExact(expected: unknown, actual: unknown, path = ''): void {
  if (isDocument(expected)) {
    if (!isDocument(actual))
      fail(path, `expected a document ${show(expected)}, got ${show(actual)}`);
    const ek = Object.keys(expected).sort();
    const ak = Object.keys(actual)
      .filter((k) => actual[k] !== undefined)
      .sort();
    if (ek.join('\0') !== ak.join('\0'))
      fail(path, `expected keys ${ek.join(',')}, got ${ak.join(',')} (${show(actual)})`);
    for (const k of ek) matchExact(expected[k], actual[k], path ? `${path}.${k}` : k);
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length)
      fail(path, `expected ${show(expected)}, got ${show(actual)}`);
    expected.forEach((e, i) => matchExact(e, actual[i], `${path}[${i}]`));
    return;
  }
  if (!scalarEquals(expected, actual))
    fail(path, `expected ${show(expected)}, got ${show(actual)}`);
}
