/**
 * The case-insensitive English collations (`{ locale: 'en' | 'en_US', strength: 1 | 2 }`) through
 * the official driver and mongoose, as mongod 7.0 applies them: string equality, ranges and
 * `$in` in filters, sorts, distinct, unique and collated indexes, a collection's default
 * collation (also for `_id`); and the loud refusal of every other collation and of what this
 * server would otherwise compare binary under a collation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { MongoClient, MongoServerError, type CollationOptions, type Db } from 'mongodb';
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
  db = client.db(`collation${++dbSeq}`);
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

const CI = { locale: 'en', strength: 2 };
/** The spec mongod 7.0 stores and lists for `CI`. */
const CI_SPEC = {
  locale: 'en',
  caseLevel: false,
  caseFirst: 'off',
  strength: 2,
  numericOrdering: false,
  alternate: 'non-ignorable',
  maxVariable: 'punct',
  normalization: false,
  backwards: false,
  version: '57.1',
};

async function names() {
  const c = db.collection<{ _id: number; n: string; tags?: string[] }>('names');
  await c.insertMany([
    { _id: 1, n: 'Zeta' },
    { _id: 2, n: 'alpha' },
    { _id: 3, n: 'Beta' },
    { _id: 4, n: 'beta' },
    { _id: 5, n: 'Álpha' },
    { _id: 6, n: 'gamma', tags: ['X', 'y'] },
  ]);
  return c;
}

describe('queries and sorts with a collation', () => {
  test('when a sort asks for the collation, then strings sort case-insensitively (not binary)', async () => {
    const c = await names();
    const sorted = async (collation?: CollationOptions) =>
      (await c.find({}, { collation }).sort({ n: 1, _id: 1 }).toArray()).map((d) => d.n);
    expect(await sorted()).toEqual(['Beta', 'Zeta', 'alpha', 'beta', 'gamma', 'Álpha']);
    expect(await sorted(CI)).toEqual(['alpha', 'Álpha', 'Beta', 'beta', 'gamma', 'Zeta']);
    const agg = await c
      .aggregate([{ $sort: { n: -1, _id: 1 } }, { $project: { _id: 0, n: 1 } }], { collation: CI })
      .toArray();
    expect(agg.map((d) => d.n)).toEqual(['Zeta', 'gamma', 'Beta', 'beta', 'Álpha', 'alpha']);
  });

  test('when filters compare strings under strength 2 or 1, then case (and for 1, accents) is ignored', async () => {
    const c = await names();
    const ids = async (filter: object, collation: CollationOptions) =>
      (await c.find(filter, { collation }).toArray()).map((d) => d._id).sort();
    expect(await ids({ n: 'BETA' }, CI)).toEqual([3, 4]);
    expect(await ids({ n: 'alpha' }, CI)).toEqual([2]);
    expect(await ids({ n: 'alpha' }, { locale: 'en_US', strength: 1 })).toEqual([2, 5]);
    expect(await ids({ n: { $gte: 'b', $lt: 'C' } }, CI)).toEqual([3, 4]);
    expect(await ids({ n: { $in: ['ZETA', 'GAMMA'] } }, CI)).toEqual([1, 6]);
    expect(await ids({ n: { $nin: ['ZETA', 'BETA'] } }, CI)).toEqual([2, 5, 6]);
    expect(await ids({ n: { $ne: 'beta' } }, CI)).toEqual([1, 2, 5, 6]);
    expect(await ids({ tags: 'x' }, CI)).toEqual([6]);
    expect(await ids({ tags: { $all: ['Y', 'x'] } }, CI)).toEqual([6]);
    expect(await ids({ n: /^b/ }, CI)).toEqual([4]); // $regex ignores the collation, as in mongod
    expect(await ids({ n: 'beta' }, { locale: 'simple' })).toEqual([4]);
  });

  test('when counts, distinct, updates, deletes and findAndModify take the collation, then they match alike', async () => {
    const c = await names();
    expect(await c.countDocuments({ n: 'BETA' }, { collation: CI })).toBe(2);
    expect(await c.distinct('n', { n: { $in: ['beta', 'ALPHA'] } }, { collation: CI })).toEqual([
      'alpha',
      'Beta',
    ]);
    expect(
      (await c.updateMany({ n: 'BETA' }, { $set: { seen: true } }, { collation: CI }))
        .modifiedCount,
    ).toBe(2);
    const after = await c.findOneAndUpdate(
      { n: 'ZETA' },
      { $set: { last: true } },
      { collation: CI, returnDocument: 'after' },
    );
    expect(after).toMatchObject({ _id: 1, last: true });
    expect(
      (await c.deleteMany({ n: 'ALPHA' }, { collation: { locale: 'en', strength: 1 } }))
        .deletedCount,
    ).toBe(2);
    expect(
      await c.aggregate([{ $match: { n: 'beta' } }, { $count: 'n' }], { collation: CI }).toArray(),
    ).toEqual([{ n: 2 }]);
  });
});

describe('collations with the other query and update semantics', () => {
  test("when a collated filter uses $type, $all, $in and ranges, then they keep mongod's type rules and compare strings through the collation", async () => {
    const c = db.collection<{ _id: number; [k: string]: unknown }>('mixed');
    await c.insertMany([
      { _id: 1, a: 1, tags: ['a', 'B'] },
      { _id: 2, a: 1.5, tags: 'A' },
      { _id: 3, a: 2, tags: ['c'] },
    ]);
    const ids = async (filter: object) =>
      (await c.find(filter, { collation: CI }).sort({ _id: 1 }).toArray()).map((d) => d._id);
    // $all on a field that is not an array matches its one value; $type: 'int' is no double.
    expect(await ids({ tags: { $all: ['a'] } })).toEqual([1, 2]);
    expect(await ids({ tags: { $in: ['b'] }, a: { $type: 'int' } })).toEqual([1]);
    expect(await ids({ tags: { $gt: 'A', $lt: 'C' } })).toEqual([1]);
    expect(await ids({ tags: { $gte: 'a', $lte: 'c' }, a: { $type: 'number' } })).toEqual([
      1, 2, 3,
    ]);
  });

  test('when a collated update uses the positional $, then it stands for the element the collation matched', async () => {
    const c = db.collection<{ _id: number; [k: string]: unknown }>('positional');
    await c.insertOne({ _id: 1, tags: ['a', 'B', 'c'] });
    const r = await c.updateOne({ tags: 'b' }, { $set: { 'tags.$': 'bee' } }, { collation: CI });
    expect(r.modifiedCount).toBe(1);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, tags: ['a', 'bee', 'c'] });
  });

  test('when a hint names an index of another collation, then the query still finds every match', async () => {
    const c = db.collection<{ _id: number; [k: string]: unknown }>('hinted');
    await c.insertMany([
      { _id: 1, n: 'Ann' },
      { _id: 2, n: 'ann' },
      { _id: 3, n: 'Bob' },
    ]);
    await c.createIndex({ n: 1 });
    const found = await c
      .find({ n: 'ANN' }, { collation: CI })
      .hint('n_1')
      .sort({ _id: 1 })
      .toArray();
    expect(found.map((d) => d._id)).toEqual([1, 2]);
  });
});

describe('indexes with a collation', () => {
  test('when a unique index has a case-insensitive collation, then values equal through it are duplicates', async () => {
    const users = db.collection('users');
    await users.createIndex({ email: 1 }, { unique: true, collation: CI });
    const [, ix] = await users.listIndexes().toArray();
    expect(ix).toEqual({
      v: 2,
      key: { email: 1 },
      name: 'email_1',
      unique: true,
      collation: CI_SPEC,
    });
    await users.insertOne({ email: 'A@x' });
    const dup = await serverError(users.insertOne({ email: 'a@x' }));
    expect(dup.code).toBe(11000);
    expect(dup.message).toContain('E11000 duplicate key error collection: ');
    expect(dup.message).toContain(' index: email_1 collation: { locale: "en", caseLevel: false');
    await users.insertOne({ email: 'á@x' }); // strength 2: accents still count
    const update = await serverError(users.updateOne({ email: 'á@x' }, { $set: { email: 'A@X' } }));
    expect(update.code).toBe(11000);
    expect(await users.countDocuments()).toBe(2);

    const loose = db.collection('loose');
    await loose.createIndex(
      { name: 1 },
      { unique: true, collation: { locale: 'en', strength: 1 } },
    );
    await loose.insertOne({ name: 'resume' });
    expect((await serverError(loose.insertOne({ name: 'Résumé' }))).code).toBe(11000);
  });

  test("when a query has the index's collation, then the index serves it; a binary query does not use it for strings", async () => {
    const c = db.collection<{ _id: number; name: string }>('people');
    await c.insertMany(
      Array.from({ length: 50 }, (_, i) => ({ _id: i, name: i % 2 ? `Name${i}` : `name${i}` })),
    );
    await c.createIndex({ name: 1 }, { collation: CI });
    const plan = async (collation?: CollationOptions) => {
      const e = (await c.find({ name: 'NAME7' }, { collation }).explain('executionStats')) as {
        queryPlanner: { winningPlan: { stage: string } };
        executionStats: { nReturned: number };
      };
      return [e.queryPlanner.winningPlan.stage, e.executionStats.nReturned];
    };
    expect(await plan(CI)).toEqual(['IXSCAN', 1]);
    expect(await plan()).toEqual(['COLLSCAN', 0]);
  });

  test('when a unique collated index survives a restart, then it still refuses case-variants', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-collation-'));
    try {
      for (const round of [1, 2]) {
        const s = await start({ port: 0, dbPath: dir, fsync: 'never' });
        const cl = await MongoClient.connect(s.uri);
        const users = cl.db('restart').collection('users');
        if (round === 1) {
          await users.createIndex({ email: 1 }, { unique: true, collation: CI });
          await users.insertOne({ email: 'Ann@x' });
        } else {
          expect((await serverError(users.insertOne({ email: 'ANN@X' }))).code).toBe(11000);
          expect(await users.find({ email: 'ann@x' }, { collation: CI }).toArray()).toHaveLength(1);
        }
        await cl.close();
        await s.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a collection's default collation", () => {
  test('when a collection is created with a collation, then its operations, _id and new indexes follow it', async () => {
    await db.createCollection('ci', { collation: CI });
    const [info] = await db.listCollections({ name: 'ci' }).toArray();
    expect(info).toMatchObject({
      options: { collation: CI_SPEC },
      idIndex: { v: 2, key: { _id: 1 }, name: '_id_', collation: CI_SPEC },
    });
    const c = db.collection<{ _id: string; v: string }>('ci');
    await c.insertMany([
      { _id: 'A', v: 'Q' },
      { _id: 'b', v: 'q' },
    ]);
    expect((await serverError(c.insertOne({ _id: 'a', v: 'x' }))).code).toBe(11000);
    expect((await c.find({ v: 'q' }).toArray()).map((d) => d._id)).toEqual(['A', 'b']);
    expect((await c.find({ _id: 'a' }).toArray()).map((d) => d._id)).toEqual(['A']);
    expect(
      (await c.find({ v: 'q' }, { collation: { locale: 'simple' } }).toArray()).map((d) => d._id),
    ).toEqual(['b']);
    // The case: a sort on a collection created with a collation (was ['Zeta', 'alpha']).
    await db.createCollection('sorted', { collation: CI });
    await db.collection('sorted').insertMany([{ w: 'Zeta' }, { w: 'alpha' }]);
    const words = await db.collection('sorted').find().sort({ w: 1 }).toArray();
    expect(words.map((d) => d.w)).toEqual(['alpha', 'Zeta']);
    await c.createIndex({ v: 1 });
    const [, ix] = await c.listIndexes().toArray();
    expect(ix).toMatchObject({ name: 'v_1', collation: CI_SPEC });
    const text = await serverError(c.createIndex({ v: 'text' }));
    expect(text.code).toBe(67);
    expect(text.message).toContain("Index type 'text' does not support collation");
    expect(await c.createIndex({ v: 'text' }, { collation: { locale: 'simple' } })).toBe('v_text');
  });

  test('when mongoose declares a collection and an index collation, then they behave as on mongod', async () => {
    const conn = await mongoose
      .createConnection(`${server.uri}/collation-mongoose-${++dbSeq}`)
      .asPromise();
    try {
      const schema = new mongoose.Schema(
        { email: String, name: String },
        { collation: { locale: 'en', strength: 2 } },
      );
      schema.index({ email: 1 }, { unique: true });
      const User = conn.model('User', schema);
      await User.init();
      await User.create({ email: 'Kim@Example.com', name: 'Kim' });
      await expect(User.create({ email: 'kim@example.com', name: 'kim' })).rejects.toMatchObject({
        code: 11000,
      });
      expect(await User.findOne({ email: 'KIM@EXAMPLE.COM' }).lean()).toMatchObject({
        name: 'Kim',
      });
      await User.create({ email: 'ann@example.com', name: 'ann' });
      const sorted = await User.find()
        .sort({ name: 1 })
        .collation({ locale: 'en', strength: 1 })
        .lean();
      expect(sorted.map((u) => u.name)).toEqual(['ann', 'Kim']);
    } finally {
      await conn.close();
    }
  });
});

describe('refusals', () => {
  test('when a collation is not one this server implements, then every command refuses it with BadValue', async () => {
    const c = await names();
    for (const collation of [
      { locale: 'fr' },
      { locale: 'en' }, // strength 3, the default
      { locale: 'en', strength: 3 },
      { locale: 'en', strength: 2, numericOrdering: true },
      { locale: 'en', strength: 2, caseFirst: 'upper' },
      { locale: 'en', strength: 1, alternate: 'shifted' },
      { locale: 'de_AT', strength: 2 },
    ]) {
      for (const p of [
        c.find({}, { collation }).toArray(),
        c.countDocuments({}, { collation }),
        c.aggregate([], { collation }).toArray(),
        c.updateOne({}, { $set: { x: 1 } }, { collation }),
        c.deleteOne({ _id: 99 }, { collation }),
        c.createIndex({ n: 1 }, { collation, name: 'x' }),
        db.createCollection(`refused${++dbSeq}`, { collation }),
      ]) {
        const e = await serverError(p);
        expect([e.code, e.message]).toEqual([
          2,
          expect.stringContaining('is not supported by this server'),
        ]);
      }
    }
    const missing = await serverError(
      c.find({}, { collation: { strength: 2 } as never }).toArray(),
    );
    expect(missing.code).toBe(40414);
    const unknown = await serverError(
      c.find({}, { collation: { locale: 'en', strength: 2, foo: 1 } as never }).toArray(),
    );
    expect(unknown.code).toBe(40415);
    expect(await c.countDocuments()).toBe(6);
    expect(await c.listIndexes().toArray()).toHaveLength(1);
  });

  test('when a collation would have to compare where this server compares binary, then it is refused', async () => {
    const c = await names();
    const refused = [
      c.aggregate([{ $group: { _id: '$n', k: { $sum: 1 } } }], { collation: CI }).toArray(),
      c.aggregate([{ $project: { same: { $eq: ['$n', 'BETA'] } } }], { collation: CI }).toArray(),
      c.find({ $expr: { $eq: ['$n', 'BETA'] } }, { collation: CI }).toArray(),
      c.updateOne({ _id: 6 }, { $addToSet: { tags: 'x' } }, { collation: CI }),
      c.updateOne({ _id: 6 }, { $pull: { tags: 'x' } }, { collation: CI }),
    ];
    for (const p of refused) {
      const e = await serverError(p);
      expect([e.code, e.message]).toEqual([
        2,
        expect.stringContaining('is not supported with a collation by this server'),
      ]);
    }
    expect(await c.findOne({ _id: 6 })).toEqual({ _id: 6, n: 'gamma', tags: ['X', 'y'] });
    // A count-style $group does not compare strings: served.
    expect(await c.countDocuments({ n: 'beta' }, { collation: CI })).toBe(2);
  });
});
