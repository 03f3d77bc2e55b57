/**
 * The planner on 20k documents, measured through the real read path: the official driver sends
 * find (and its explain, which runs the same find and counts the documents it examined) and
 * countDocuments to the server over TCP. The size is the point: a scan reads all 20k documents,
 * an index read about 20 (the 100k figures are bench:data's and the package bench's).
 */
import {
  MongoClient,
  type Collection as DriverCollection,
  type Document,
  type Sort,
} from 'mongodb';
import { Query } from '../src/mingo';
import { start, type RunningServer } from '../src';
import type { Collection } from '../src/collection';
import type { Doc } from '../src/values';

interface Post {
  _id: number;
  authorId: number;
  isJdTagged: boolean;
  deleted: boolean;
  createdAt: Date;
}

// Big enough that an index read (20 documents) and a scan (all of them) differ by three orders of
// magnitude; more documents would prove nothing more and only slow the suite.
const N = 20_000;
const DAY = 86_400_000;
const t0 = Date.UTC(2026, 0, 1);
let server: RunningServer;
let client: MongoClient;
let posts: DriverCollection<Post>;
/** The server's own copy of the collection, to see which stored documents a count reads. */
let stored: Collection;

beforeAll(async () => {
  server = await start({ port: 0 });
  client = await MongoClient.connect(server.uri);
  posts = client.db('bench').collection<Post>('posts');
  // Loaded straight into the engine: the data is set-up, not what is measured (~10 s over TCP).
  const engine = server.engine;
  stored = engine.getOrCreate('bench', 'posts');
  for (let i = 1; i <= N; i++) {
    engine.insert(stored, {
      _id: i,
      authorId: i % 500,
      isJdTagged: i % 10 === 0,
      deleted: i % 50 === 0,
      createdAt: new Date(t0 + (i * 90 * DAY) / N),
    });
  }
  engine.createIndex(stored, { name: 'createdAt_-1', key: { createdAt: -1 } });
  engine.createIndex(stored, {
    name: 'authorId_1_createdAt_-1',
    key: { authorId: 1, createdAt: -1 },
  });
  engine.createIndex(stored, {
    name: 'isJdTagged_1_createdAt_-1',
    key: { isJdTagged: 1, createdAt: -1 },
  });
}, 120_000);

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

/** One page as the find command returns it, and the explain of that same find. */
async function page(filter: Doc, sort: Sort, limit = 20) {
  const out = await posts.find(filter, { sort, limit }).toArray();
  const explained = (await posts
    .find(filter, { sort, limit })
    .explain('executionStats')) as Document;
  return {
    plan: explained.queryPlanner.winningPlan.summary as string,
    examined: explained.executionStats.totalDocsExamined as number,
    returned: explained.executionStats.nReturned as number,
    out,
  };
}

test('when a page is sorted by an indexed field, then the index yields it in order without a scan', async () => {
  const r = await page({ deleted: { $ne: true } }, { createdAt: -1 });
  expect(r.plan).toBe('IXSCAN createdAt_-1 (sorted)');
  expect(r.out.map((d) => d._id)).toEqual([
    N - 1, // N itself is deleted (every 50th is)
    ...Array.from({ length: 19 }, (_, i) => N - 2 - i),
  ]);
  expect(r.returned).toBe(20);
  expect(r.examined).toBeLessThanOrEqual(21);
});

test('when filtering by equality and sorting by the next field of a compound index, then it reads only that page', async () => {
  const r = await page({ isJdTagged: true, deleted: { $ne: true } }, { createdAt: -1 });
  expect(r.plan).toBe('IXSCAN isJdTagged_1_createdAt_-1 (sorted)');
  expect(r.out).toHaveLength(20);
  expect(r.out.every((d) => d.isJdTagged)).toBe(true);
  expect(r.examined).toBeLessThanOrEqual(30);
});

test("when filtering by $in on the compound prefix and sorting by the next field, then the authors' ranges are merged in order and only the page is read", async () => {
  const r = await page({ authorId: { $in: [3, 1, 2, 1] } }, { createdAt: -1 });
  expect(r.plan).toBe('IXSCAN authorId_1_createdAt_-1 (sort merge)');
  // The newest 20 posts of those authors (createdAt grows with _id), each once.
  const newest = Array.from({ length: N }, (_, i) => N - i)
    .filter((id) => [1, 2, 3].includes(id % 500))
    .slice(0, 20);
  expect(r.out.map((d) => d._id)).toEqual(newest);
  expect(r.examined).toBeLessThanOrEqual(21);
  // Ascending, from the same index read backwards, after the oldest 5.
  const asc = await posts
    .find({ authorId: { $in: [2, 3] } }, { sort: { createdAt: 1 }, skip: 5, limit: 10 })
    .toArray();
  const oldest = Array.from({ length: N }, (_, i) => i + 1).filter((id) =>
    [2, 3].includes(id % 500),
  );
  expect(asc.map((d) => d._id)).toEqual(oldest.slice(5, 15));
});

test('when filtering by $in on the compound prefix without a sort, then only those authors are read', async () => {
  const r = await page({ authorId: { $in: [1, 2, 3] } }, {}, 0);
  expect(r.plan).toBe('IXSCAN authorId_1_createdAt_-1');
  expect(r.examined).toBe(3 * (N / 500)); // every post of those three authors, and no other
  expect(r.returned).toBe(3 * (N / 500));
});

test('when filtering by a range, then only the range is read', async () => {
  const from = new Date(t0 + 89 * DAY);
  const r = await page({ createdAt: { $gte: from } }, {}, 0);
  expect(r.plan).toBe('IXSCAN createdAt_-1');
  expect(r.out.every((d) => d.createdAt >= from)).toBe(true);
  expect(r.examined).toBe(r.out.length);
  expect(r.examined).toBeLessThan(N / 50);
});

test('when no index fits, then the planner falls back to a collection scan', async () => {
  const r = await page({ deleted: true }, {}, 0);
  expect(r.plan).toBe('COLLSCAN');
  expect(r.out).toHaveLength(N / 50);
  expect(r.examined).toBe(N);
});

test('when looking up by _id, then the document is fetched directly', async () => {
  const r = await page({ _id: 12345 }, {});
  expect(r.plan).toBe('IDHACK');
  expect(r.examined).toBe(1);
  expect(r.out.map((d) => d._id)).toEqual([12345]);
});

/** countDocuments() over the wire, with any read of a stored document recorded. */
async function countFromKeys(filter: Doc): Promise<{ n: number; read: boolean }> {
  const get = jest.spyOn(stored.docs, 'get');
  const values = jest.spyOn(stored.docs, 'values');
  try {
    const n = await posts.countDocuments(filter);
    return { n, read: get.mock.calls.length + values.mock.calls.length > 0 };
  } finally {
    get.mockRestore();
    values.mockRestore();
  }
}

function mingoCount(filter: Doc): number {
  const q = new Query(filter);
  let n = 0;
  for (const d of stored.docs.values()) if (q.test(d)) n++;
  return n;
}

test('when a count only needs indexed fields, then it is answered from index keys and equals a mingo count', async () => {
  const from = new Date(t0 + 30 * DAY);
  const to = new Date(t0 + 45 * DAY);
  const filters: Doc[] = [
    { isJdTagged: true },
    { isJdTagged: false, createdAt: { $gte: from } },
    { authorId: { $in: [1, 2, 3, 3] }, createdAt: { $gte: from, $lt: to } },
    { createdAt: { $gt: from, $lte: to } },
    { authorId: 7, createdAt: { $lt: from } },
    { authorId: '7' },
  ];
  for (const filter of filters) {
    const expected = mingoCount(filter);
    expect([filter, await countFromKeys(filter)]).toEqual([filter, { n: expected, read: false }]);
  }
});

test('when a count filter is not provably covered by an index, then documents are read and the count is still right', async () => {
  const filters: Doc[] = [
    { deleted: true }, // no index
    { isJdTagged: true, deleted: false }, // one field in no index
    { $or: [{ authorId: 1 }, { authorId: 2 }] },
    { authorId: { $ne: 1 } },
    { authorId: { $in: [/^1/] } },
    { 'author.id': 1 },
  ];
  for (const filter of filters) {
    const expected = mingoCount(filter);
    expect([filter, await countFromKeys(filter)]).toEqual([filter, { n: expected, read: true }]);
  }
});

test('when filtering a sparse index field by a value, then the sparse index is read; by null, the collection is', async () => {
  // Every 100th post has a key: the sparse index holds only those 200 documents.
  const keyed = client.db('bench').collection<{ _id: number; key?: string | null }>('keyed');
  const engine = server.engine;
  const coll = engine.getOrCreate('bench', 'keyed');
  for (let i = 1; i <= N; i++)
    engine.insert(coll, i % 100 === 0 ? { _id: i, key: `k${i}` } : { _id: i });
  engine.createIndex(coll, { name: 'key_1', key: { key: 1 }, unique: true, sparse: true });
  const explain = async (filter: Doc) =>
    (await keyed.find(filter).explain('executionStats')) as Document;

  const one = await explain({ key: 'k500' });
  expect(one.queryPlanner.winningPlan.summary).toBe('IXSCAN key_1');
  expect(one.executionStats.totalDocsExamined).toBe(1);
  expect(await keyed.find({ key: { $in: ['k100', 'k200', 'nope'] } }).toArray()).toEqual([
    { _id: 100, key: 'k100' },
    { _id: 200, key: 'k200' },
  ]);
  // Documents without the field match null: only a scan finds them.
  const missing = await explain({ key: null });
  expect(missing.queryPlanner.winningPlan.summary).toBe('COLLSCAN');
  expect(await keyed.countDocuments({ key: null })).toBe(N - N / 100);
  expect(await keyed.countDocuments({ key: { $in: [null, 'k100'] } })).toBe(N - N / 100 + 1);
});
