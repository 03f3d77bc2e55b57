/**
 * The fast paths of counting: a whole-collection count reads the collection's size, and an
 * aggregation whose stages cannot change their inputs runs on the stored documents uncloned,
 * which must leave them exactly as they were.
 */
import { MongoClient, type Db } from 'mongodb';
import { start, type RunningServer } from '../src';

let server: RunningServer;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  server = await start({ port: 0 });
  client = await MongoClient.connect(server.uri);
  db = client.db('counts');
  await db
    .collection('items')
    .insertMany(
      Array.from({ length: 50 }, (_, i) => ({ _id: i as never, group: i % 3, tags: ['a'], n: i })),
    );
  await db.createCollection('odd', { viewOn: 'items', pipeline: [{ $match: { group: 1 } }] });
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

test('when a whole collection is counted, then the count is its size; a view or a filter is matched', async () => {
  expect(await db.collection('items').estimatedDocumentCount()).toBe(50);
  expect(await db.collection('missing').estimatedDocumentCount()).toBe(0);
  expect(await db.collection('odd').estimatedDocumentCount()).toBe(17);
  expect(await db.collection('items').countDocuments({ group: 2 })).toBe(16);
  expect(await db.command({ count: 'items', query: {}, limit: 5 })).toMatchObject({ n: 5 });
});

test('when read-only stages run on stored documents uncloned, then the documents are unchanged', async () => {
  const before = await db.collection('items').find().sort({ _id: 1 }).toArray();
  const grouped = await db
    .collection('items')
    .aggregate([
      { $match: { n: { $gte: 0 } } },
      { $group: { _id: '$group', count: { $sum: 1 }, tags: { $push: '$tags' } } },
      { $sort: { _id: 1 } },
      { $limit: 2 },
    ])
    .toArray();
  expect(grouped.map((g) => [g._id, g.count])).toEqual([
    [0, 17],
    [1, 17],
  ]);
  // A stage that writes fields still works on copies.
  await db
    .collection('items')
    .aggregate([{ $addFields: { n: 'changed', 'tags.0': 'x' } }])
    .toArray();
  expect(await db.collection('items').find().sort({ _id: 1 }).toArray()).toEqual(before);
});
