/**
 * BSON values as mongod writes them into its error messages: `typeName()` (the names of
 * `$type`: 'int', 'double', 'string', 'object', 'array'...) and `elementText()`, mongod's
 * `BSONElement::toString()` (`comments: [ { body: "x" } ]`, `_id: ObjectId('...')`).
 *
 * Stored numbers are JavaScript numbers (the decoder promotes int32, int64 that fit and doubles),
 * so an integral number within the int32 range is named and written as an `int`, any other as a
 * `double`, which is how this server writes them back to BSON.
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
import { isPlainObject } from './values';

function isInt32(n: number): boolean {
  return Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 && !Object.is(n, -0);
}

/** mongod's name of a value's BSON type (`typeName()` in its error messages). */
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  switch (typeof v) {
    case 'number':
      return isInt32(v) ? 'int' : 'double';
    case 'bigint':
      return 'long';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'function':
      return 'javascript';
  }
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  if (v instanceof ObjectId) return 'objectId';
  if (v instanceof Timestamp) return 'timestamp'; // before Long: bson's Timestamp extends Long
  if (v instanceof Long) return 'long';
  if (v instanceof Int32) return 'int';
  if (v instanceof Double) return 'double';
  if (v instanceof Decimal128) return 'decimal';
  if (v instanceof Binary || v instanceof Uint8Array) return 'binData';
  if (v instanceof RegExp || v instanceof BSONRegExp) return 'regex';
  if (v instanceof MinKey) return 'minKey';
  if (v instanceof MaxKey) return 'maxKey';
  if (v instanceof Code) return v.scope ? 'javascriptWithScope' : 'javascript';
  if (v instanceof BSONSymbol) return 'symbol';
  return 'object';
}

/** Whether `v` is a number of any BSON numeric type (what $inc, $mul and $bit operate on). */
export function isNumeric(v: unknown): boolean {
  return (
    typeof v === 'number' ||
    typeof v === 'bigint' ||
    (v instanceof Long && !(v instanceof Timestamp)) ||
    v instanceof Int32 ||
    v instanceof Double ||
    v instanceof Decimal128
  );
}

function doubleText(n: number): string {
  if (Number.isNaN(n)) return 'nan.0';
  if (n === Infinity) return 'inf.0';
  if (n === -Infinity) return '-inf.0';
  // mongod appends ".0" to integral doubles ("appendDoubleNice").
  return Number.isInteger(n) && Math.abs(n) < 1e16 ? `${n}.0` : String(n);
}

/** A value as mongod's `BSONElement::toString()` writes it (without the field name). */
export function valueText(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  switch (typeof v) {
    case 'number':
      return isInt32(v) ? String(v) : doubleText(v);
    case 'bigint':
      return v.toString();
    case 'string':
      return `"${v}"`;
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (Array.isArray(v))
    return v.length === 0 ? '[]' : `[ ${v.map((x) => valueText(x)).join(', ')} ]`;
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (v instanceof ObjectId) return `ObjectId('${v.toHexString()}')`;
  if (v instanceof Timestamp) return `Timestamp(${v.high >>> 0}, ${v.low >>> 0})`;
  if (v instanceof Long) return v.toString();
  if (v instanceof Int32) return String(v.valueOf());
  if (v instanceof Double) return doubleText(v.valueOf());
  if (v instanceof Decimal128) return `NumberDecimal("${v.toString()}")`;
  if (v instanceof Binary)
    return `BinData(${v.sub_type}, ${Buffer.from(v.buffer).toString('hex').toUpperCase()})`;
  if (v instanceof Uint8Array) return `BinData(0, ${Buffer.from(v).toString('hex').toUpperCase()})`;
  if (v instanceof RegExp) return `/${v.source}/${v.flags}`;
  if (v instanceof BSONRegExp) return `/${v.pattern}/${v.options}`;
  if (v instanceof MinKey) return 'MinKey';
  if (v instanceof MaxKey) return 'MaxKey';
  if (v instanceof DBRef) return valueText(v.toJSON());
  if (v instanceof Code) return v.code;
  if (isPlainObject(v)) {
    const parts = Object.entries(v).map(([k, x]) => elementText(k, x));
    return parts.length === 0 ? '{}' : `{ ${parts.join(', ')} }`;
  }
  return String(v);
}

/** `name: value`, as mongod's `BSONElement::toString()`. */
export function elementText(name: string, v: unknown): string {
  return `${name}: ${valueText(v)}`;
}

/** `{_id: <value>}` of a document, or `no id`, as mongod names the document in write errors. */
export function idText(doc: Record<string, unknown>): string {
  return Object.hasOwn(doc, '_id') ? elementText('_id', doc._id) : 'no id';
}
