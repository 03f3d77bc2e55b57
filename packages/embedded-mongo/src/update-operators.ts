/**
 * Update operators ($set, $unset, $inc, $push, $pull... and the positional forms `$`, `$[]`,
 * `$[<identifier>]`) applied as mongod 7.0 applies them, with its errors (src/mongo/db/update/):
 *
 * - The update is parsed into a tree of paths (mongod's UpdateObjectNode / UpdateArrayNode):
 *   two operators on the same path, or on a path and its prefix, are refused with
 *   ConflictingUpdateOperators (40) before anything is applied, while several paths under one
 *   array filter (`ch.$[x].b` and `ch.$[x].c`) are fine. Two array filters that select the same
 *   element for the same field are refused when applied ("Update created a conflict at ...").
 * - Fields are applied in the order of their names (numeric names in numeric order), so fields
 *   an update creates are appended in that order, as mongod 5.0+ does.
 * - `$` stands for the position the query matched (src/positional.ts); without one the update
 *   fails with BadValue "The positional operator did not find the match needed from the query.".
 * - Type errors are mongod's: $inc of a string (TypeMismatch 14), $push onto a non-array
 *   (BadValue 2), a field created inside an array or a scalar (PathNotViable 28)...
 *
 * The document given to `applyOperators` is changed in place; the caller passes a copy.
 */
import { Decimal128, Long, Timestamp } from 'bson';
import type { Matcher } from './query';
import { elementText, idText, isNumeric, typeName, valueText } from './bson-text';
import { badValue, serverError } from './errors';
import { cloneDoc, compareValues, isPlainObject, setField, valueKey, type Doc } from './values';

/** A compiled filter (query.ts compileFilter: mingo's, or a collated one). */
type Query = Matcher;

/** Compiles a query filter (the caller's compileFilter, with the command's `let` variables). */
export type CompileFilter = (filter: Doc) => Query;

/** Where a value lives: `container[key]`, or the document itself (container null). */
interface Elem {
  container: Doc | unknown[] | null;
  key: string | number;
  /** The field name mongod reports for it (an array element's is its index). */
  name: string;
}

interface ApplyContext {
  doc: Doc;
  /** The position `$` stands for, from the query; undefined when it matched through no array. */
  matchedField: string | undefined;
  inserting: boolean;
  filters: Map<string, Query>;
}

function valueOf(e: Elem, ctx: ApplyContext): unknown {
  if (e.container === null) return ctx.doc;
  return Array.isArray(e.container)
    ? e.container[e.key as number]
    : (e.container as Doc)[e.key as string];
}

/** Sets a value in place; a field named `__proto__` is an own field (values.ts setField). */
function setValue(e: Elem, v: unknown): void {
  if (Array.isArray(e.container)) e.container[e.key as number] = v;
  else setField(e.container as Doc, e.key as string, v);
}

const isIndex = (s: string) => /^\d+$/.test(s);

/** mongod's order of the fields of an update (`cmpPathsAndArrayIndexes`). */
export function compareFields(a: string, b: string): number {
  if (isIndex(a) && isIndex(b) && a.length < 16 && b.length < 16) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

function sameBson(a: unknown, b: unknown): boolean {
  return a === b || (typeName(a) === typeName(b) && valueKey(a) === valueKey(b));
}

// ---------------------------------------------------------------------------------------------
// The tree

type Node = ObjectNode | ArrayNode | Leaf;

class ObjectNode {
  readonly kind = 'object';
  readonly children = new Map<string, Node>();
  positional: Node | undefined;

  getChild(name: string): Node | undefined {
    return name === '$' ? this.positional : this.children.get(name);
  }

  setChild(name: string, node: Node): void {
    if (name === '$') this.positional = node;
    else this.children.set(name, node);
  }

  apply(elem: Elem, toCreate: string[], taken: string[], ctx: ApplyContext): void {
    let positional = this.positional;
    const matched = ctx.matchedField;
    if (positional && matched === undefined)
      throw badValue('The positional operator did not find the match needed from the query.');
    let state = { elem, toCreate, taken };
    const run = (child: Node, field: string) => {
      state = applyChild(child, field, state.elem, state.toCreate, state.taken, ctx);
    };
    const fields = [...this.children.keys()].sort(compareFields);
    for (const field of fields) {
      const child = this.children.get(field) as Node;
      if (positional && field === matched) {
        run(merge(positional, child, [...taken, ...toCreate, field]), field);
        positional = undefined;
        continue;
      }
      if (positional && compareFields(matched as string, field) < 0) {
        run(positional, matched as string);
        positional = undefined;
      }
      run(child, field);
    }
    if (positional) run(positional, matched as string);
  }
}

/**
 * Applies `child` to the field `field` of the element at `elem` (or, when `toCreate` is not
 * empty, to a path that does not exist yet), then returns where this node's own element is now:
 * once a child has created the missing path, later children find it.
 */
function applyChild(
  child: Node,
  field: string,
  elem: Elem,
  toCreate: string[],
  taken: string[],
  ctx: ApplyContext,
): { elem: Elem; toCreate: string[]; taken: string[] } {
  let childElem: Elem | undefined;
  if (toCreate.length === 0) {
    const v = valueOf(elem, ctx);
    if (isPlainObject(v)) {
      if (Object.hasOwn(v, field)) childElem = { container: v, key: field, name: field };
    } else if (Array.isArray(v) && isIndex(field)) {
      const i = Number(field);
      if (i < v.length) childElem = { container: v, key: i, name: field };
    }
  }
  if (childElem) child.apply(childElem, [], [...taken, field], ctx);
  else child.apply(elem, [...toCreate, field], taken, ctx);
  if (toCreate.length === 0) return { elem, toCreate, taken };
  const created = resolve(elem, toCreate, ctx);
  return created
    ? { elem: created, toCreate: [], taken: [...taken, ...toCreate] }
    : { elem, toCreate, taken };
}

/** The element at `parts` below `elem`, when all of them exist. */
function resolve(elem: Elem, parts: string[], ctx: ApplyContext): Elem | undefined {
  let cur = elem;
  for (const part of parts) {
    const v = valueOf(cur, ctx);
    if (isPlainObject(v) && Object.hasOwn(v, part)) cur = { container: v, key: part, name: part };
    else if (Array.isArray(v) && isIndex(part) && Number(part) < v.length)
      cur = { container: v, key: Number(part), name: part };
    else return undefined;
  }
  return cur;
}

class ArrayNode {
  readonly kind = 'array';
  /** By array filter identifier; '' for `$[]`. */
  readonly children = new Map<string, Node>();

  getChild(name: string): Node | undefined {
    return this.children.get(name);
  }

  setChild(name: string, node: Node): void {
    this.children.set(name, node);
  }

  apply(elem: Elem, toCreate: string[], taken: string[], ctx: ApplyContext): void {
    if (toCreate.length)
      throw badValue(
        `The path '${[...taken, ...toCreate].join('.')}' must exist in the document in order to apply array updates.`,
      );
    const arr = valueOf(elem, ctx);
    if (!Array.isArray(arr))
      throw badValue(
        `Cannot apply array updates to non-array element ${elementText(elem.name, arr)}`,
      );
    const ids = [...this.children.keys()].sort();
    // Which updates apply to which element is decided before any is applied.
    const perElement = arr.map((el) =>
      ids.filter((id) => id === '' || (ctx.filters.get(id) as Query).test({ [id]: el })),
    );
    perElement.forEach((matching, i) => {
      if (matching.length === 0) return;
      const path = [...taken, String(i)];
      let node = this.children.get(matching[0] as string) as Node;
      for (const id of matching.slice(1)) node = merge(node, this.children.get(id) as Node, path);
      node.apply({ container: arr, key: i, name: String(i) }, [], path, ctx);
    });
  }
}

const mergeCache = new WeakMap<Node, WeakMap<Node, Node>>();

/** mongod's createUpdateNodeByMerging: two subtrees that apply to the same element. */
function merge(left: Node, right: Node, path: string[]): Node {
  const cached = mergeCache.get(left)?.get(right);
  if (cached) return cached;
  let out: Node;
  if (left.kind === 'object' && right.kind === 'object') {
    const node = new ObjectNode();
    mergeChildren(left.children, right.children, node.children, path, false);
    if (left.positional && right.positional)
      node.positional = merge(left.positional, right.positional, [...path, '$']);
    else node.positional = left.positional ?? right.positional;
    out = node;
  } else if (left.kind === 'array' && right.kind === 'array') {
    const node = new ArrayNode();
    mergeChildren(left.children, right.children, node.children, path, true);
    out = node;
  } else {
    throw serverError(
      'ConflictingUpdateOperators',
      `Update created a conflict at '${path.join('.')}'`,
    );
  }
  let byRight = mergeCache.get(left);
  if (!byRight) mergeCache.set(left, (byRight = new WeakMap()));
  byRight.set(right, out);
  return out;
}

function mergeChildren(
  a: Map<string, Node>,
  b: Map<string, Node>,
  into: Map<string, Node>,
  path: string[],
  identifiers: boolean,
): void {
  for (const [k, v] of a) {
    const other = b.get(k);
    into.set(k, other ? merge(v, other, [...path, identifiers ? `$[${k}]` : k]) : v);
  }
  for (const [k, v] of b) if (!a.has(k)) into.set(k, v);
}

// ---------------------------------------------------------------------------------------------
// Leaves: one per operator and path

abstract class Leaf {
  readonly kind = 'leaf';
  /** The path as the update wrote it (the destination for $rename). */
  constructor(readonly path: string) {}
  /** $setOnInsert: applied only when the update inserts (an upsert). */
  insertOnly = false;
  /** Whether a missing path is created (else the update is a no-op there). */
  abstract readonly creates: boolean;
  /** For operators that do not create: whether a path that could not be created is fine. */
  allowNonViable = false;

  apply(elem: Elem, toCreate: string[], taken: string[], ctx: ApplyContext): void {
    if (this.insertOnly && !ctx.inserting) return;
    if (toCreate.length === 0) {
      this.updateExisting(elem, taken, ctx);
      return;
    }
    if (this.creates) {
      checkTopLevelDollar(taken.length ? taken : toCreate, ctx);
      createPathAt(elem, toCreate, this.newValue(ctx), ctx);
    } else if (!this.allowNonViable) checkViability(elem, toCreate, taken, ctx);
  }

  /** Changes the existing element at `elem` (its full path is `taken`). */
  abstract updateExisting(elem: Elem, taken: string[], ctx: ApplyContext): void;

  /** The value a missing path is created with. */
  newValue(_ctx: ApplyContext): unknown {
    return undefined;
  }
}

/**
 * mongod refuses to store a top-level field whose name starts with '$' by an update of an
 * existing document (storage validation); the document an upsert inserts is validated as an
 * insert, where such names are allowed (MongoDB 5.0+).
 */
function checkTopLevelDollar(path: string[], ctx: ApplyContext): void {
  const top = path[0] as string;
  if (top.startsWith('$') && !ctx.inserting)
    throw serverError(
      'DollarPrefixedFieldName',
      `The dollar ($) prefixed field '${top}' in '${top}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
    );
}

const MAX_PADDING = 1_500_000;

/** pathsupport::createPathAt: creates `parts` below `elem` (objects, and array padding). */
function createPathAt(elem: Elem, parts: string[], value: unknown, ctx: ApplyContext): void {
  const v = valueOf(elem, ctx);
  const first = parts[0] as string;
  const notViable = () =>
    serverError(
      'PathNotViable',
      `Cannot create field '${first}' in element {${elementText(elem.name, v)}}`,
    );
  let leaf: unknown = value;
  for (let i = parts.length - 1; i > 0; i--) leaf = { [parts[i] as string]: leaf };
  if (Array.isArray(v)) {
    if (!isIndex(first)) throw notViable();
    const idx = Number(first);
    if (idx - v.length > MAX_PADDING)
      throw serverError('CannotBackfillArray', `can't backfill more than ${MAX_PADDING} elements`);
    while (v.length < idx) v.push(null);
    v[idx] = leaf;
  } else if (isPlainObject(v)) {
    setField(v, first, leaf);
  } else throw notViable();
}

/** UpdateLeafNode::checkViability: whether the missing path could have been created. */
function checkViability(elem: Elem, toCreate: string[], taken: string[], ctx: ApplyContext): void {
  const v = valueOf(elem, ctx);
  const first = toCreate[0] as string;
  if (isPlainObject(v) || (Array.isArray(v) && isIndex(first))) return;
  throw serverError(
    'PathNotViable',
    `Cannot use the part (${first}) of (${[...taken, ...toCreate].join('.')}) to traverse the element ({${elementText(elem.name, v)}})`,
  );
}

class SetLeaf extends Leaf {
  readonly creates = true;
  constructor(
    path: string,
    private readonly value: unknown,
  ) {
    super(path);
  }
  updateExisting(elem: Elem, taken: string[], ctx: ApplyContext): void {
    if (sameBson(valueOf(elem, ctx), this.value)) return;
    checkTopLevelDollar(taken, ctx);
    setValue(elem, cloneDoc(this.value));
  }
  override newValue(): unknown {
    return cloneDoc(this.value);
  }
}

class UnsetLeaf extends Leaf {
  readonly creates = false;
  override allowNonViable = true;
  updateExisting(elem: Elem): void {
    if (Array.isArray(elem.container)) elem.container[elem.key as number] = null;
    else delete (elem.container as Doc)[elem.key as string];
  }
}

/** Placeholder at the source path of a $rename (so that conflicts with it are detected). */
class PlaceholderLeaf extends Leaf {
  readonly creates = false;
  override allowNonViable = true;
  override apply(): void {}
  updateExisting(): void {}
}

function toBigInt(v: unknown): bigint {
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'bigint') return v;
  return BigInt((v as Long).toString());
}

function isLongValue(v: unknown): boolean {
  return typeof v === 'bigint' || (v instanceof Long && !(v instanceof Timestamp));
}

/** A number as stored: a JavaScript number when it is exact, else a Long. */
function fromBigInt(n: bigint): unknown {
  const asNumber = Number(n);
  return Number.isSafeInteger(asNumber) ? asNumber : Long.fromBigInt(BigInt.asIntN(64, n));
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v instanceof Decimal128) return Number(v.toString());
  return Number(toBigInt(v));
}

/** `a op b` for BSON numbers: Decimal128 wins, then double, then 64-bit integers. */
function arithmetic(op: '+' | '*', a: unknown, b: unknown): unknown {
  if (a instanceof Decimal128 || b instanceof Decimal128) {
    const r = op === '+' ? toNumber(a) + toNumber(b) : toNumber(a) * toNumber(b);
    return Decimal128.fromString(String(r));
  }
  if (isLongValue(a) || isLongValue(b)) {
    const integral = (v: unknown) => typeof v !== 'number' || Number.isInteger(v);
    if (integral(a) && integral(b)) {
      const x = toBigInt(a);
      const y = toBigInt(b);
      return fromBigInt(op === '+' ? x + y : x * y);
    }
  }
  const x = toNumber(a);
  const y = toNumber(b);
  return op === '+' ? x + y : x * y;
}

class ArithmeticLeaf extends Leaf {
  readonly creates = true;
  constructor(
    path: string,
    private readonly op: '$inc' | '$mul',
    private readonly value: unknown,
  ) {
    super(path);
    if (!isNumeric(value))
      throw serverError(
        'TypeMismatch',
        `Cannot ${op === '$inc' ? 'increment' : 'multiply'} with non-numeric argument: {${elementText(path, value)}}`,
      );
  }
  updateExisting(elem: Elem, _taken: string[], ctx: ApplyContext): void {
    const current = valueOf(elem, ctx);
    if (!isNumeric(current)) {
      const id = Object.hasOwn(ctx.doc, '_id') ? elementText('_id', ctx.doc._id) : '';
      throw serverError(
        'TypeMismatch',
        `Cannot apply ${this.op} to a value of non-numeric type. {${id}} has the field '${elem.name}' of non-numeric type ${typeName(current)}`,
      );
    }
    const next = arithmetic(this.op === '$inc' ? '+' : '*', current, this.value);
    if (!sameBson(next, current)) setValue(elem, next);
  }
  override newValue(): unknown {
    return this.op === '$inc' ? cloneDoc(this.value) : arithmetic('*', this.value, 0);
  }
}

class CompareLeaf extends Leaf {
  readonly creates = true;
  constructor(
    path: string,
    private readonly op: '$min' | '$max',
    private readonly value: unknown,
  ) {
    super(path);
  }
  updateExisting(elem: Elem, _taken: string[], ctx: ApplyContext): void {
    const c = compareValues(valueOf(elem, ctx), this.value);
    if ((this.op === '$min' && c > 0) || (this.op === '$max' && c < 0))
      setValue(elem, cloneDoc(this.value));
  }
  override newValue(): unknown {
    return cloneDoc(this.value);
  }
}

let timestampSeconds = 0;
let timestampIncrement = 0;

/** A new Timestamp for $currentDate, later than the previous one. */
function nextTimestamp(): Timestamp {
  const now = Math.floor(Date.now() / 1000);
  if (now > timestampSeconds) {
    timestampSeconds = now;
    timestampIncrement = 1;
  } else timestampIncrement++;
  return new Timestamp({ t: timestampSeconds, i: timestampIncrement });
}

class CurrentDateLeaf extends Leaf {
  readonly creates = true;
  private readonly date: boolean;
  constructor(path: string, value: unknown) {
    super(path);
    if (typeof value === 'boolean') {
      this.date = true;
      return;
    }
    if (!isPlainObject(value))
      throw badValue(
        `${typeName(value)} is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'}).`,
      );
    let found: boolean | undefined;
    for (const [k, v] of Object.entries(value)) {
      if (k !== '$type') throw badValue(`Unrecognized $currentDate option: ${k}`);
      if (v === 'date') found = true;
      else if (v === 'timestamp') found = false;
    }
    if (found === undefined)
      throw badValue(
        "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}",
      );
    this.date = found;
  }
  updateExisting(elem: Elem): void {
    setValue(elem, this.newValue());
  }
  override newValue(): unknown {
    return this.date ? new Date() : nextTimestamp();
  }
}

/** An integer argument ($slice, $position): a number with an integral value. */
function integerArg(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (isLongValue(v)) return Number(toBigInt(v));
  return undefined;
}

/** mongod's PatternElementCmp: how $push's $sort orders two elements. */
function pushSorter(sort: 1 | -1 | Doc): (a: unknown, b: unknown) => number {
  if (typeof sort === 'number') return (a, b) => sort * compareValues(a, b);
  const fields = Object.entries(sort) as Array<[string, number]>;
  const keyOf = (el: unknown) =>
    fields.map(([f]) => {
      const root = isPlainObject(el) ? el : { '': el };
      const v = valuesAtPathNoArrays(root, f.split('.'));
      return v === undefined ? null : v;
    });
  return (a, b) => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    for (let i = 0; i < fields.length; i++) {
      const c = compareValues(ka[i], kb[i]);
      if (c !== 0) return c * (fields[i] as [string, number])[1];
    }
    return 0;
  };
}

/** The value at a dotted path, through documents only (as `getFieldDotted`). */
function valuesAtPathNoArrays(doc: Doc, parts: string[]): unknown {
  let cur: unknown = doc;
  for (const p of parts) {
    if (isPlainObject(cur)) cur = Object.hasOwn(cur, p) ? cur[p] : undefined;
    else if (Array.isArray(cur) && isIndex(p)) cur = cur[Number(p)];
    else return undefined;
  }
  return cur;
}

const PUSH_CLAUSES = new Set(['$each', '$slice', '$sort', '$position']);

class PushLeaf extends Leaf {
  readonly creates = true;
  private readonly values: unknown[];
  private slice: number | undefined;
  private sort: ((a: unknown, b: unknown) => number) | undefined;
  private position: number | undefined;

  constructor(path: string, value: unknown) {
    super(path);
    if (!isPlainObject(value) || !Object.hasOwn(value, '$each')) {
      this.values = [value];
      return;
    }
    for (const k of Object.keys(value))
      if (!PUSH_CLAUSES.has(k)) throw badValue(`Unrecognized clause in $push: ${k}`);
    if (!Array.isArray(value.$each))
      throw badValue(
        `The argument to $each in $push must be an array but it was of type: ${typeName(value.$each)}`,
      );
    this.values = value.$each;
    if (value.$slice !== undefined) {
      this.slice = integerArg(value.$slice);
      if (this.slice === undefined)
        throw badValue(
          `The value for $slice must be an integer value but was given type: ${typeName(value.$slice)}`,
        );
    }
    if (value.$sort !== undefined) this.sort = pushSorter(parsePushSort(value.$sort));
    if (value.$position !== undefined) {
      this.position = integerArg(value.$position);
      if (this.position === undefined)
        throw badValue(
          `The value for $position must be an integer value, not of type: ${typeName(value.$position)}`,
        );
    }
  }

  private push(arr: unknown[]): void {
    const items = this.values.map((v) => cloneDoc(v));
    const size = arr.length;
    const p = this.position;
    if (p === undefined || p >= size) arr.push(...items);
    else if (p >= 0) arr.splice(p, 0, ...items);
    else if (-p < size) arr.splice(size + p, 0, ...items);
    else arr.unshift(...items);
    if (this.sort) arr.sort(this.sort);
    if (this.slice !== undefined && arr.length > Math.abs(this.slice)) {
      if (this.slice >= 0) arr.splice(this.slice);
      else arr.splice(0, arr.length + this.slice);
    }
  }

  updateExisting(elem: Elem, taken: string[], ctx: ApplyContext): void {
    const arr = valueOf(elem, ctx);
    if (!Array.isArray(arr))
      throw badValue(
        `The field '${taken.join('.')}' must be an array but is of type ${typeName(arr)} in document {${idText(ctx.doc)}}`,
      );
    this.push(arr);
  }

  override newValue(): unknown {
    const arr: unknown[] = [];
    this.push(arr);
    return arr;
  }
}

function parsePushSort(sort: unknown): 1 | -1 | Doc {
  if (isPlainObject(sort)) {
    if (Object.keys(sort).length === 0)
      throw badValue('The $sort pattern is empty when it should be a set of fields.');
    for (const [field, dir] of Object.entries(sort)) {
      if (dir !== 1 && dir !== -1) throw badValue('The $sort element value must be either 1 or -1');
      if (field === '') throw badValue('The $sort field cannot be empty');
      if (field.split('.').some((p) => p === ''))
        throw badValue(`The $sort field is a dotted field but has an empty part: ${field}`);
    }
    return sort;
  }
  if (typeof sort === 'number') {
    if (sort === 1 || sort === -1) return sort;
    throw badValue('The $sort element value must be either 1 or -1');
  }
  throw badValue(
    'The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields',
  );
}

/** Values without duplicates (BSON equality: 1 and 1.0 are the same), first ones kept. */
function dedupe(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const k = valueKey(v);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

class AddToSetLeaf extends Leaf {
  readonly creates = true;
  private readonly values: unknown[];
  constructor(path: string, value: unknown) {
    super(path);
    const first = isPlainObject(value) ? Object.keys(value)[0] : undefined;
    if (first === '$each') {
      const each = (value as Doc).$each;
      if (!Array.isArray(each))
        throw serverError(
          'TypeMismatch',
          `The argument to $each in $addToSet must be an array but it was of type ${typeName(each)}`,
        );
      if (Object.keys(value as Doc).length > 1)
        throw badValue(`Found unexpected fields after $each in $addToSet: ${valueText(value)}`);
      this.values = dedupe(each);
    } else this.values = [value];
  }
  updateExisting(elem: Elem, _taken: string[], ctx: ApplyContext): void {
    const arr = valueOf(elem, ctx);
    if (!Array.isArray(arr))
      throw badValue(
        `Cannot apply $addToSet to non-array field. Field named '${elem.name}' has non-array type ${typeName(arr)}`,
      );
    const present = new Set(arr.map(valueKey));
    for (const v of this.values) if (!present.has(valueKey(v))) arr.push(cloneDoc(v));
  }
  override newValue(): unknown {
    return this.values.map((v) => cloneDoc(v));
  }
}

class PopLeaf extends Leaf {
  readonly creates = false;
  private readonly fromFront: boolean;
  constructor(path: string, value: unknown) {
    super(path);
    if (!isNumeric(value))
      throw serverError('FailedToParse', `Expected a number in: ${elementText(path, value)}`);
    const n = toNumber(value);
    if (n !== 1 && n !== -1)
      throw serverError('FailedToParse', `$pop expects 1 or -1, found: ${n}`);
    this.fromFront = n === -1;
  }
  updateExisting(elem: Elem, taken: string[], ctx: ApplyContext): void {
    const arr = valueOf(elem, ctx);
    if (!Array.isArray(arr))
      throw serverError(
        'TypeMismatch',
        `Path '${taken.join('.')}' contains an element of non-array type '${typeName(arr)}'`,
      );
    if (arr.length === 0) return;
    if (this.fromFront) arr.shift();
    else arr.pop();
  }
}

/** mongod's path-accepting query operators: `{ $gt: 5 }` tests each element itself. */
const PATH_OPERATORS = new Set([
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
  '$all',
  '$size',
  '$exists',
  '$type',
  '$mod',
  '$regex',
  '$options',
  '$elemMatch',
  '$not',
  '$bitsAllSet',
  '$bitsAllClear',
  '$bitsAnySet',
  '$bitsAnyClear',
  '$geoWithin',
  '$within',
  '$geoIntersects',
  '$near',
  '$nearSphere',
]);

/** ArrayCullingNode ($pull, $pullAll): removes the elements `match` accepts. */
abstract class CullingLeaf extends Leaf {
  readonly creates = false;
  abstract match(el: unknown): boolean;
  updateExisting(elem: Elem, _taken: string[], ctx: ApplyContext): void {
    const arr = valueOf(elem, ctx);
    if (!Array.isArray(arr)) throw badValue('Cannot apply $pull to a non-array value');
    let w = 0;
    for (const el of arr) if (!this.match(el)) arr[w++] = el;
    arr.length = w;
  }
}

class PullLeaf extends CullingLeaf {
  readonly match: (el: unknown) => boolean;
  constructor(path: string, value: unknown, compile: CompileFilter) {
    super(path);
    const first = isPlainObject(value) ? Object.keys(value)[0] : undefined;
    if (isPlainObject(value) && !(first !== undefined && PATH_OPERATORS.has(first))) {
      // A query on the elements themselves ({ a: 1 }, { $or: [...] }): documents only.
      const query = compile(value);
      this.match = (el) => isPlainObject(el) && query.test(el);
    } else if (isPlainObject(value) || value instanceof RegExp) {
      const query = compile({ v: value });
      this.match = (el) => query.test({ v: el });
    } else {
      const key = valueKey(value);
      this.match = (el) => valueKey(el) === key;
    }
  }
}

class PullAllLeaf extends CullingLeaf {
  private readonly keys: Set<string>;
  constructor(path: string, value: unknown) {
    super(path);
    if (!Array.isArray(value))
      throw badValue(`$pullAll requires an array argument but was given a ${typeName(value)}`);
    this.keys = new Set(value.map(valueKey));
  }
  match(el: unknown): boolean {
    return this.keys.has(valueKey(el));
  }
}

type BitOp = (a: bigint, b: bigint) => bigint;
const BIT_OPS: Record<string, BitOp> = {
  and: (a, b) => a & b,
  or: (a, b) => a | b,
  xor: (a, b) => a ^ b,
};

class BitLeaf extends Leaf {
  readonly creates = true;
  private readonly ops: Array<[BitOp, bigint, boolean]> = [];
  constructor(path: string, value: unknown) {
    super(path);
    if (!isPlainObject(value))
      throw badValue(
        `The $bit modifier is not compatible with a ${typeName(value)}. You must pass in an embedded document: {$bit: {field: {and/or/xor: #}}`,
      );
    for (const [name, operand] of Object.entries(value)) {
      const op = BIT_OPS[name];
      if (!op)
        throw badValue(
          `The $bit modifier only supports 'and', 'or', and 'xor', not '${name}' which is an unknown operator: {${elementText(name, operand)}}`,
        );
      const t = typeName(operand);
      if (t !== 'int' && t !== 'long')
        throw badValue(
          `The $bit modifier field must be an Integer(32/64 bit); a '${t}' is not supported here: {${elementText(name, operand)}}`,
        );
      this.ops.push([op, toBigInt(operand), t === 'long']);
    }
    if (this.ops.length === 0)
      throw badValue(
        'You must pass in at least one bitwise operation. The format is: {$bit: {field: {and/or/xor: #}}',
      );
  }
  private compute(start: bigint, long: boolean): unknown {
    let v = start;
    let wide = long;
    for (const [op, operand, opLong] of this.ops) {
      wide ||= opLong;
      v = op(v, operand);
    }
    return wide ? fromBigInt(BigInt.asIntN(64, v)) : Number(BigInt.asIntN(32, v));
  }
  updateExisting(elem: Elem, _taken: string[], ctx: ApplyContext): void {
    const current = valueOf(elem, ctx);
    const t = typeName(current);
    const integral = t === 'int' || t === 'long' || (t === 'double' && Number.isInteger(current));
    if (!integral)
      throw badValue(
        `Cannot apply $bit to a value of non-integral type.${idText(ctx.doc)} has the field ${elem.name} of non-integer type ${t}`,
      );
    const next = this.compute(toBigInt(current), t !== 'int');
    if (!sameBson(next, current)) setValue(elem, next);
  }
  override newValue(): unknown {
    return this.compute(0n, false);
  }
}

class RenameLeaf extends Leaf {
  readonly creates = true;
  private readonly from: string[];
  constructor(
    private readonly fromPath: string,
    to: string,
  ) {
    super(to);
    this.from = fromPath.split('.');
    const spec = elementText(fromPath, to);
    if (to.includes('\0'))
      throw badValue("The 'to' field for $rename cannot contain an embedded null byte");
    if (fromPath === to)
      throw badValue(`The source and target field for $rename must differ: ${spec}`);
    if (to.startsWith(`${fromPath}.`) || fromPath.startsWith(`${to}.`))
      throw badValue(
        `The source and target field for $rename must not be on the same path: ${spec}`,
      );
    const dynamic = (parts: string[]) => parts.some((p) => p === '$' || isFilterPart(p));
    if (dynamic(this.from))
      throw badValue(`The source field for $rename may not be dynamic: ${fromPath}`);
    if (dynamic(to.split('.')))
      throw badValue(`The destination field for $rename may not be dynamic: ${to}`);
  }

  override apply(elem: Elem, toCreate: string[], taken: string[], ctx: ApplyContext): void {
    // The source: it must exist, and no array may hold it.
    let cur: unknown = ctx.doc;
    let parent: Doc | undefined;
    const arrays: string[] = [];
    for (let i = 0; i < this.from.length; i++) {
      const part = this.from[i] as string;
      if (isPlainObject(cur)) {
        if (!Object.hasOwn(cur, part)) return; // nothing to rename
        parent = cur;
        cur = cur[part];
      } else if (Array.isArray(cur)) {
        if (!isIndex(part))
          throw serverError(
            'PathNotViable',
            `cannot use the part (${part} of ${this.fromPath}) to traverse the element ({${elementText(this.from[i - 1] as string, cur)}})`,
          );
        arrays.push(this.from[i - 1] as string);
        if (Number(part) >= cur.length) return;
        cur = cur[Number(part)];
      } else return;
    }
    if (arrays.length)
      throw badValue(
        `The source field cannot be an array element, '${this.fromPath}' in doc with ${idText(ctx.doc)} has an array field called '${arrays[arrays.length - 1]}'`,
      );
    // The destination: no array on its way either.
    const chain: Array<[string, unknown]> = [];
    let v: unknown = ctx.doc;
    for (const part of taken) {
      v = Array.isArray(v) ? v[Number(part)] : (v as Doc)[part];
      chain.push([part, v]);
    }
    const holders = toCreate.length === 0 ? chain.slice(0, -1) : chain;
    const inArray = holders.filter(([, x]) => Array.isArray(x));
    if (inArray.length)
      throw badValue(
        `The destination field cannot be an array element, '${this.path}' in doc with ${idText(ctx.doc)} has an array field called '${(inArray[inArray.length - 1] as [string, unknown])[0]}'`,
      );
    const moved = cur;
    if (toCreate.length === 0) {
      if (!sameBson(valueOf(elem, ctx), moved)) setValue(elem, moved);
    } else {
      checkTopLevelDollar(taken.length ? taken : toCreate, ctx);
      createPathAt(elem, toCreate, moved, ctx);
    }
    delete (parent as Doc)[this.from[this.from.length - 1] as string];
  }
  updateExisting(): void {}
}

// ---------------------------------------------------------------------------------------------
// Parsing

const OPERATORS = new Set([
  '$set',
  '$setOnInsert',
  '$unset',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$currentDate',
  '$push',
  '$addToSet',
  '$pop',
  '$pull',
  '$pullAll',
  '$bit',
  '$rename',
]);

function isFilterPart(p: string): boolean {
  return p.length >= 3 && p.startsWith('$[') && p.endsWith(']');
}

function makeLeaf(op: string, path: string, value: unknown, compile: CompileFilter): Leaf {
  switch (op) {
    case '$set':
      return new SetLeaf(path, value);
    case '$setOnInsert': {
      const leaf = new SetLeaf(path, value);
      leaf.insertOnly = true;
      return leaf;
    }
    case '$unset':
      return new UnsetLeaf(path);
    case '$inc':
    case '$mul':
      return new ArithmeticLeaf(path, op, value);
    case '$min':
    case '$max':
      return new CompareLeaf(path, op, value);
    case '$currentDate':
      return new CurrentDateLeaf(path, value);
    case '$push':
      return new PushLeaf(path, value);
    case '$addToSet':
      return new AddToSetLeaf(path, value);
    case '$pop':
      return new PopLeaf(path, value);
    case '$pull':
      return new PullLeaf(path, value, compile);
    case '$pullAll':
      return new PullAllLeaf(path, value);
    case '$bit':
      return new BitLeaf(path, value);
    default:
      throw new Error(`no leaf for ${op}`);
  }
}

/** A parsed operator update: reusable for every document a statement updates. */
export interface ParsedUpdate {
  root: ObjectNode;
  /** Whether some path uses the positional `$` (the query's match position is then needed). */
  positional: boolean;
  filters: Map<string, Query>;
}

/** Checks a path as mongod's fieldchecker::isUpdatable and positional rules do. */
function checkPath(path: string, parts: string[]): void {
  if (path === '') throw serverError('EmptyFieldName', 'An empty update path is not valid.');
  if (parts.some((p) => p === ''))
    throw serverError(
      'EmptyFieldName',
      `The update path '${path}' contains an empty field name, which is not allowed.`,
    );
  const positions = parts.flatMap((p, i) => (p === '$' ? [i] : []));
  if (positions.length > 1)
    throw badValue(`Too many positional (i.e. '$') elements found in path '${path}'`);
  if (positions[0] === 0)
    throw badValue(
      `Cannot have positional (i.e. '$') element in the first position in path '${path}'`,
    );
}

/** UpdateObjectNode::parseAndMerge: adds one leaf at `path` to the tree. */
function addLeaf(
  root: ObjectNode,
  path: string,
  leaf: Leaf,
  filters: Map<string, Query>,
  used: Set<string>,
): void {
  const parts = path.split('.');
  const childName = (part: string, i: number) => {
    if (!isFilterPart(part)) return part;
    if (i === 0)
      throw badValue(
        `Cannot have array filter identifier (i.e. '$[<id>]') element in the first position in path '${path}'`,
      );
    const id = part.slice(2, -1);
    if (id !== '' && !filters.has(id))
      throw badValue(`No array filter found for identifier '${id}' in path '${path}'`);
    if (id !== '') used.add(id);
    return id;
  };
  let current: ObjectNode | ArrayNode = root;
  for (let i = 0; i < parts.length - 1; i++) {
    const name = childName(parts[i] as string, i);
    const wantArray = isFilterPart(parts[i + 1] as string);
    let child = current.getChild(name);
    if (child) {
      if (child.kind !== (wantArray ? 'array' : 'object'))
        throw serverError(
          'ConflictingUpdateOperators',
          `Updating the path '${path}' would create a conflict at '${parts.slice(0, i + 1).join('.')}'`,
        );
    } else {
      child = wantArray ? new ArrayNode() : new ObjectNode();
      current.setChild(name, child);
    }
    current = child as ObjectNode | ArrayNode;
  }
  const last = childName(parts[parts.length - 1] as string, parts.length - 1);
  if (current.getChild(last))
    throw serverError(
      'ConflictingUpdateOperators',
      `Updating the path '${path}' would create a conflict at '${path}'`,
    );
  current.setChild(last, leaf);
}

/**
 * Parses `arrayFilters` as mongod does: each a filter on one identifier (`{ 'x.a': 1 }`,
 * `{ x: { $gt: 2 } }`), identifiers unique and made of a lowercase letter then letters and digits.
 */
export function parseArrayFilters(raw: unknown, compile: CompileFilter): Map<string, Query> {
  const out = new Map<string, Query>();
  if (raw === undefined || raw === null) return out;
  if (!Array.isArray(raw))
    throw serverError(
      'TypeMismatch',
      `BSON field 'arrayFilters' is the wrong type '${typeName(raw)}', expected type 'array'`,
    );
  raw.forEach((filter, i) => {
    if (!isPlainObject(filter))
      throw serverError(
        'TypeMismatch',
        `BSON field 'arrayFilters.${i}' is the wrong type '${typeName(filter)}', expected type 'object'`,
      );
    const names = new Set<string>();
    collectIdentifiers(filter, names);
    const [id, other] = [...names];
    if (id === undefined)
      throw serverError(
        'FailedToParse',
        'Cannot use an expression without a top-level field name in arrayFilters',
      );
    if (other !== undefined)
      throw serverError(
        'FailedToParse',
        `Error parsing array filter :: caused by :: Expected a single top-level field name, found '${id}' and '${other}'`,
      );
    if (!/^[a-z][a-zA-Z0-9]*$/.test(id))
      throw badValue(
        `Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found '${id}'`,
      );
    if (out.has(id))
      throw serverError(
        'FailedToParse',
        `Found multiple array filters with the same top-level field name ${id}`,
      );
    out.set(id, compile(filter));
  });
  return out;
}

/** The first path components of a filter's conditions, through $and / $or / $nor. */
function collectIdentifiers(filter: Doc, into: Set<string>): void {
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' || k === '$or' || k === '$nor') {
      if (Array.isArray(v))
        for (const sub of v) if (isPlainObject(sub)) collectIdentifiers(sub, into);
    } else if (!k.startsWith('$')) into.add(k.split('.')[0] as string);
  }
}

/**
 * Parses an operator update (`{ $set: {...}, $inc: {...} }`) with its array filters; throws
 * mongod's parse errors (unknown modifier, conflicts, bad arguments, unused array filters).
 */
export function parseUpdate(
  update: Doc,
  arrayFilters: unknown,
  compile: CompileFilter,
): ParsedUpdate {
  const filters = parseArrayFilters(arrayFilters, compile);
  const root = new ObjectNode();
  const used = new Set<string>();
  let positional = false;
  for (const [op, arg] of Object.entries(update)) {
    if (!OPERATORS.has(op))
      throw serverError(
        'FailedToParse',
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    if (!isPlainObject(arg))
      throw serverError(
        'FailedToParse',
        `Modifiers operate on fields but we found type ${typeName(arg)} instead. For example: {$mod: {<field>: ...}} not {${elementText(op, arg)}}`,
      );
    for (const [path, value] of Object.entries(arg)) {
      if (op === '$rename') {
        checkPath(path, path.split('.'));
        addLeaf(root, path, new PlaceholderLeaf(path), filters, used);
        if (typeof value !== 'string')
          throw badValue(
            `The 'to' field for $rename must be a string: ${elementText(path, value)}`,
          );
        checkPath(value, value.split('.'));
        addLeaf(root, value, new RenameLeaf(path, value), filters, used);
        continue;
      }
      const parts = path.split('.');
      checkPath(path, parts);
      if (parts.includes('$')) positional = true;
      addLeaf(root, path, makeLeaf(op, path, value, compile), filters, used);
    }
  }
  for (const id of filters.keys()) {
    if (!used.has(id))
      throw serverError(
        'FailedToParse',
        `The array filter for identifier '${id}' was not used in the update ${valueText(update)}`,
      );
  }
  return { root, positional, filters };
}

/**
 * Applies a parsed update to `doc`, in place. `matchedField` is the position `$` stands for
 * (from the query); `inserting` is true for the document an upsert inserts.
 */
export function applyOperators(
  parsed: ParsedUpdate,
  doc: Doc,
  matchedField: string | undefined,
  inserting: boolean,
): void {
  const ctx: ApplyContext = { doc, matchedField, inserting, filters: parsed.filters };
  parsed.root.apply({ container: null, key: '', name: '' }, [], [], ctx);
}
