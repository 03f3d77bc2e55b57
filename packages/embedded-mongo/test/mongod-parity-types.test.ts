/**
 * mongod 7.0's answers to what mongoose's own test suite sends (see the package README,
 * "Differences from MongoDB 7.0" and "mongoose's test suite"), through the official driver:
 * BSON types in queries, find projections, field names, smaller differences and the status
 * commands. Each test names the mongoose test it stands for.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  Binary,
  DBRef,
  Long,
  MongoClient,
  MongoServerError,
  ObjectId,
  UUID,
  type Db,
  type Document,
} from 'mongodb';
import { start, type RunningServer } from '../src';

let server: RunningServer;
let client: MongoClient;
let db: Db;
let dbSeq = 0;

beforeAll(async () => {
  server = await start({ port: 0 });
  client = await MongoClient.connect(`${server.uri}/?replicaSet=rs0`);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});
beforeEach(() => {
  db = client.db(`parity${++dbSeq}`);
});

async function serverError(p: Promise<unknown>): Promise<MongoServerError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof MongoServerError) return e;
    throw e;
  }
  throw new Error('expected a server error');
}

const ids = (docs: Document[]) => docs.map((d) => d._id);

/** A collection of documents with any `_id` and any fields. */
const coll = (name: string) =>
  db.collection<{ _id?: string | number | ObjectId; [field: string]: unknown }>(name);

describe('BSON types in queries', () => {
  test('when $type names long, double, int or number, then it matches what mongod stores (bigint, int32, double tests)', async () => {
    const c = coll('types');
    await c.insertMany([
      { _id: 'long', v: Long.fromString('9223372036854775807') },
      { _id: 'int', v: 42 },
      { _id: 'double', v: 42.04 },
      { _id: 'string', v: '42' },
    ]);
    const byType = async (t: unknown) =>
      ids(
        await c
          .find({ v: { $type: t } } as Document)
          .sort({ _id: 1 })
          .toArray(),
      );
    expect(await byType('long')).toEqual(['long']);
    expect(await byType(18)).toEqual(['long']);
    expect(await byType('int')).toEqual(['int']);
    expect(await byType('double')).toEqual(['double']);
    expect(await byType(1)).toEqual(['double']);
    expect(await byType('number')).toEqual(['double', 'int', 'long']);
    expect(await byType(['string', 'int'])).toEqual(['int', 'string']);
    // The Long keeps its type: it comes back as an int64.
    const [long] = await c.find({ _id: 'long' }, { promoteLongs: false }).toArray();
    expect(long?.v).toEqual(Long.fromString('9223372036854775807'));
  });

  test('when $type names objectId, 7, binData, date or array, then those values match (schema.test $type objectId, schema.uuid maps)', async () => {
    const c = coll('types');
    const oid = new ObjectId();
    await c.insertMany([
      { _id: oid, u: new UUID(), when: new Date(), tags: ['a', 1] },
      { _id: 'other', u: 'not a uuid', when: '2026-01-01', tags: 'a' },
    ]);
    expect(ids(await c.find({ _id: { $eq: oid, $type: 'objectId' } }).toArray())).toEqual([oid]);
    expect(ids(await c.find({ _id: { $type: 7 } }).toArray())).toEqual([oid]);
    expect(ids(await c.find({ u: { $type: 'binData' } }).toArray())).toEqual([oid]);
    expect(ids(await c.find({ when: { $type: 'date' } }).toArray())).toEqual([oid]);
    expect(ids(await c.find({ tags: { $type: 'array' } }).toArray())).toEqual([oid]);
    // An array matches a type one of its elements has.
    expect(ids(await c.find({ tags: { $type: 'int' } }).toArray())).toEqual([oid]);
  });

  test('when $type names no BSON type, then mongod errors are returned', async () => {
    const c = coll('types');
    await c.insertOne({ v: 1 });
    const unknown = await serverError(c.find({ v: { $type: 'integer' } }).toArray());
    expect([unknown.code, unknown.message]).toEqual([2, 'Unknown type name alias: integer']);
    const code = await serverError(c.find({ v: { $type: 99 } }).toArray());
    expect([code.code, code.message]).toEqual([2, 'Invalid numerical type code: 99']);
  });

  test('when a range has null or a value of another type, then only null and missing, or values of its type, match', async () => {
    const c = coll('ranges');
    await c.insertMany([
      { _id: 1, v: null },
      { _id: 2 },
      { _id: 3, v: 5 },
      { _id: 4, v: '5' },
      { _id: 5, v: Long.fromNumber(7) },
    ]);
    const find = async (filter: Document) => ids(await c.find(filter).sort({ _id: 1 }).toArray());
    expect(await find({ v: { $gte: null } })).toEqual([1, 2]);
    expect(await find({ v: { $gt: null } })).toEqual([]);
    expect(await find({ v: { $gt: 4 } })).toEqual([3, 5]);
    expect(await find({ v: { $gte: '' } })).toEqual([4]);
  });

  test('when $all is given a value and the field is not an array, then it matches a field equal to it (model.querying $all)', async () => {
    const c = coll('all');
    await c.insertMany([
      { _id: 1, tags: 'mongodb' },
      { _id: 2, tags: ['mongodb', 'js'] },
      { _id: 3, tags: ['js'] },
    ]);
    expect(
      ids(
        await c
          .find({ tags: { $all: ['mongodb'] } })
          .sort({ _id: 1 })
          .toArray(),
      ),
    ).toEqual([1, 2]);
    expect(ids(await c.find({ tags: { $all: ['mongodb', 'js'] } }).toArray())).toEqual([2]);
    expect(await c.countDocuments({ tags: { $all: [] } })).toBe(0);
  });

  test('when $in or $nin lists Buffers, and a range compares BinData, then BinData compares as mongod does (model.querying "with conditionals")', async () => {
    const c = coll('buffers');
    const uber = Buffer.from([195, 188, 98, 101, 114]);
    await c.insertMany([
      { _id: 'A', block: uber },
      { _id: 'B', block: Buffer.from('buffer shtuffs are neat') },
      { _id: 'C', block: Buffer.from('hello world') },
      { _id: 'D', block: Buffer.from([103, 104, 45, 54, 56, 54, 51]) },
    ]);
    const find = async (filter: Document) => ids(await c.find(filter).sort({ _id: 1 }).toArray());
    expect(await find({ block: { $in: [uber, Buffer.from('hello world')] } })).toEqual(['A', 'C']);
    expect(await find({ block: { $nin: [uber] } })).toEqual(['B', 'C', 'D']);
    expect(await find({ block: uber })).toEqual(['A']);
    // BinData orders by length first: every other block is longer than 'über'.
    expect(await find({ block: { $gt: uber } })).toEqual(['B', 'C', 'D']);
    expect(await find({ block: { $lt: Buffer.from('buffer shtuffs are neat') } })).toEqual([
      'A',
      'C',
      'D',
    ]);
  });

  test('when $bitsAllSet / $bitsAnySet / $bitsAnyClear / $bitsAllClear test BinData, then its bits are read (schema.uuid $bits*)', async () => {
    const c = coll('bits');
    const uuid = new UUID('00000000-0000-4000-8000-000000000011');
    await c.insertMany([
      { _id: 1, uuid },
      { _id: 2, uuid: 'x' },
      { _id: 3, n: 0b1010 },
    ]);
    const count = (filter: Document) => c.countDocuments(filter);
    // Byte 15 is 0x11: bits 120 and 124 set; byte 0 is 0: bits 0..7 clear.
    expect(await count({ uuid: { $bitsAllSet: [120, 124] } })).toBe(1);
    expect(await count({ uuid: { $bitsAllSet: [120, 121] } })).toBe(0);
    expect(await count({ uuid: { $bitsAnySet: [0, 124] } })).toBe(1);
    expect(await count({ uuid: { $bitsAnyClear: [0, 120] } })).toBe(1);
    expect(await count({ uuid: { $bitsAllClear: 0xff } })).toBe(1);
    expect(await count({ uuid: { $bitsAllSet: new Binary(Buffer.from([0, 0])) } })).toBe(1);
    expect(await count({ n: { $bitsAllSet: 0b1010 } })).toBe(1);
    expect(await count({ n: { $bitsAnySet: [0, 2] } })).toBe(0);
  });

  test('when $elemMatch names the $id of DBRefs in an array, then it matches them (query.test gh-8577)', async () => {
    const c = coll('chats');
    const id = new ObjectId();
    await c.insertOne({ members: [new DBRef('foo', id, 'foo')] });
    expect(await c.countDocuments({ members: { $elemMatch: { $id: id } } })).toBe(1);
    expect(await c.countDocuments({ members: { $elemMatch: { $id: new ObjectId() } } })).toBe(0);
    expect(await c.countDocuments({ 'members.$id': id })).toBe(1);
  });

  test('when $elemMatch tests plain values with operators, then elements are tested themselves (model.querying gh-2199)', async () => {
    const c = coll('scores');
    await c.insertMany([
      { _id: 1, scores: [1, 8] },
      { _id: 2, scores: [2, 3] },
    ]);
    expect(ids(await c.find({ scores: { $elemMatch: { $gte: 5, $lt: 10 } } }).toArray())).toEqual([
      1,
    ]);
    expect(ids(await c.find({ scores: { $elemMatch: { $in: [3] } } }).toArray())).toEqual([2]);
  });
});

describe('find projections', () => {
  const doc = { _id: 1, title: 't', fans: [1, 2, 3, 4], ids: [5, 6, 7], meta: { a: 1, b: 2 } };

  test('when a projection only has $slice, then every other field is kept (model.populate gh-5737)', async () => {
    const c = coll('p');
    await c.insertOne(doc);
    expect(await c.findOne({}, { projection: { fans: { $slice: 2 } } })).toEqual({
      ...doc,
      fans: [1, 2],
    });
    expect(await c.findOne({}, { projection: { fans: { $slice: [1, 2] } } })).toEqual({
      ...doc,
      fans: [2, 3],
    });
    expect(await c.findOne({}, { projection: { fans: { $slice: -1 } } })).toEqual({
      ...doc,
      fans: [4],
    });
  });

  test('when $slice is combined with an exclusion or an inclusion, then both apply (query.test gh-5450)', async () => {
    const c = coll('p');
    await c.insertOne(doc);
    expect(await c.findOne({}, { projection: { title: 0, fans: { $slice: 1 } } })).toEqual({
      _id: 1,
      fans: [1],
      ids: [5, 6, 7],
      meta: { a: 1, b: 2 },
    });
    expect(await c.findOne({}, { projection: { title: 1, fans: { $slice: 1 } } })).toEqual({
      _id: 1,
      title: 't',
      fans: [1],
    });
  });

  test('when $elemMatch projects an array of plain values with operators, then the first match is kept (model.field.selection gh-1091)', async () => {
    const c = coll('p');
    await c.insertOne(doc);
    expect(await c.findOne({}, { projection: { ids: { $elemMatch: { $in: [6, 7] } } } })).toEqual({
      _id: 1,
      ids: [6],
    });
    expect(await c.findOne({}, { projection: { ids: { $elemMatch: { $gt: 9 } } } })).toEqual({
      _id: 1,
    });
  });

  test('when a projection has a positional field.$, then the first element the filter matched is kept', async () => {
    const c = coll('p');
    await c.insertOne({ _id: 1, a: { arr: [1, 5, 7] }, arr: [2, 4, 6], other: 1 });
    expect(await c.findOne({ arr: { $gte: 3 } }, { projection: { 'arr.$': 1 } })).toEqual({
      _id: 1,
      arr: [4],
    });
    expect(await c.findOne({ 'a.arr': { $gt: 5 } }, { projection: { 'a.arr.$': 1 } })).toEqual({
      _id: 1,
      a: { arr: [7] },
    });
    const e = await serverError(c.findOne({ other: 1 }, { projection: { 'arr.$': 1 } }));
    expect([e.code, e.message]).toEqual([
      31277,
      "Positional projection 'arr.$' does not match the query document.",
    ]);
  });

  test('when a projection mixes inclusion and exclusion, then mongod codes come back', async () => {
    const c = coll('p');
    await c.insertOne(doc);
    const mixed = await serverError(c.findOne({}, { projection: { title: 1, fans: 0 } }));
    expect([mixed.code, mixed.message]).toEqual([
      31254,
      'Cannot do exclusion on field fans in inclusion projection',
    ]);
    const nested = await serverError(
      c.findOne({}, { projection: { 'meta.a': { $elemMatch: { x: 1 } } } }),
    );
    expect([nested.code, nested.message]).toEqual([
      31275,
      'Cannot use $elemMatch projection on a nested field.',
    ]);
  });
});

describe('field names', () => {
  test('when documents hold $-prefixed field names, then inserts and replacements keep them as mongod 5+ does', async () => {
    const c = coll('dollars');
    await c.insertOne({ _id: 1, $top: 1, nested: { $inner: 2 } });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, $top: 1, nested: { $inner: 2 } });
    await c.replaceOne({ _id: 1 }, { nested: { $inner: 3, list: [{ $x: 1 }] } });
    expect(await c.findOne({ _id: 1 })).toEqual({
      _id: 1,
      nested: { $inner: 3, list: [{ $x: 1 }] },
    });
  });

  test('when a stored document has an own __proto__ key, then it is kept and nothing is polluted (findOneAndUpdate gh-16202)', async () => {
    const c = coll('protos');
    const payload = JSON.parse('{"__proto__": {"polluted": "yes"}, "x": 1}') as Document;
    await c.insertOne({ _id: 1, path1: payload });
    await c.findOneAndUpdate(
      { _id: 1 },
      { $set: { other: JSON.parse('{"__proto__": "abcd"}') as Document } },
    );
    const found = await c.findOne({ _id: 1 });
    expect(Object.prototype.hasOwnProperty.call(found?.path1, '__proto__')).toBe(true);
    expect(Object.prototype.hasOwnProperty.call(found?.other, '__proto__')).toBe(true);
    expect((found?.other as Document).__proto__).toBe('abcd');
    expect(({} as Document).polluted).toBeUndefined();
    // And a projection keeps it too.
    const projected = await c.findOne({ _id: 1 }, { projection: { path1: 1, other: 1 } });
    expect(Object.prototype.hasOwnProperty.call(projected?.path1, '__proto__')).toBe(true);
  });

  test('when an update path goes through a field named __proto__, then the field is written as mongod writes it and nothing is polluted (mongoose "avoids prototype pollution on init")', async () => {
    const c = coll('protoPaths');
    await c.insertOne({ _id: 1, a: 1, tags: ['x'] });
    await c.updateOne({ _id: 1 }, { $rename: { a: '__proto__.x' } });
    await c.updateOne({ _id: 1 }, { $set: { '__proto__.y': 2, 'q.__proto__': 3 } });
    await c.updateOne({ _id: 1 }, { $unset: { '__proto__.x': 1 } });
    const found = await c.findOne({ _id: 1 });
    expect(Object.prototype.hasOwnProperty.call(found, '__proto__')).toBe(true);
    expect(found?.__proto__).toEqual({ y: 2 });
    expect(Object.prototype.hasOwnProperty.call(found?.q, '__proto__')).toBe(true);
    expect(({} as Document).x).toBeUndefined();
    expect(({} as Document).y).toBeUndefined();
    // The stored document is still a plain document: queries match it.
    expect(await c.countDocuments({ tags: 'x', '__proto__.y': 2 })).toBe(1);
  });
});

describe('smaller differences', () => {
  test('when a pipeline names an unknown stage, then mongod 40324 comes back (aggregate "error handler with agg error")', async () => {
    const c = coll('agg');
    await c.insertOne({ name: 'test' });
    const e = await serverError(c.aggregate([{ $fakeStage: { name: 'test' } }]).toArray());
    expect([e.code, e.message]).toEqual([40324, "Unrecognized pipeline stage name: '$fakeStage'"]);
    const two = await serverError(c.aggregate([{ $match: {}, $limit: 1 }]).toArray());
    expect(two.code).toBe(40323);
  });

  test('when an aggregate has a hint, then it reads through that index, and a hint naming none is refused (aggregate "adds hint option")', async () => {
    const c = coll('hinted');
    await c.createIndex({ qty: -1, name: -1 });
    await c.insertMany([
      { name: 'Andrew', qty: 4 },
      { name: 'Betty', qty: 5 },
      { name: 'Charlie', qty: 4 },
    ]);
    const docs = await c.aggregate([{ $match: {} }], { hint: { qty: -1, name: -1 } }).toArray();
    expect(docs.map((d) => d.name)).toEqual(['Betty', 'Charlie', 'Andrew']);
    const e = await serverError(c.aggregate([{ $match: {} }], { hint: { nope: 1 } }).toArray());
    expect([e.code, e.message]).toEqual([
      2,
      'hint provided does not correspond to an existing index',
    ]);
  });

  test('when explain wraps an aggregate, then its plan comes back (aggregate explain())', async () => {
    const c = coll('explained');
    await c.insertOne({ sal: 1 });
    const out = await c.aggregate([{ $match: { sal: { $lt: 16000 } } }]).explain();
    expect(Array.isArray(out.stages)).toBe(true);
    expect((out.stages as Document[])[0]).toHaveProperty('$cursor.queryPlanner.winningPlan.stage');
  });

  test('when a pipeline update matches nothing, then it succeeds with n: 0 (document "updateOne with update pipeline")', async () => {
    const c = coll('pipeline');
    const r = await c.updateOne({ _id: 'missing' as never }, [
      { $set: { age: { $round: [{ $add: ['age', 1] }, 0] } } },
    ]);
    expect([r.matchedCount, r.modifiedCount]).toEqual([0, 0]);
    const e = await serverError(c.updateOne({}, [{ $match: {} }]));
    expect([e.code, e.message]).toEqual([72, '$match is not allowed to be used within an update']);
  });
});

describe('status commands', () => {
  test('when serverStatus runs, then it reports the version, uptime, connections, opcounters, memory and repl (mongoose test helper)', async () => {
    const admin = client.db('admin');
    const before = await admin.command({ serverStatus: 1 });
    await coll('ops').insertMany([{ a: 1 }, { a: 2 }]);
    await coll('ops').find().toArray();
    const s = await admin.command({ serverStatus: 1 });
    expect(s.version).toBe('7.0.0');
    expect(s.process).toBe('mongod');
    expect(s.pid).toBe(process.pid);
    expect(s.uptimeMillis).toBeGreaterThanOrEqual(before.uptimeMillis);
    expect(s.localTime).toBeInstanceOf(Date);
    expect(s.connections.current).toBeGreaterThan(0);
    expect(s.connections.totalCreated).toBeGreaterThanOrEqual(s.connections.current);
    expect(s.connections.available).toBeGreaterThan(0);
    expect(s.opcounters.insert - before.opcounters.insert).toBe(2);
    expect(s.opcounters.query - before.opcounters.query).toBe(1);
    expect(s.mem.resident).toBeGreaterThan(0);
    expect(s.repl).toMatchObject({ setName: 'rs0', isWritablePrimary: true, secondary: false });
    expect(s.host).toBe(s.repl.me);
  });

  test('when dbStats and collStats run, then they count documents, sizes and indexes, scaled', async () => {
    const c = coll('stats');
    await c.insertMany([{ a: 'x'.repeat(100) }, { a: 'y'.repeat(100) }]);
    await c.createIndex({ a: 1 });
    await db.createCollection('view', { viewOn: 'stats', pipeline: [] });
    const s = await db.command({ dbStats: 1 });
    expect(s).toMatchObject({
      db: db.databaseName,
      collections: 1,
      views: 1,
      objects: 2,
      indexes: 2,
    });
    expect(s.dataSize).toBeGreaterThan(200);
    expect(s.avgObjSize).toBe(s.dataSize / 2);
    expect(s.totalSize).toBe(s.dataSize + s.indexSize);
    const kb = await db.command({ dbStats: 1, scale: 1024 });
    expect(kb.dataSize).toBe(Math.floor(s.dataSize / 1024));
    expect(kb.scaleFactor).toBe(1024);
    const cs = await db.command({ collStats: 'stats' });
    expect(cs).toMatchObject({
      ns: `${db.databaseName}.stats`,
      count: 2,
      nindexes: 2,
      capped: false,
    });
    expect(Object.keys(cs.indexSizes)).toEqual(['_id_', 'a_1']);
    expect(cs.size).toBe(s.dataSize);
    const [stage] = await c.aggregate([{ $collStats: { storageStats: {}, count: {} } }]).toArray();
    expect(stage).toMatchObject({ ns: `${db.databaseName}.stats`, count: 2 });
    expect(stage?.storageStats.count).toBe(2);
    const bad = await serverError(db.command({ collStats: 'stats', scale: 0 }));
    expect([bad.code, bad.message]).toEqual([2, 'scale has to be >= 1']);
  });

  test('when collMod hides an index, then listIndexes shows hidden: true and the planner and hints skip it (model.test syncIndexes hideIndexes)', async () => {
    const c = coll('hide');
    await c.insertMany([{ name: 'a' }, { name: 'b' }]);
    await c.createIndex({ name: 1 });
    const plan = async () =>
      ((await c.find({ name: 'a' }).explain('queryPlanner')).queryPlanner as Document).winningPlan
        .stage as string;
    expect(await plan()).toBe('IXSCAN');
    const r = await db.command({ collMod: 'hide', index: { name: 'name_1', hidden: true } });
    expect([r.hidden_old, r.hidden_new]).toEqual([false, true]);
    expect((await c.listIndexes().toArray())[1]).toMatchObject({ name: 'name_1', hidden: true });
    expect(await plan()).toBe('COLLSCAN');
    const hinted = await serverError(c.find({ name: 'a' }, { hint: 'name_1' }).toArray());
    expect(hinted.code).toBe(2);
    await db.command({ collMod: 'hide', index: { keyPattern: { name: 1 }, hidden: false } });
    expect((await c.listIndexes().toArray())[1]).not.toHaveProperty('hidden');
    expect(await plan()).toBe('IXSCAN');
    const missing = await serverError(
      db.command({ collMod: 'hide', index: { name: 'nope', hidden: true } }),
    );
    expect([missing.code, missing.message]).toEqual([
      27,
      `cannot find index nope for ns ${db.databaseName}.hide`,
    ]);
  });

  test('when the server restarts after collMod, then the index is still hidden, with its new TTL, where it was', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parity-collmod-'));
    try {
      let durable = await start({ port: 0, dbPath: dir, fsync: 'never' });
      let c2 = await MongoClient.connect(`${durable.uri}/?directConnection=true`);
      const d = c2.db('durable');
      await d.collection('c').createIndex({ at: 1 }, { expireAfterSeconds: 3600 });
      await d.collection('c').createIndex({ name: 1 });
      await d.command({
        collMod: 'c',
        index: { name: 'at_1', hidden: true, expireAfterSeconds: 60 },
      });
      await c2.close();
      await durable.stop();
      durable = await start({ port: 0, dbPath: dir, fsync: 'never' });
      c2 = await MongoClient.connect(`${durable.uri}/?directConnection=true`);
      const listed = await c2.db('durable').collection('c').listIndexes().toArray();
      expect(listed.map((i) => [i.name, i.hidden, i.expireAfterSeconds])).toEqual([
        ['_id_', undefined, undefined],
        ['at_1', true, 60],
        ['name_1', undefined, undefined],
      ]);
      await c2.close();
      await durable.stop();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('when collMod changes expireAfterSeconds of a TTL index, then the old and new values come back', async () => {
    const c = coll('ttl');
    await c.createIndex({ at: 1 }, { expireAfterSeconds: 3600 });
    const r = await db.command({
      collMod: 'ttl',
      index: { keyPattern: { at: 1 }, expireAfterSeconds: 60 },
    });
    expect([r.expireAfterSeconds_old, r.expireAfterSeconds_new]).toEqual([3600, 60]);
    expect((await c.listIndexes().toArray())[1]).toMatchObject({ expireAfterSeconds: 60 });
    const notTtl = await serverError(
      db.command({ collMod: 'ttl', index: { name: '_id_', expireAfterSeconds: 5 } }),
    );
    expect([notTtl.code, notTtl.message]).toEqual([72, 'no expireAfterSeconds field to update']);
  });

  test('when setParameter sets ttlMonitorSleepSecs, then getParameter reads it back, and an unknown parameter is refused (model.test gh-11229)', async () => {
    const admin = client.db('admin');
    const set = await admin.command({ setParameter: 1, ttlMonitorSleepSecs: 1 });
    expect(set.was).toBe(60);
    const got = await admin.command({ getParameter: 1, ttlMonitorSleepSecs: 1 });
    expect(got.ttlMonitorSleepSecs).toBe(1);
    const unknown = await serverError(admin.command({ setParameter: 1, notAParameter: 1 }));
    expect([unknown.code, unknown.message]).toEqual([
      72,
      'attempted to set unrecognized parameter [notAParameter], use help:true to see options ',
    ]);
    const notAdmin = await serverError(db.command({ setParameter: 1, ttlMonitorSleepSecs: 1 }));
    expect(notAdmin.code).toBe(13);
    await admin.command({ setParameter: 1, ttlMonitorSleepSecs: 60 });
  });

  test('when the TTL monitor runs every second after setParameter, then expired documents go without waiting a minute', async () => {
    const admin = client.db('admin');
    const c = coll('expiring');
    await c.createIndex({ at: 1 }, { expireAfterSeconds: 0 });
    const stream = c.watch();
    await stream.tryNext();
    await admin.command({ setParameter: 1, ttlMonitorSleepSecs: 1 });
    try {
      await c.insertOne({ _id: 'old', at: new Date(0) } as Document);
      // The insert, then the monitor's delete (a pass every second, not every minute).
      const events = [await stream.next(), await stream.next()];
      expect(events.map((e) => e.operationType)).toEqual(['insert', 'delete']);
      expect(await c.countDocuments()).toBe(0);
    } finally {
      await admin.command({ setParameter: 1, ttlMonitorSleepSecs: 60 });
      await stream.close();
    }
  });
});
