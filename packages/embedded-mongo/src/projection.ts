/**
 * find's projection as mongod 7.0 parses and applies it (its projection_parser rules): fields
 * included or excluded by path (nested through documents and arrays of documents), `_id` kept
 * unless excluded, the find-only `$slice` (neither inclusion nor exclusion: alone it keeps every
 * other field, and it combines with either kind), `$elemMatch` (an inclusion, with conditions
 * on the array's documents or on its plain values), the positional `field.$`, `$meta` and other
 * aggregation expressions and literals (inclusions), with mongod's error codes and messages for
 * projections it refuses. Included fields keep the document's order; computed ones (`$slice` and
 * `$elemMatch` in an inclusion, expressions, positional) follow them, in the projection's order.
 */
import { DBRef, Decimal128, Double, Int32, Long } from 'bson';
import { evalExpr, OpType } from 'mingo/core';
import type { Options } from 'mingo/types';
import { MongoServerError } from './errors';
import { elemMatchTest } from './match-operators';
import { CONTEXT, Query } from './mingo';
import { normalizeTimezones } from './timezones';
import { isPlainObject, setField, type Doc } from './values';

type Node =
  | { kind: 'include' }
  | { kind: 'exclude' }
  | { kind: 'slice'; skip?: number; limit: number }
  | { kind: 'elemMatch'; test: (el: unknown) => boolean }
  | { kind: 'positional'; field: string }
  | { kind: 'expression'; expr: unknown }
  | { kind: 'path'; children: Map<string, Node> };

type PathNode = Extract<Node, { kind: 'path' }>;

function fail(code: number, message: string): never {
  throw new MongoServerError(code, `Location${code}`, message);
}

function isNumberLike(v: unknown): boolean {
  return (
    typeof v === 'number' ||
    v instanceof Long ||
    v instanceof Int32 ||
    v instanceof Double ||
    v instanceof Decimal128
  );
}

function truthy(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (v instanceof Long) return !v.isZero();
  if (v instanceof Int32 || v instanceof Double) return v.value !== 0;
  if (v instanceof Decimal128) return Number(v.toString()) !== 0;
  return true;
}

function toInt(v: unknown): number {
  if (typeof v === 'number') return Math.trunc(v);
  if (v instanceof Long) return v.toNumber();
  if (v instanceof Int32 || v instanceof Double) return Math.trunc(v.value);
  return Math.trunc(Number(String(v)));
}

interface ParseState {
  filter: Doc;
  options: Partial<Options>;
  type?: 'inclusion' | 'exclusion';
  idIncluded: boolean;
  idExcluded: boolean;
  idSpecified: boolean;
  hasSlice: boolean;
  hasElemMatch: boolean;
  hasMeta: boolean;
  hasPositional: boolean;
}

function addAt(root: PathNode, path: string[], node: Node, full: string): void {
  let cur = root;
  for (let i = 0; i < path.length - 1; i++) {
    const seg = path[i] as string;
    const child = cur.children.get(seg);
    if (!child) {
      const next: PathNode = { kind: 'path', children: new Map() };
      cur.children.set(seg, next);
      cur = next;
    } else if (child.kind === 'path') cur = child;
    else fail(31249, `Path collision at ${full} remaining portion ${path.slice(i + 1).join('.')}`);
  }
  const last = path[path.length - 1] as string;
  if (cur.children.has(last)) fail(31250, `Path collision at ${full}`);
  cur.children.set(last, node);
}

function checkPath(path: string): string[] {
  if (path === '') fail(40352, 'FieldPath cannot be constructed with empty string');
  if (path.startsWith('$'))
    fail(
      16410,
      `FieldPath field names may not start with '$'. Consider using $getField or $setField.`,
    );
  const parts = path.split('.');
  if (parts.some((p) => p === '')) fail(15998, 'FieldPath field names may not be empty strings.');
  return parts;
}

function setType(st: ParseState, type: 'inclusion' | 'exclusion', field: string): void {
  if (st.type && st.type !== type)
    fail(
      type === 'inclusion' ? 31253 : 31254,
      type === 'inclusion'
        ? `Cannot do inclusion on field ${field} in exclusion projection`
        : `Cannot do exclusion on field ${field} in inclusion projection`,
    );
  st.type = type;
}

/** Whether a query condition names `field` (directly or inside $and / $or / $nor). */
function queryNames(filter: unknown, field: string): boolean {
  if (!isPlainObject(filter)) return false;
  return Object.entries(filter).some(([k, v]) => {
    if (k === '$and' || k === '$or' || k === '$nor')
      return Array.isArray(v) && v.some((c) => queryNames(c, field));
    return k.split('.')[0] === field;
  });
}

function parseSlice(arg: unknown): { skip?: number; limit: number } | undefined {
  if (isNumberLike(arg)) return { limit: toInt(arg) };
  if (!Array.isArray(arg)) return undefined;
  if (arg.length !== 2) fail(31272, '$slice array argument should be of form [skip, limit]');
  const [skip, limit] = arg;
  if (!isNumberLike(skip)) return undefined;
  if (!isNumberLike(limit)) fail(31258, '$slice expects the limit argument to be a number');
  if (toInt(limit) <= 0) fail(31259, `$slice limit must be positive, got ${toInt(limit)}`);
  return { skip: toInt(skip), limit: toInt(limit) };
}

function parseElement(
  st: ParseState,
  root: PathNode,
  key: string,
  value: unknown,
  prefix: string[],
): void {
  const full = [...prefix, key].join('.');
  const positional = full.endsWith('.$') || full.includes('.$.') || key === '$';
  if (isPlainObject(value) && !(value instanceof DBRef)) {
    if (positional)
      fail(31271, 'positional projection cannot be used with an expression or sub object');
    const keys = Object.keys(value);
    if (keys.length === 1 && (keys[0] as string).startsWith('$')) {
      const op = keys[0] as string;
      const arg = value[op];
      const path = [...prefix, ...checkPath(key)];
      if (op === '$slice') {
        const slice = parseSlice(arg);
        if (slice) {
          addAt(root, path, { kind: 'slice', ...slice }, full);
          st.hasSlice = true;
          return;
        }
      } else if (op === '$elemMatch') {
        if (!isPlainObject(arg))
          fail(31274, `elemMatch: Invalid argument, object required, but got ${typeof arg}`);
        if (st.hasPositional) fail(31255, 'Cannot specify positional operator and $elemMatch.');
        if (path.length !== 1) fail(31275, 'Cannot use $elemMatch projection on a nested field.');
        addAt(
          root,
          path,
          { kind: 'elemMatch', test: elemMatchTest(arg, st.options as Options) },
          full,
        );
        st.hasElemMatch = true;
        return;
      }
      const isMeta = op === '$meta';
      if (!isMeta && !isExpression(op)) fail(31325, `Unknown expression ${op}`);
      if (st.type === 'exclusion' && !isMeta)
        fail(31252, 'Cannot use expression other than $meta in exclusion projection');
      if (!isMeta) st.type = 'inclusion';
      st.hasMeta ||= isMeta;
      addAt(root, path, { kind: 'expression', expr: value }, full);
      return;
    }
    // A sub-projection: { a: { b: 1 } } is { 'a.b': 1 }.
    const path = checkPath(key);
    for (const [k, v] of Object.entries(value)) parseElement(st, root, k, v, [...prefix, ...path]);
    return;
  }
  if (typeof value === 'boolean' || isNumberLike(value)) {
    const isId = prefix.length === 0 && key === '_id';
    if (!truthy(value)) {
      addAt(root, [...prefix, ...checkPath(key)], { kind: 'exclude' }, full);
      if (isId) st.idExcluded = true;
      else setType(st, 'exclusion', full);
      return;
    }
    if (positional) {
      if (st.hasPositional)
        fail(31276, 'Cannot specify more than one positional projection per query.');
      if (st.hasElemMatch) fail(31256, 'Cannot specify positional operator and $elemMatch.');
      if (full.endsWith('.$.')) fail(31270, "Path cannot end with '.$.'");
      const at = full.indexOf('.$');
      const field = full.slice(0, at);
      const rest = full.slice(at + 2);
      if (rest.includes('.$') || rest === '$')
        fail(31287, `Cannot use positional operator twice: ${full}`);
      if (!queryNames(st.filter, field.split('.')[0] as string))
        fail(31277, `Positional projection '${full}' does not match the query document.`);
      addAt(root, checkPath(field), { kind: 'positional', field }, full);
      st.hasPositional = true;
    } else {
      addAt(root, [...prefix, ...checkPath(key)], { kind: 'include' }, full);
      if (isId) st.idIncluded = true;
    }
    if (!isId) setType(st, 'inclusion', full);
    return;
  }
  if (positional) fail(31308, 'positional projection cannot be used with a literal');
  if (st.type === 'exclusion')
    fail(31310, `Cannot use an expression ${full}: ${String(value)} in an exclusion projection`);
  st.type = 'inclusion';
  addAt(root, [...prefix, ...checkPath(key)], { kind: 'expression', expr: value }, full);
}

/** Whether `{ $name: ... }` is an aggregation expression mingo evaluates. */
function isExpression(name: string): boolean {
  return CONTEXT.getOperator(OpType.EXPRESSION, name) !== null;
}

/**
 * Parses a find projection (`filter`: the query, for the positional `$`); throws mongod's
 * errors for an invalid one.
 */
export function compileProjection(spec: Doc, filter: Doc, variables?: Doc): (doc: Doc) => Doc {
  const options: Partial<Options> = { context: CONTEXT, ...(variables ? { variables } : {}) };
  const st: ParseState = {
    filter,
    options,
    idIncluded: false,
    idExcluded: false,
    idSpecified: false,
    hasSlice: false,
    hasElemMatch: false,
    hasMeta: false,
    hasPositional: false,
  };
  const root: PathNode = { kind: 'path', children: new Map() };
  for (const [k, v] of Object.entries(normalizeTimezones(spec))) {
    if (k === '_id' || k.startsWith('_id.')) st.idSpecified = true;
    parseElement(st, root, k, v, []);
  }
  const type =
    st.type ??
    (st.hasSlice
      ? st.idIncluded
        ? 'inclusion'
        : 'exclusion'
      : st.hasElemMatch
        ? 'inclusion'
        : st.hasMeta
          ? st.idIncluded
            ? 'inclusion'
            : 'exclusion'
          : st.idIncluded
            ? 'inclusion'
            : 'exclusion');
  if (type === 'inclusion' && !st.idSpecified) root.children.set('_id', { kind: 'include' });
  if (type === 'exclusion' && root.children.get('_id')?.kind === 'include')
    root.children.delete('_id');
  if (type === 'inclusion') {
    // `_id` first when kept, as mongod returns it.
    const id = root.children.get('_id');
    if (id) {
      root.children.delete('_id');
      const children = new Map<string, Node>([['_id', id], ...root.children]);
      root.children = children;
    }
    return (doc) => include(root, doc, doc, st) as Doc;
  }
  return (doc) => exclude(root, doc, doc, st) as Doc;
}

function sliceOf(v: unknown, node: { skip?: number; limit: number }): unknown {
  if (!Array.isArray(v)) return v;
  if (node.skip === undefined) {
    const n = node.limit;
    return n >= 0 ? v.slice(0, n) : v.slice(Math.max(0, v.length + n));
  }
  const start = node.skip >= 0 ? node.skip : Math.max(0, v.length + node.skip);
  return v.slice(start, start + node.limit);
}

function evaluate(expr: unknown, root: Doc, st: ParseState): unknown {
  return evalExpr(root, expr, st.options as Options);
}

/** The first element of the array at `field` that satisfies the query's conditions on it. */
function positionalElement(doc: Doc, field: string, st: ParseState): unknown[] | undefined {
  const path = field.split('.');
  let arr: unknown = doc;
  for (const p of path) arr = isPlainObject(arr) && Object.hasOwn(arr, p) ? arr[p] : undefined;
  if (!Array.isArray(arr)) return undefined;
  const query = new Query(st.filter, st.options);
  for (let i = 0; i < arr.length; i++) {
    const probe = withValue(doc, path, [arr[i]]);
    if (query.test(probe)) return [arr[i]];
  }
  return undefined;
}

function withValue(doc: Doc, path: string[], value: unknown): Doc {
  const [head, ...rest] = path as [string, ...string[]];
  const out: Doc = { ...doc };
  setField(out, head, rest.length === 0 ? value : withValue((doc[head] ?? {}) as Doc, rest, value));
  return out;
}

/** An inclusion projection of `v` (a document, or an array of them) by `node`'s children. */
function include(node: PathNode, v: unknown, root: Doc, st: ParseState): unknown {
  if (Array.isArray(v))
    return v
      .filter((el) => isPlainObject(el) || Array.isArray(el))
      .map((el) => include(node, el, root, st));
  if (!isPlainObject(v)) return undefined;
  const out: Doc = {};
  // Included fields in the document's order...
  for (const k of Object.keys(v)) {
    const child = node.children.get(k);
    if (!child) continue;
    if (child.kind === 'include') setField(out, k, v[k]);
    else if (child.kind === 'path') {
      const sub = v[k];
      if (isPlainObject(sub) || Array.isArray(sub)) setField(out, k, include(child, sub, root, st));
    }
  }
  // ...then computed ones, in the projection's order.
  for (const [k, child] of node.children) {
    const has = Object.hasOwn(v, k);
    switch (child.kind) {
      case 'slice':
        if (has) setField(out, k, sliceOf(v[k], child));
        break;
      case 'elemMatch': {
        const arr = has ? v[k] : undefined;
        if (!Array.isArray(arr)) break;
        const hit = arr.find((el) => child.test(el));
        if (hit !== undefined) setField(out, k, [hit]);
        break;
      }
      case 'positional': {
        const hit = positionalElement(root, child.field, st);
        if (hit) setField(out, k, hit);
        break;
      }
      case 'expression': {
        const value = evaluate(child.expr, root, st);
        if (value !== undefined) setField(out, k, value);
        break;
      }
    }
  }
  return out;
}

/** An exclusion projection of `v`: the excluded paths removed, `$slice`s applied in place. */
function exclude(node: PathNode, v: unknown, root: Doc, st: ParseState): unknown {
  if (Array.isArray(v))
    return v.map((el) =>
      isPlainObject(el) || Array.isArray(el) ? exclude(node, el, root, st) : el,
    );
  if (!isPlainObject(v)) return v;
  const out: Doc = {};
  for (const k of Object.keys(v)) {
    const child = node.children.get(k);
    if (!child) setField(out, k, v[k]);
    else if (child.kind === 'exclude') continue;
    else if (child.kind === 'path') setField(out, k, exclude(child, v[k], root, st));
    else if (child.kind === 'slice') setField(out, k, sliceOf(v[k], child));
    else if (child.kind === 'expression') {
      const value = evaluate(child.expr, root, st);
      if (value !== undefined) setField(out, k, value);
    } else setField(out, k, v[k]);
  }
  for (const [k, child] of node.children) {
    if (child.kind === 'expression' && !Object.hasOwn(v, k)) {
      const value = evaluate(child.expr, root, st);
      if (value !== undefined) setField(out, k, value);
    }
  }
  return out;
}
