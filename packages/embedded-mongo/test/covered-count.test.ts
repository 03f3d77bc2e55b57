/**
 * Covered counts through the driver: countDocuments() and the count command answered from index
 * keys alone must give exactly what matching every document gives (mingo over all documents,
 * and the same pipeline forced onto the usual path), and must really skip the documents.
 */
import {
  Decimal128,
  Double,
  MongoClient,
  ObjectId,
  type Db,
  type Document,
  type Filter,
} from 'mongodb';
import { Query } from '../src/mingo';
import { deserialize, serialize } from 'bson';
import { start, type RunningServer } from '../src';

const DB = 'covered';
const HOUR = 3_600_000;
const t0 = Date.UTC(2026, 5, 1);
const oid = new ObjectId('6650a0000000000000000001');

/** Test documents have numeric ids. */
type Row = { _id: number } & Document;

let server: RunningServer;
let client: MongoClient;
let db: Db;
const rows = (name: string) => db.collection<Row>(name);

/** Mostly Dates and nulls, with missing fields and other types where Dates usually are. */
function post(i: number): Row {
  const doc: Row = { _id: i };
  const d = i % 10;
  if (d === 0) doc.deletedAt = new Date(t0 + i * HOUR);
  else if (d === 2) doc.deletedAt = 'x';
  else if (d === 3) doc.deletedAt = 0;
  else if (d !== 1) doc.deletedAt = null; // d === 1: no deletedAt at all
  if (i % 17 === 0) doc.createdAt = '2026-05-20';
  else if (i % 19 === 0) doc.createdAt = i;
  else if (i % 23 === 0) doc.createdAt = null;
  else if (i % 31 === 0) doc.createdAt = true;
  else if (i === 41) doc.createdAt = oid;
  else if (i % 29 !== 0) doc.createdAt = new Date(t0 - i * HOUR);
  return doc;
}

beforeAll(async () => {
  server = await start({ port: 0 });
  client = await MongoClient.connect(server.uri);
  db = client.db(DB);
  const posts = rows('posts');
  await posts.insertMany(Array.from({ length: 400 }, (_, i) => post(i)));
  await posts.createIndex({ deletedAt: 1, createdAt: -1, _id: -1 });
  const tagged = rows('tagged');
  await tagged.insertMany([
    { _id: 1, tags: 'a' },
    { _id: 2, tags: ['a', 'b'] },
    { _id: 3, tags: 'b' },
  ]);
  await tagged.createIndex({ tags: 1 });
  const odd = rows('odd');
  await odd.insertMany([
    { _id: 1, createdAt: new Date(t0) },
    { _id: 2, createdAt: { at: new Date(t0) } },
    { _id: 3, createdAt: Decimal128.fromString('5') },
    { _id: 4, createdAt: 7 },
  ]);
  await odd.createIndex({ createdAt: 1 });
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

/** Runs `fn` and tells whether the server read any stored document of `coll` meanwhile. */
async function watchReads<T>(coll: string, fn: () => Promise<T>): Promise<[T, boolean]> {
  const docs = server.engine.collection(DB, coll)!.docs;
  const get = jest.spyOn(docs, 'get');
  const values = jest.spyOn(docs, 'values');
  try {
    const result = await fn();
    return [result, get.mock.calls.length + values.mock.calls.length > 0];
  } finally {
    get.mockRestore();
    values.mockRestore();
  }
}

/**
 * The reference: the server's matcher (mingo with its mongod operators, src/mingo.ts) over every
 * stored document, as the usual path would match them (with the
 * filter's values as the server decodes them: a Double arrives as a number).
 */
async function bruteForce(coll: string, filter: Document): Promise<number> {
  const all = await rows(coll).find().toArray();
  const q = new Query(deserialize(serialize(filter), { promoteValues: true }));
  return all.filter((d) => q.test(d)).length;
}

const day = (n: number) => new Date(t0 - n * 24 * HOUR);

const FILTERS: Array<[string, Filter<Row>]> = [
  ['null matches null and missing', { deletedAt: null }],
  ['$eq null', { deletedAt: { $eq: null } }],
  ['equality and a date range', { deletedAt: null, createdAt: { $gte: day(7) } }],
  ['a range with both bounds', { deletedAt: null, createdAt: { $gt: day(9), $lte: day(3) } }],
  ['a date range over strings, numbers, booleans', { createdAt: { $lt: day(5) } }],
  ['a range on the trailing descending _id', { deletedAt: null, _id: { $gte: 100, $lt: 250 } }],
  ['a string range', { createdAt: { $gte: '2026' } }],
  ['a number range', { createdAt: { $gt: 0, $lte: 300 } }],
  ['number equality is not string equality', { createdAt: 19 }],
  ['string equality is not number equality', { createdAt: '19' }],
  ['int and double are equal', { createdAt: { $in: [new Double(38), 57] } }],
  ['boolean equality', { createdAt: true }],
  ['ObjectId equality', { createdAt: oid }],
  ['$in mixing types and null', { deletedAt: { $in: [null, 'x', 0] } }],
  ['$in with duplicates', { deletedAt: { $in: [null, null, 0, 0.0] } }],
  ['$in of dates', { deletedAt: { $in: [new Date(t0 + 10 * HOUR), new Date(t0 + 30 * HOUR)] } }],
  ['a Date never equals its string', { deletedAt: new Date(t0).toISOString() }],
  ['$in and a range', { deletedAt: { $in: [null, 0] }, createdAt: { $gte: day(10) } }],
  ['equality on _id only', { _id: 42 }],
  ['no match', { deletedAt: 'nope' }],
  ['an empty range', { createdAt: { $gt: day(1), $lt: day(2) } }],
  ['an empty $in', { deletedAt: { $in: [] } }],
];

test.each(FILTERS)(
  'when countDocuments filters by %s, then the index-only count equals the full match',
  async (_name, filter) => {
    const expected = await bruteForce('posts', filter);
    const posts = rows('posts');
    const [fast, read] = await watchReads('posts', () => posts.countDocuments(filter));
    expect(read).toBe(false);
    expect(fast).toBe(expected);
    // The same pipeline with `let` goes the usual way (documents matched by mingo).
    const usual = await posts
      .aggregate([{ $match: filter }, { $group: { _id: 1, n: { $sum: 1 } } }], { let: {} })
      .toArray();
    expect(usual).toEqual(expected ? [{ _id: 1, n: expected }] : []);
    expect(await db.command({ count: 'posts', query: filter })).toMatchObject({ n: expected });
  },
);

test('when null and missing fields are counted, then both match null and neither matches a type', async () => {
  const posts = rows('posts');
  // 400 posts: 40 missing deletedAt, 240 null, 40 each of Date, 'x' and 0.
  expect(await posts.countDocuments({ deletedAt: null })).toBe(280);
  expect(await posts.countDocuments({ deletedAt: { $gte: new Date(0) } })).toBe(40);
  expect(await posts.countDocuments({ deletedAt: { $gte: 0 } })).toBe(40);
  expect(await posts.countDocuments({ deletedAt: { $gte: '' } })).toBe(40);
});

test('when countDocuments has a skip and a limit, then they apply to the count', async () => {
  const posts = rows('posts');
  const filter = { deletedAt: null, createdAt: { $gte: day(7) } };
  const n = await bruteForce('posts', filter);
  expect(n).toBeGreaterThan(20);
  const cases: Array<[{ skip?: number; limit?: number }, number]> = [
    [{ skip: 5 }, n - 5],
    [{ limit: 10 }, 10],
    [{ skip: 5, limit: 10 }, 10],
    [{ skip: n - 3, limit: 10 }, 3],
    [{ skip: n + 1 }, 0],
    [{ limit: n + 100 }, n],
  ];
  for (const [options, expected] of cases) {
    const [count, read] = await watchReads('posts', () => posts.countDocuments(filter, options));
    expect([options, count, read]).toEqual([options, expected, false]);
    const cmd = await db.command({ count: 'posts', query: filter, ...options });
    expect([options, cmd.n]).toEqual([options, expected]);
  }
});

test('when a count pipeline groups by another constant into another field, then it keeps them', async () => {
  const posts = rows('posts');
  const pipeline = (id: unknown) => [
    { $match: { deletedAt: null } },
    { $skip: 1 },
    { $limit: 50 },
    { $group: { _id: id, total: { $sum: 1 } } },
  ];
  for (const id of [null, 'all', 0]) {
    const [fast, read] = await watchReads('posts', () => posts.aggregate(pipeline(id)).toArray());
    expect(read).toBe(false);
    expect(fast).toEqual([{ _id: id, total: 50 }]);
    const [usual, usualRead] = await watchReads('posts', () =>
      posts.aggregate(pipeline(id), { let: {} }).toArray(),
    );
    expect([usual, usualRead]).toEqual([fast, true]);
  }
  // Not a plain count: counted by matching documents, as before.
  const [byField, read] = await watchReads('posts', () =>
    posts
      .aggregate([{ $match: { deletedAt: 0 } }, { $group: { _id: '$deletedAt', n: { $sum: 1 } } }])
      .toArray(),
  );
  expect(read).toBe(true);
  expect(byField).toEqual([{ _id: 0, n: 40 }]);
});

test('when an indexed field holds an array, then the count matches documents instead', async () => {
  const tagged = rows('tagged');
  const [n, read] = await watchReads('tagged', () => tagged.countDocuments({ tags: 'a' }));
  expect([n, read]).toEqual([2, true]);
});

test('when a filter field is in no index or the operator is not covered, then documents are matched', async () => {
  const posts = rows('posts');
  const filters: Array<Filter<Row>> = [
    { deletedAt: null, title: 'x' },
    { deletedAt: { $ne: null } },
    { $or: [{ deletedAt: 0 }, { deletedAt: 'x' }] },
    { createdAt: { $gte: null } },
    { createdAt: /^2026/ },
    { 'deletedAt.x': null },
  ];
  for (const filter of filters) {
    const expected = await bruteForce('posts', filter);
    const [n, read] = await watchReads('posts', () => posts.countDocuments(filter));
    expect([filter, n, read]).toEqual([filter, expected, true]);
  }
});

test('when the scanned keys hold a type that mingo and mongod compare differently, then documents are matched', async () => {
  const odd = rows('odd');
  const [below, belowRead] = await watchReads('odd', () =>
    odd.countDocuments({ createdAt: { $lt: new Date(t0 + 1) } }),
  );
  expect([below, belowRead]).toEqual([1, true]);
  const [numbers, numbersRead] = await watchReads('odd', () =>
    odd.countDocuments({ createdAt: { $gt: 0 } }),
  );
  expect([numbers, numbersRead]).toEqual([
    await bruteForce('odd', { createdAt: { $gt: 0 } }),
    true,
  ]);
  // A range that does not reach the odd keys is still counted from the index.
  const [dates, datesRead] = await watchReads('odd', () =>
    odd.countDocuments({ createdAt: { $gte: new Date(t0) } }),
  );
  expect([dates, datesRead]).toEqual([1, false]);
});
