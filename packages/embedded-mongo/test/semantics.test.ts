/**
 * mongod semantics fixed while running the CRUD conformance suite, checked one by one through
 * the official driver: `let`, `_id` rules, 7.0's update statements, document validation,
 * views, $listLocalSessions and the failCommand fail point.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, MongoServerError, type Db } from 'mongodb';
import { start, type RunningServer } from '../src';

let server: RunningServer;
let client: MongoClient;
let db: Db;
let dbSeq = 0;

beforeAll(async () => {
  server = await start({ port: 0 });
  client = await MongoClient.connect(server.uri);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});
beforeEach(() => {
  db = client.db(`semantics${++dbSeq}`);
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

describe('_id', () => {
  test('when an update operator targets _id, then it fails with ImmutableField and nothing changes', async () => {
    const c = db.collection<{ _id: string; n?: number }>('c');
    await c.insertOne({ _id: 'a', n: 1 });
    for (const update of [
      { $set: { _id: 'b' } },
      { $unset: { _id: '' } },
      { $rename: { n: '_id' } },
    ]) {
      const e = await serverError(c.updateOne({ _id: 'a' }, update as never));
      expect(e.code).toBe(66);
      expect(e.message).toContain("would modify the immutable field '_id'");
    }
    expect(await c.find().toArray()).toEqual([{ _id: 'a', n: 1 }]);
  });

  test('when $set writes _id with its current value, then the update is accepted', async () => {
    const c = db.collection<{ _id: string; n?: number }>('c');
    await c.insertOne({ _id: 'a', n: 1 });
    const r = await c.updateOne({ _id: 'a' }, { $set: { _id: 'a', n: 2 } });
    expect(r.modifiedCount).toBe(1);
  });

  test('when an upsert sets _id through $set or $setOnInsert, then the new document gets that _id', async () => {
    const c = db.collection<{ _id: string; x?: number; n?: number }>('c');
    await c.updateOne({ x: 1 }, { $setOnInsert: { _id: 'a' }, $inc: { n: 1 } }, { upsert: true });
    await c.updateOne({ x: 2 }, { $set: { _id: 'b' } }, { upsert: true });
    expect(await c.find().toArray()).toEqual([
      { _id: 'a', x: 1, n: 1 },
      { _id: 'b', x: 2 },
    ]);
    const e = await serverError(
      c.updateOne({ _id: 'c' }, { $set: { _id: 'd' } }, { upsert: true }),
    );
    expect(e.code).toBe(66);
  });

  test('when a pipeline update replaces the root without _id, then the document keeps its _id', async () => {
    const c = db.collection('c');
    await c.insertOne({ _id: 1 as never, t: { u: 1 } });
    await c.updateOne({ _id: 1 as never }, [{ $replaceRoot: { newRoot: '$t' } }]);
    expect(await c.find().toArray()).toEqual([{ _id: 1, u: 1 }]);
  });

  test('when a replacement upsert carries _id: null, then the inserted document has a null _id', async () => {
    const c = db.collection('c');
    const r = await c.replaceOne({}, { _id: null, x: 1 } as never, { upsert: true });
    expect(r.upsertedId).toBeNull();
    expect(await c.countDocuments({ _id: { $type: 'null' } } as never)).toBe(1);
  });

  test('when an _id holds a $-prefixed field, then the insert fails with DollarPrefixedFieldName', async () => {
    const e = await serverError(db.collection('c').insertOne({ _id: { $a: 1 } as never }));
    expect(e.code).toBe(52);
  });
});

describe('let variables', () => {
  test('when let binds a $literal, then $$name holds the literal value', async () => {
    const c = db.collection('c');
    await c.insertMany([
      { _id: 1 as never, s: '$bar' },
      { _id: 2 as never, s: 'x' },
    ]);
    const found = await c
      .find({ $expr: { $eq: ['$s', '$$v'] } }, { let: { v: { $literal: '$bar' } } })
      .toArray();
    expect(found).toEqual([{ _id: 1, s: '$bar' }]);
  });

  test('when update, delete and findAndModify use let, then their filters see the variables', async () => {
    const c = db.collection('c');
    await c.insertMany([
      { _id: 1 as never, x: 1 },
      { _id: 2 as never, x: 2 },
    ]);
    await c.updateOne({ $expr: { $eq: ['$_id', '$$id'] } }, [{ $set: { x: '$$val' } }], {
      let: { id: 1, val: 'one' },
    });
    const doc = await c.findOneAndUpdate(
      { $expr: { $eq: ['$_id', '$$id'] } },
      { $set: { y: 1 } },
      { let: { id: 2 }, returnDocument: 'after' },
    );
    expect(doc).toEqual({ _id: 2, x: 2, y: 1 });
    await c.deleteOne({ $expr: { $eq: ['$_id', '$$id'] } }, { let: { id: 2 } });
    expect(await c.find().toArray()).toEqual([{ _id: 1, x: 'one' }]);
  });

  test('when a let variable name starts with an upper-case letter, then the command fails', async () => {
    const e = await serverError(
      db
        .collection('c')
        .find({}, { let: { Bad: 1 } })
        .toArray(),
    );
    expect(e.message).toContain('invalid character for a user variable name');
  });
});

describe('update statements of MongoDB 7.0', () => {
  test('when an update statement has a sort, then the server rejects it as 7.0 does (8.0 feature)', async () => {
    const c = db.collection('c');
    await c.insertOne({ _id: 1 as never });
    const e = await serverError(c.updateOne({}, { $set: { x: 1 } }, { sort: { _id: -1 } }));
    expect(e.code).toBe(40415);
    expect(await c.findOne()).toEqual({ _id: 1 });
  });
});

describe('date operator timezones', () => {
  test('when a date operator names UTC, GMT or Etc/GMT+N, then it works as in mongod', async () => {
    const c = db.collection('d');
    await c.insertOne({ _id: 1 as never, at: new Date('2024-03-01T23:30:00Z') });
    const [r] = await c
      .aggregate([
        {
          $project: {
            utc: { $dateToString: { date: '$at', format: '%Y-%m-%d %H:%M', timezone: 'UTC' } },
            gmt: { $dateToString: { date: '$at', format: '%Y-%m-%d', timezone: 'GMT' } },
            behind: { $hour: { date: '$at', timezone: 'Etc/GMT+5' } },
            parts: { $dateToParts: { date: '$at', timezone: 'Etc/UTC' } },
            paris: { $dateToString: { date: '$at', format: '%Y-%m-%d', timezone: 'Europe/Paris' } },
          },
        },
      ])
      .toArray();
    expect(r).toMatchObject({
      utc: '2024-03-01 23:30',
      gmt: '2024-03-01',
      behind: 18,
      parts: { year: 2024, month: 3, day: 1, hour: 23 },
      paris: '2024-03-02',
    });
  });

  test('when a document field is named timezone, then its value is stored unchanged', async () => {
    const c = db.collection('d');
    await c.insertOne({ _id: 1 as never, timezone: 'UTC' });
    await c.updateOne({ _id: 1 as never }, [{ $set: { tz2: 'GMT', copy: '$timezone' } }]);
    const [r] = await c.aggregate([{ $addFields: { timezone2: { $literal: 'UTC' } } }]).toArray();
    expect(r).toEqual({ _id: 1, timezone: 'UTC', tz2: 'GMT', copy: 'UTC', timezone2: 'UTC' });
  });
});

describe('collation', () => {
  test('when any CRUD command asks for a collation the server does not implement, then it is refused instead of ignored', async () => {
    const c = db.collection('c');
    await c.insertOne({ _id: 1 as never, x: 'a' });
    // Only the simple and the case-insensitive English collations are implemented
    // (test/collation.test.ts).
    const collation = { locale: 'fr', strength: 2 };
    for (const p of [
      c.find({ x: 'A' }, { collation }).toArray(),
      c.countDocuments({ x: 'A' }, { collation }),
      c.distinct('x', {}, { collation }),
      c.updateOne({ x: 'A' }, { $set: { y: 1 } }, { collation }),
      c.deleteMany({ x: 'A' }, { collation }),
      c.findOneAndDelete({ x: 'A' }, { collation }),
    ]) {
      expect((await serverError(p)).message).toContain('is not supported by this server');
    }
    expect(await c.countDocuments()).toBe(1);
  });
});

describe('hint', () => {
  test('when a hint names an existing index, then the command runs', async () => {
    const c = db.collection('c');
    await c.insertOne({ _id: 1 as never, x: 1 });
    await c.createIndex({ x: 1 });
    expect(await c.find({}, { hint: 'x_1' }).toArray()).toHaveLength(1);
    expect(await c.countDocuments({}, { hint: { _id: 1 } })).toBe(1);
    await c.updateOne({ _id: 1 as never }, { $set: { y: 1 } }, { hint: { x: 1 } });
    await c.deleteOne({ _id: 1 as never }, { hint: '_id_' });
    expect(await c.countDocuments()).toBe(0);
  });

  test('when a hint names no existing index, then the server answers BadValue like mongod', async () => {
    const c = db.collection('c');
    await c.insertOne({ _id: 1 as never });
    const find = await serverError(c.find({}, { hint: 'nope_1' }).toArray());
    expect(find.code).toBe(2);
    expect(find.message).toContain('hint provided does not correspond to an existing index');
    const upd = await serverError(c.updateOne({}, { $set: { a: 1 } }, { hint: { a: 1 } }));
    expect(upd.code).toBe(2);
    expect((await serverError(c.findOneAndDelete({}, { hint: { nope: 1 } }))).code).toBe(2);
    expect(await c.countDocuments()).toBe(1);
  });
});

describe('document validation', () => {
  test('when a document fails the validator, then the write fails with 121 and errInfo', async () => {
    await db.createCollection('v', { validator: { x: { $type: 'string' } } });
    const c = db.collection('v');
    await c.insertOne({ _id: 1 as never, x: 'ok' });
    const e = await serverError(c.insertOne({ _id: 2 as never, x: 1 }));
    expect(e.code).toBe(121);
    const upd = await serverError(c.findOneAndUpdate({ _id: 1 as never }, { $set: { x: 2 } }));
    expect(upd.code).toBe(121);
    expect(upd.errInfo).toMatchObject({ failingDocumentId: 1, details: expect.any(Object) });
    expect(await c.find().toArray()).toEqual([{ _id: 1, x: 'ok' }]);
  });

  test('when bypassDocumentValidation is true, then invalid documents are written', async () => {
    await db.createCollection('v', { validator: { x: { $type: 'string' } } });
    const c = db.collection('v');
    await c.insertOne({ _id: 1 as never, x: 1 }, { bypassDocumentValidation: true });
    await c.updateOne({ _id: 1 as never }, { $set: { x: 2 } }, { bypassDocumentValidation: true });
    expect(await c.find().toArray()).toEqual([{ _id: 1, x: 2 }]);
  });

  test('when validationLevel is moderate, then documents already invalid may still be updated', async () => {
    const c = db.collection('v');
    await c.insertOne({ _id: 1 as never, x: 1 });
    await db.command({
      collMod: 'v',
      validator: { x: { $type: 'string' } },
      validationLevel: 'moderate',
    });
    await c.updateOne({ _id: 1 as never }, { $set: { x: 2 } });
    expect(await c.findOne()).toEqual({ _id: 1, x: 2 });
    expect((await serverError(c.insertOne({ _id: 2 as never, x: 3 }))).code).toBe(121);
  });

  test('when a validator uses $jsonSchema, then create says it is not supported', async () => {
    const e = await serverError(db.createCollection('v', { validator: { $jsonSchema: {} } }));
    expect(e.message).toContain('not supported');
  });
});

describe('views', () => {
  test('when a view is read, then find, count, distinct and aggregate see its pipeline output', async () => {
    await db.collection('src').insertMany([1, 2, 3].map((i) => ({ _id: i as never, i })));
    await db.createCollection('gt1', { viewOn: 'src', pipeline: [{ $match: { i: { $gt: 1 } } }] });
    const v = db.collection('gt1');
    expect(await v.find({}, { sort: { i: -1 } }).toArray()).toEqual([
      { _id: 3, i: 3 },
      { _id: 2, i: 2 },
    ]);
    expect(await v.estimatedDocumentCount()).toBe(2);
    expect(await v.countDocuments({ i: 3 })).toBe(1);
    expect(await v.distinct('i')).toEqual([2, 3]);
    const infos = await db.listCollections({ name: 'gt1' }).toArray();
    expect(infos[0]).toMatchObject({ type: 'view', options: { viewOn: 'src' } });
  });

  test('when a view is written to, then the server answers CommandNotSupportedOnView', async () => {
    await db.createCollection('w', { viewOn: 'src', pipeline: [] });
    const e = await serverError(db.collection('w').insertOne({ x: 1 }));
    expect(e.code).toBe(166);
  });
});

describe('$listLocalSessions', () => {
  test('when a session has run commands, then $listLocalSessions lists it', async () => {
    const session = client.startSession();
    try {
      await db.command({ ping: 1 }, { session });
      const sessions = await client
        .db('admin')
        .aggregate([{ $listLocalSessions: {} }], { session })
        .toArray();
      const ids = sessions.map((s) => (s._id as { id: { toString(f: string): string } }).id);
      expect(ids.map((id) => id.toString('hex'))).toContain(
        (session.id?.id as { toString(f: string): string }).toString('hex'),
      );
    } finally {
      await session.endSession();
    }
  });
});

describe('durable collection options', () => {
  test('when collMod sets a validator and a view is created, then both survive a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-options-'));
    try {
      const first = await start({ port: 0, dbPath: dir });
      const c1 = await MongoClient.connect(first.uri);
      await c1
        .db('d')
        .collection('c')
        .insertOne({ _id: 1 as never, x: 'a' });
      await c1.db('d').command({ collMod: 'c', validator: { x: { $type: 'string' } } });
      await c1.db('d').createCollection('v', { viewOn: 'c', pipeline: [] });
      await c1.close();
      await first.stop();

      const second = await start({ port: 0, dbPath: dir });
      const c2 = await MongoClient.connect(second.uri);
      try {
        const e = await serverError(c2.db('d').collection('c').insertOne({ x: 1 }));
        expect(e.code).toBe(121);
        expect(await c2.db('d').collection('v').find().toArray()).toEqual([{ _id: 1, x: 'a' }]);
      } finally {
        await c2.close();
        await second.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('configureFailPoint', () => {
  test('when test commands are not enabled, then configureFailPoint is an unknown command', async () => {
    const e = await serverError(
      client.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' }),
    );
    expect(e.code).toBe(59);
  });

  test('when failCommand is set for one insert, then that insert fails and the next succeeds', async () => {
    const testServer = await start({ port: 0, enableTestCommands: true });
    const c = await MongoClient.connect(testServer.uri, { retryWrites: false });
    try {
      await c.db('admin').command({
        configureFailPoint: 'failCommand',
        mode: { times: 1 },
        data: { failCommands: ['insert'], errorCode: 8 },
      });
      const coll = c.db('d').collection('c');
      expect((await serverError(coll.insertOne({ _id: 1 as never }))).code).toBe(8);
      await coll.insertOne({ _id: 1 as never });
      expect(await coll.countDocuments()).toBe(1);
    } finally {
      await c.close();
      await testServer.stop();
    }
  });
});

describe('the matcher, projection and updates without mingo', () => {
  test('when ranges, $ne and projections meet values of other types or arrays, then they answer as mingo does', async () => {
    const c = db.collection<{ _id: number; [k: string]: unknown }>('mixed');
    await c.insertMany([
      { _id: 1, a: 1, d: new Date(1000), s: 'b', n: null },
      { _id: 2, a: 5, d: new Date(3000), s: 'a', x: true },
      { _id: 3, a: '3', d: '2020', s: 1, n: 0 },
      { _id: 4, a: [1, 9], d: [new Date(2000)], s: ['c'] },
      { _id: 5, s: { z: 1 } },
    ]);
    const ids = async (filter: Record<string, unknown>) =>
      (await c.find(filter, { sort: { _id: 1 } }).toArray()).map((d) => d._id);
    // A number range matches numbers only, and any element of an array.
    expect(await ids({ a: { $lt: 3 } })).toEqual([1, 4]);
    expect(await ids({ a: { $gt: 1, $lte: 5 } })).toEqual([2, 4]);
    expect(await ids({ a: { $lte: '3' } })).toEqual([3]);
    expect(await ids({ d: { $lt: new Date(2500) } })).toEqual([1, 4]);
    expect(await ids({ s: { $gt: 'a' } })).toEqual([1, 4]);
    // $ne null: present and not null; $ne true: also where the field is missing.
    expect(await ids({ n: { $ne: null } })).toEqual([3]);
    expect(await ids({ x: { $ne: true }, a: { $ne: 1 } })).toEqual([3, 5]);
    // Projections keep the document's field order, _id first.
    const [first] = await c.find({ _id: 1 }, { projection: { s: 1, a: 1 } }).toArray();
    expect(Object.keys(first ?? {})).toEqual(['_id', 'a', 's']);
    const [second] = await c.find({ _id: 2 }, { projection: { d: 0, _id: 0 } }).toArray();
    expect(second).toEqual({ a: 5, s: 'a', x: true });
  });

  test('when $set, $unset and $inc name top-level fields, then the fields keep their order and new ones come last', async () => {
    const c = db.collection<{
      _id: number;
      a: number;
      b?: { c: number };
      n: number;
      s: string;
      z?: number;
    }>('updates');
    await c.insertOne({ _id: 1, a: 1, b: { c: 1 }, n: 2.5, s: 'x' });
    await c.updateOne({ _id: 1 }, { $inc: { a: 2, z: 1 }, $set: { s: 'y' }, $unset: { b: '' } });
    const doc = await c.findOne({ _id: 1 });
    expect(doc).toEqual({ _id: 1, a: 3, n: 2.5, s: 'y', z: 1 });
    expect(Object.keys(doc ?? {})).toEqual(['_id', 'a', 'n', 's', 'z']);
  });
});
