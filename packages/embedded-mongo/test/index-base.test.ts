/**
 * Index keys read from a snapshot document's bytes (index-base.ts) must be the values the BSON
 * decoder gives, or nothing (then the caller decodes the document).
 */
import { Binary, Decimal128, deserialize, Long, ObjectId, serialize, Timestamp } from 'bson';
import { readTopLevel } from '../src/index-base';

const DECODE = { promoteLongs: true, promoteValues: true };

function read(doc: Record<string, unknown>, fields: string[], at = 0): unknown[] | false {
  const bytes = serialize(doc);
  // The document in the middle of a larger image, as in the journal.
  const image = Buffer.concat([Buffer.alloc(at, 7), bytes, Buffer.alloc(9, 7)]);
  const out: unknown[] = [];
  return readTopLevel(
    image,
    at,
    fields.map((f) => Buffer.from(f)),
    out,
  )
    ? out.slice(0, fields.length)
    : false;
}

test('reads the types index keys hold as the decoder does, skipping the fields around them', () => {
  const doc = {
    _id: new ObjectId(),
    before: { nested: [1, 2, { deep: 'x' }] },
    d: 1.5,
    negative: -0.25,
    s: 'héllo wörld ✓',
    empty: '',
    oid: new ObjectId('0123456789abcdef01234567'),
    yes: true,
    no: false,
    at: new Date(Date.UTC(2026, 10, 28, 12, 30)),
    before1970: new Date(-86_400_000 * 400 - 123),
    nothing: null,
    int: -42,
    long: Long.fromNumber(2 ** 40 + 3),
    negLong: Long.fromNumber(-(2 ** 50)),
    bin: new Binary(Buffer.from([1, 2, 3])),
    re: /a+b/i,
    ts: new Timestamp({ t: 5, i: 6 }),
    after: 'last',
  };
  const decoded = deserialize(serialize(doc), DECODE);
  const fields = [
    'd',
    'negative',
    's',
    'empty',
    'oid',
    'yes',
    'no',
    'at',
    'before1970',
    'nothing',
    'int',
    'long',
    'negLong',
    'after',
    '_id',
  ];
  for (const at of [0, 13]) {
    for (const f of fields) expect([f, read(doc, [f], at)]).toEqual([f, [decoded[f]]]);
    expect(read(doc, fields, at)).toEqual(fields.map((f) => decoded[f]));
    // Several fields in another order than the document's; missing ones are null.
    expect(read(doc, ['after', 'missing', 'int', 's'], at)).toEqual(['last', null, -42, doc.s]);
  }
  expect(read({ a: undefined }, ['a'])).toEqual([null]);
  expect(read({}, ['a', 'b'])).toEqual([null, null]);
  // A field whose name is another's prefix.
  expect(read({ ab: 1, a: 2 }, ['a'])).toEqual([2]);
});

test('refuses the types only the decoder reads, so the caller decodes the document', () => {
  const values: unknown[] = [
    { x: 1 },
    [1, 2],
    new Binary(Buffer.from([1])),
    Decimal128.fromString('1.5'),
    new Timestamp({ t: 1, i: 1 }),
    /re/,
    Long.fromString('9007199254740993'), // beyond 2^53: the decoder gives a Long
  ];
  for (const v of values) expect(read({ before: 1, v, after: 2 }, ['v'])).toBe(false);
  // The same values are skipped when another field is read.
  for (const v of values) expect(read({ before: 1, v, after: 2 }, ['after'])).toEqual([2]);
});
