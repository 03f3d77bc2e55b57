/**
 * Updates, and what the server refuses, answered as mongod 7.0 answers them: the commands are the
 * ones mongoose 9's own tests send (its positional `$` updates, `doc.arr.pull(subdoc)`, array
 * filters, writes mongod refuses), sent through the official driver, each checked against
 * mongod's result or its error code and message (src/update-operators.ts, src/positional.ts,
 * src/unsupported.ts, src/collation.ts).
 */
import { calculateObjectSize, ObjectId } from 'bson';
import { MongoClient, MongoServerError, type Collection, type Db, type Document } from 'mongodb';
import { start, type RunningServer } from '../src';

let server: RunningServer;
let client: MongoClient;
let db: Db;
let seq = 0;

beforeAll(async () => {
  server = await start({ port: 0 });
  client = await MongoClient.connect(server.uri);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});
beforeEach(() => {
  db = client.db(`parity${++seq}`);
});

async function failure(p: Promise<unknown>): Promise<MongoServerError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof MongoServerError) return e;
    throw e;
  }
  throw new Error('expected a server error');
}

async function expectError(p: Promise<unknown>, code: number, message: string): Promise<void> {
  const e = await failure(p);
  expect({ code: e.code, message: e.message }).toEqual({ code, message });
}

/** Documents of any shape: the tests send what mongoose sends, `_id`s of any type included. */
type Loose = Document & { _id?: number | string | ObjectId };

function coll(name = 'c'): Collection<Loose> {
  return db.collection<Loose>(name);
}

describe('the positional $ update', () => {
  test('when the query matches an array of strings, then $set of arr.$ changes that element (gh-1572)', async () => {
    const c = coll();
    const { insertedId } = await c.insertOne({ obj: ['a', 'b', 'c'] });
    const r = await c.updateOne({ _id: insertedId, obj: 'b' }, { $set: { 'obj.$': '2' } });
    expect(r.modifiedCount).toBe(1);
    expect((await c.findOne({ _id: insertedId }))?.obj).toEqual(['a', '2', 'c']);
  });

  test('when $addToSet and $set both use comments.$, then both change the matched comment (gh-479)', async () => {
    const c = coll();
    const post = {
      _id: new ObjectId(),
      comments: [
        { _id: new ObjectId(), body: 'been there' },
        { _id: new ObjectId(), body: 'done that' },
      ],
    };
    await c.insertOne(post);
    await c.updateOne(
      { _id: post._id, 'comments.body': 'been there' },
      {
        $addToSet: { 'comments.$.comments': { body: 'The Ring Of Power' } },
        $set: { 'comments.$.title': 'MongoDB++' },
      },
    );
    const doc = await c.findOne({ _id: post._id });
    expect(doc?.comments).toEqual([
      { ...post.comments[0], comments: [{ body: 'The Ring Of Power' }], title: 'MongoDB++' },
      post.comments[1],
    ]);
  });

  test('when $inc uses comments.$.newprop, then only the matched comment gets the field (gh-479)', async () => {
    const c = coll();
    const { insertedId } = await c.insertOne({ comments: [{ body: 'been there' }, { body: 'x' }] });
    const date = new Date();
    await c.updateOne(
      { _id: insertedId, 'comments.body': 'been there' },
      { $inc: { 'comments.$.newprop': 1 }, $set: { date } },
    );
    expect(await c.findOne({ _id: insertedId })).toEqual({
      _id: insertedId,
      comments: [{ body: 'been there', newprop: 1 }, { body: 'x' }],
      date,
    });
  });

  test('when $push targets components.$.tasks, then the task goes into the matched component', async () => {
    const c = coll();
    const comp = [
      { _id: new ObjectId(), tasks: [] },
      { _id: new ObjectId(), tasks: [] },
    ];
    const { insertedId } = await c.insertOne({ components: comp });
    const task = { _id: new ObjectId(), name: 'do it' };
    await c.updateOne({ _id: insertedId, 'components._id': comp[1]?._id }, {
      $push: { 'components.$.tasks': task },
    } as never);
    const doc = await c.findOne({ _id: insertedId });
    expect(doc?.components).toEqual([comp[0], { _id: comp[1]?._id, tasks: [task] }]);
  });

  test('when findOneAndUpdate sets elems.$, then the matched element changes (gh-5628)', async () => {
    const c = coll();
    const { insertedId } = await c.insertOne({ elems: ['a', 'b'] });
    const r = await c.findOneAndUpdate(
      { _id: insertedId, elems: 'a' },
      { $set: { 'elems.$': 'c' } },
      { returnDocument: 'after' },
    );
    expect(r?.elems).toEqual(['c', 'b']);
  });

  test('when the filter is an $elemMatch, then slides.$ names the element it matched', async () => {
    const c = coll();
    const id = new ObjectId();
    const { insertedId } = await c.insertOne({
      slides: [
        { _id: new ObjectId(), type: 'typeB' },
        { _id: id, type: 'typeA', a: 'old', commonField: 'old' },
      ],
    });
    await c.updateOne(
      { slides: { $elemMatch: { _id: id, type: 'typeA' } } },
      { $set: { 'slides.$.a': 'newValue1', 'slides.$.commonField': 'newValue2' } },
    );
    const doc = await c.findOne({ _id: insertedId });
    expect(doc?.slides[1]).toEqual({
      _id: id,
      type: 'typeA',
      a: 'newValue1',
      commonField: 'newValue2',
    });
  });

  test('when updateMany and bulkWrite use $, then each document uses its own matched position', async () => {
    const c = coll();
    await c.insertMany([
      { _id: 1, tags: ['x', 'b'] },
      { _id: 2, tags: ['b', 'y', 'b'] },
      { _id: 3, tags: ['z'] },
    ]);
    const r = await c.updateMany({ tags: 'b' }, { $set: { 'tags.$': 'B' } });
    expect([r.matchedCount, r.modifiedCount]).toEqual([2, 2]);
    await c.bulkWrite([
      { updateOne: { filter: { _id: 2, tags: 'b' }, update: { $unset: { 'tags.$': '' } } } },
      { updateOne: { filter: { _id: 3, tags: 'z' }, update: { $inc: { n: 1 } } } },
    ]);
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, tags: ['x', 'B'] },
      { _id: 2, tags: ['B', 'y', null] },
      { _id: 3, tags: ['z'], n: 1 },
    ]);
  });

  test('when the filter has $and and $or, then the position comes from the condition that matched', async () => {
    const c = coll();
    await c.insertOne({ _id: 1, a: [1, 2, 3] });
    await c.updateOne({ $and: [{ _id: 1 }, { a: 3 }] }, { $set: { 'a.$': 30 } });
    await c.updateOne({ $or: [{ a: 9 }, { a: { $gt: 1 } }] }, { $set: { 'a.$': 20 } });
    expect((await c.findOne({ _id: 1 }))?.a).toEqual([1, 20, 30]);
  });

  test('when the query names no array, then updateOne, findOneAndUpdate and an upsert fail with code 2', async () => {
    const c = coll();
    await c.insertOne({ _id: 1, tags: ['a', 'b'] });
    const message = 'The positional operator did not find the match needed from the query.';
    await expectError(c.updateOne({ _id: 1 }, { $set: { 'tags.$': 'B' } }), 2, message);
    await expectError(c.findOneAndUpdate({ _id: 1 }, { $set: { 'tags.$': 'B' } }), 2, message);
    await expectError(
      c.updateOne({ tags: 'zz' }, { $set: { 'tags.$': 'B' } }, { upsert: true }),
      2,
      message,
    );
    expect(await c.find().toArray()).toEqual([{ _id: 1, tags: ['a', 'b'] }]);
  });

  test('when nothing matches, then a positional update is not an error', async () => {
    const r = await coll().updateOne({ tags: 'nothing' }, { $set: { 'tags.$': 'B' } });
    expect([r.matchedCount, r.modifiedCount]).toEqual([0, 0]);
  });
});

describe('writes mongod refuses', () => {
  test('when $inc meets a string, then TypeMismatch (14) names the document and the field', async () => {
    const c = coll();
    await c.insertOne({ _id: 1, x: 'str' });
    await expectError(
      c.updateOne({ _id: 1 }, { $inc: { x: 1 } }),
      14,
      "Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 'x' of non-numeric type string",
    );
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, x: 'str' });
  });

  test('when $push meets a number, then BadValue (2) says the field must be an array', async () => {
    const c = coll();
    await c.insertOne({ _id: 1, x: 5 });
    await expectError(
      c.updateOne({ _id: 1 }, { $push: { x: 1 } } as never),
      2,
      "The field 'x' must be an array but is of type int in document {_id: 1}",
    );
  });

  test('when $set names a field inside an array of subdocuments, then PathNotViable (28)', async () => {
    const c = coll();
    const commentId = new ObjectId();
    const { insertedId } = await c.insertOne({
      comments: [{ _id: commentId, body: 'been there' }],
    });
    await expectError(
      c.updateOne({ _id: insertedId }, { $set: { 'comments.body': 'fail' } }),
      28,
      `Cannot create field 'body' in element {comments: [ { _id: ObjectId('${commentId.toHexString()}'), body: "been there" } ]}`,
    );
  });

  test('when a document is over 16 MiB, then an insert, an update and an upsert are refused', async () => {
    const c = coll();
    const big = { _id: new ObjectId(), name: { data: 'x'.repeat(16 * 1024 * 1024) }, __v: 0 };
    await expectError(
      c.insertOne(big),
      2,
      `object to insert too large. size in bytes: ${calculateObjectSize(big)}, max size: 16777216`,
    );
    await c.insertOne({ _id: 1, data: 'y'.repeat(8 * 1024 * 1024) });
    await expectError(
      c.updateOne({ _id: 1 }, { $set: { more: 'z'.repeat(8 * 1024 * 1024 + 100) } }),
      10334,
      'Resulting document after update is larger than 16777216',
    );
    await expectError(
      c.updateOne({ _id: 2 }, { $set: { data: 'z'.repeat(16 * 1024 * 1024) } }, { upsert: true }),
      17420,
      'Document to upsert is larger than 16777216',
    );
    expect(await c.countDocuments()).toBe(1);
  });

  test('when an update brings a document to exactly 16 MiB, then it is stored, and one byte more is refused', async () => {
    const c = coll();
    const base = { _id: 1, data: '' };
    const room = 16 * 1024 * 1024 - calculateObjectSize(base) - calculateObjectSize({ z: '' }) + 5;
    await c.insertOne({ _id: 1, data: 'y'.repeat(room) });
    // { z: '' } adds its field: the document is then 16777216 bytes, mongod's maximum.
    await c.updateOne({ _id: 1 }, { $set: { z: '' } });
    await c.updateOne({ _id: 1 }, { $inc: { n: 0 }, $unset: { z: '' } }); // replaces 8 bytes by 7
    await expectError(
      c.updateOne({ _id: 1 }, { $set: { z: 'ab' }, $unset: { n: '' } }),
      10334,
      'Resulting document after update is larger than 16777216',
    );
    const doc = await c.findOne({ _id: 1 }, { projection: { data: 0 } });
    expect(doc).toEqual({ _id: 1, n: 0 });
  });

  test('when create asks for capped without a size, then InvalidOptions (72) as mongod', async () => {
    await expectError(
      db.createCollection('a', { capped: 1024 } as never),
      72,
      "the 'size' field is required when 'capped' is true",
    );
    await expectError(
      db.createCollection('b', { capped: true, size: 1024 }),
      72,
      'capped collections are not supported by this server',
    );
    await expectError(
      db.createCollection('t', { timeseries: { timeField: 'timestamp' } }),
      72,
      'time-series collections (timeseries) are not supported by this server',
    );
    await expectError(
      db.command({ create: 'u', bogus: 1 }),
      40415,
      "BSON field 'create.bogus' is an unknown field.",
    );
    expect(await db.listCollections().toArray()).toEqual([]);
  });
});

describe('collations', () => {
  // The case-insensitive English collations are implemented (test/collation.test.ts); any other
  // is refused.
  const collation = { locale: 'fr' };
  const refused = 'collation { locale: "fr" } is not supported by this server';

  test('when any command carries a collation the server does not implement, then it is refused with BadValue, never ignored', async () => {
    const c = coll();
    await c.insertOne({ _id: 1, name: 'Zeta' });
    const attempts: Array<Promise<unknown>> = [
      db.createCollection('withCollation', { collation }),
      c.find({}, { collation }).toArray(),
      c.aggregate([{ $sort: { name: 1 } }], { collation }).toArray(),
      c.updateOne({ _id: 1 }, { $set: { a: 1 } }, { collation }),
      c.deleteOne({ _id: 1 }, { collation }),
      c.createIndex({ name: 1 }, { collation }),
      c.countDocuments({}, { collation }),
      c.distinct('name', {}, { collation }),
      c.findOneAndUpdate({ _id: 1 }, { $set: { a: 1 } }, { collation }),
      db.command({ count: 'c', query: {}, collation }),
    ];
    for (const attempt of attempts) {
      const e = await failure(attempt);
      expect(e.code).toBe(2);
      expect(e.message).toContain(refused);
    }
    expect(await c.find().toArray()).toEqual([{ _id: 1, name: 'Zeta' }]);
  });

  test('when the collation is the simple one, then it is accepted (binary comparison is what the server does)', async () => {
    const c = coll();
    await c.insertMany([{ name: 'alpha' }, { name: 'Zeta' }]);
    const names = await c
      .find({}, { collation: { locale: 'simple' }, projection: { _id: 0 } })
      .sort({ name: 1 })
      .toArray();
    expect(names).toEqual([{ name: 'Zeta' }, { name: 'alpha' }]);
  });
});

describe('features this server does not implement', () => {
  test('when a filter uses $where, a geo operator or $jsonSchema, then BadValue names the feature', async () => {
    const c = coll();
    await c.insertOne({ _id: 1, loc: [0, 0] });
    for (const [filter, message] of [
      [{ $where: 'this.a == 1' }, '$where is not supported by this server'],
      [{ loc: { $near: [0, 0] } }, 'geospatial query operators ($near) are not supported'],
      [
        { loc: { $geoWithin: { $center: [[0, 0], 1] } } },
        'geospatial query operators ($geoWithin) are not supported',
      ],
      [{ $jsonSchema: { required: ['a'] } }, '$jsonSchema is not supported by this server'],
    ] as Array<[Document, string]>) {
      const e = await failure(c.find(filter).toArray());
      expect(e.code).toBe(2);
      expect(e.message).toContain(message);
    }
  });

  test("when a filter uses an operator mongod does not know, then mongod's BadValue", async () => {
    const c = coll();
    await expectError(c.find({ a: { $foo: 1 } }).toArray(), 2, 'unknown operator: $foo');
    await expectError(
      c.find({ $foo: 1 }).toArray(),
      2,
      "unknown top level operator: $foo. If you have a field name that starts with a '$' symbol, consider using $getField or $setField.",
    );
  });

  test('when an index is geo, hashed or wildcard, then CannotCreateIndex (67) names it', async () => {
    const c = coll();
    for (const [key, options, message] of [
      [{ loc: '2dsphere' }, {}, 'geospatial (2dsphere) indexes are not supported by this server'],
      [{ loc: '2d' }, {}, 'geospatial (2d) indexes are not supported by this server'],
      [{ a: 'hashed' }, {}, 'hashed indexes are not supported by this server'],
      [{ '$**': 1 }, {}, 'wildcard indexes are not supported by this server'],
      [{ a: 'bogus' }, {}, "Unknown index plugin 'bogus'"],
    ] as Array<[Document, Document, string]>) {
      await expectError(c.createIndex(key, options), 67, message);
    }
    const e = await failure(
      db.command({ createIndexes: 'c', indexes: [{ key: { a: 1 }, name: 'a_1', bogus: 1 }] }),
    );
    expect([e.code, e.codeName]).toEqual([197, 'InvalidIndexSpecificationOption']);
    expect(e.message).toContain("The field 'bogus' is not valid for an index specification.");
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
  });

  test('when createIndexes asks for a hidden index or a text index with its options, then they are created (both implemented), not refused', async () => {
    const c = coll();
    await c.createIndex({ a: 1 }, { hidden: true });
    await c.createIndex({ title: 'text' }, { weights: { title: 2 }, default_language: 'english' });
    const listed = await c.listIndexes().toArray();
    expect(listed.find((i) => i.name === 'a_1')).toMatchObject({ hidden: true });
    expect(listed.find((i) => i.name === 'title_text')).toMatchObject({ weights: { title: 2 } });
    // A hidden index is not one a hint may name.
    const e = await failure(c.find({ a: 1 }).hint('a_1').toArray());
    expect([e.code, e.message]).toEqual([
      2,
      'hint provided does not correspond to an existing index',
    ]);
  });

  test('when find asks for a tailable cursor, min/max, returnKey or showRecordId, then BadValue', async () => {
    const c = coll();
    await c.insertOne({ _id: 1 });
    await expectError(
      c.find({}, { tailable: true }).toArray(),
      2,
      'error processing query: tailable cursor requested on non capped collection',
    );
    for (const [options, message] of [
      [{ min: { _id: 0 }, hint: { _id: 1 } }, 'min (index bounds) is not supported'],
      [{ max: { _id: 5 }, hint: { _id: 1 } }, 'max (index bounds) is not supported'],
      [{ returnKey: true }, 'returnKey is not supported'],
      [{ showRecordId: true }, 'showRecordId is not supported'],
    ] as Array<[Document, string]>) {
      const e = await failure(c.find({}, options).toArray());
      expect(e.code).toBe(2);
      expect(e.message).toContain(message);
    }
  });
});

describe('command options that were accepted and ignored', () => {
  test('when a delete statement has a limit other than 0 or 1, then FailedToParse (9) and nothing is deleted', async () => {
    const c = coll();
    await c.insertMany([{ _id: 1 }, { _id: 2 }]);
    await expectError(
      db.command({ delete: 'c', deletes: [{ q: {}, limit: 5 }] }).then((r) => {
        if (r.writeErrors) throw new MongoServerError(r.writeErrors[0]);
      }),
      9,
      'The limit field in delete objects must be 0 or 1. Got 5',
    );
    expect(await c.countDocuments()).toBe(2);
  });

  test('when listDatabases has a filter, then only the databases it matches are listed', async () => {
    await coll().insertOne({ _id: 1 });
    const other = client.db(`parity-other${seq}`);
    await other.collection<Loose>('x').insertOne({ _id: 1 });
    const r = await client
      .db('admin')
      .command({ listDatabases: 1, nameOnly: true, filter: { name: db.databaseName } });
    expect(r.databases).toEqual([{ name: db.databaseName }]);
  });

  test('when an update statement has constants c, then a pipeline update reads them and another refuses them', async () => {
    const c = coll();
    await c.insertOne({ _id: 1 });
    const r = await db.command({
      update: 'c',
      updates: [{ q: { _id: 1 }, u: [{ $set: { v: '$$x' } }], c: { x: 42 } }],
    });
    expect(r.nModified).toBe(1);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, v: 42 });
    const refused = await db.command({
      update: 'c',
      updates: [{ q: { _id: 1 }, u: { $set: { v: 1 } }, c: { x: 42 } }],
    });
    expect(refused.writeErrors?.[0]).toMatchObject({
      code: 51198,
      errmsg: 'Constant values may only be specified for pipeline updates',
    });
  });

  test('when a pipeline update has arrayFilters, then FailedToParse (9)', async () => {
    const c = coll();
    await c.insertOne({ _id: 1, a: [1] });
    await expectError(
      c.updateOne({ _id: 1 }, [{ $set: { b: 1 } }], { arrayFilters: [{ x: 1 }] }),
      9,
      'arrayFilters may not be specified for pipeline-style updates',
    );
  });
});

describe('$pull', () => {
  test('when mongoose pulls a subdocument without _id ($pull with $or), then the matching ones go (gh-3341)', async () => {
    const c = coll();
    const { insertedId } = await c.insertOne({
      name: "Guns N' Roses",
      members: [
        { name: 'Axl', role: 'Lead Singer' },
        { name: 'Slash', role: 'Guitar' },
        { name: 'Izzy', role: 'Guitar' },
      ],
      __v: 0,
    });
    const r = await c.updateOne({ _id: insertedId }, {
      $pull: { members: { $or: [{ name: 'Slash', role: 'Guitar' }] } },
      $inc: { __v: 1 },
    } as never);
    expect(r.modifiedCount).toBe(1);
    expect((await c.findOne({ _id: insertedId }))?.members).toEqual([
      { name: 'Axl', role: 'Lead Singer' },
      { name: 'Izzy', role: 'Guitar' },
    ]);
  });

  test('when $pull has a condition on values, a document or a value, then each is matched as mongod does', async () => {
    const c = coll();
    await c.insertOne({ _id: 1, n: [1, 5, 9], d: [{ b: 1, c: 1 }, { b: 2 }, 3], v: [[1, 2], [3]] });
    await c.updateOne({ _id: 1 }, { $pull: { n: { $gte: 5 }, d: { b: 1 }, v: [1, 2] } } as never);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, n: [1], d: [{ b: 2 }, 3], v: [[3]] });
  });
});

describe('several updates of one array in one command', () => {
  test('when two subfields use the same array filter, then both are set (no conflict)', async () => {
    const c = coll();
    await c.insertOne({ _id: 1, ch: [{ a: 1 }, { a: 2 }] });
    const r = await c.updateOne(
      {},
      { $set: { 'ch.$[x].b': 1, 'ch.$[x].c': 2 } },
      { arrayFilters: [{ 'x.a': 2 }] },
    );
    expect(r.modifiedCount).toBe(1);
    expect((await c.findOne({ _id: 1 }))?.ch).toEqual([{ a: 1 }, { a: 2, b: 1, c: 2 }]);
  });

  test('when two updates name the same path or a path and its prefix, then ConflictingUpdateOperators (40)', async () => {
    const c = coll();
    await c.insertOne({ _id: 1, n: 1, a: [0] });
    await expectError(
      c.updateOne({ _id: 1 }, { $set: { n: 2 }, $inc: { n: 1 } }),
      40,
      "Updating the path 'n' would create a conflict at 'n'",
    );
    await expectError(
      c.updateOne({ _id: 1 }, { $set: { x: 1, 'x.y': 2 } }),
      40,
      "Updating the path 'x.y' would create a conflict at 'x'",
    );
    await expectError(
      c.updateOne(
        { _id: 1 },
        { $set: { 'a.$[i]': 2, 'a.$[j]': 3 } },
        { arrayFilters: [{ i: 0 }, { j: 0 }] },
      ),
      40,
      "Update created a conflict at 'a.0'",
    );
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, n: 1, a: [0] });
  });

  test('when $set creates a top-level $-prefixed field, then an update refuses it (52) and an upsert inserts it (gh-15642)', async () => {
    const c = coll();
    await c.insertOne({ _id: 1 });
    await expectError(
      c.updateOne({ _id: 1 }, { $set: { $each: { count: 42 } } }),
      52,
      "The dollar ($) prefixed field '$each' in '$each' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.",
    );
    await c.updateOne(
      { _id: 2 },
      { $setOnInsert: { __v: 0 }, $set: { $each: { count: 42 } } },
      { upsert: true },
    );
    expect(await c.findOne({ _id: 2 })).toEqual({ _id: 2, $each: { count: 42 }, __v: 0 });
  });

  test('when an update creates several fields, then they are added in the order of their names', async () => {
    const c = coll();
    await c.updateOne({ _id: 1 }, { $set: { z: 1, b: 1, a: 1 } }, { upsert: true });
    await c.updateOne({ _id: 1 }, { $set: { y: 1, c: { q: 1, p: 2 } }, $inc: { d: 1 } });
    expect(Object.keys((await c.findOne({ _id: 1 })) ?? {})).toEqual([
      '_id',
      'a',
      'b',
      'z',
      'c',
      'd',
      'y',
    ]);
  });
});
