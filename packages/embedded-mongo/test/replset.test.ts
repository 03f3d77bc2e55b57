/**
 * The server as a one-member replica set, through the unmodified driver and mongoose: hello,
 * cluster times, retryable writes, transactions (snapshot, isolation, conflicts, all or
 * nothing), change streams and TTL indexes.
 */
import { MongoClient, Timestamp, type ChangeStreamDocument, type Document } from 'mongodb';
import mongoose, { Schema } from 'mongoose';
import { start, type RunningServer } from '../src';

let server: RunningServer;
let client: MongoClient;

beforeAll(async () => {
  server = await start({ port: 0, ttlMonitorIntervalMs: 200, enableTestCommands: true });
  client = await MongoClient.connect(`${server.uri}/?replicaSet=rs0`);
});

afterAll(async () => {
  await client.close();
  await server.stop();
});

type Acc = { _id: number; v: number };
type Item = { _id: number; [field: string]: unknown };
const keyOf = (e: ChangeStreamDocument<Document>) => (e as { documentKey?: unknown }).documentKey;

async function accounts(name: string, n = 2): Promise<ReturnType<typeof client.db>> {
  const db = client.db('replset_' + name);
  await db.dropDatabase();
  await db
    .collection<Acc>('acc')
    .insertMany(Array.from({ length: n }, (_, i) => ({ _id: i + 1, v: 100 })));
  return db;
}

describe('replica-set identity', () => {
  test('when a client asks hello, then the server answers as the primary of rs0', async () => {
    const hello = await client.db('admin').command({ hello: 1 });
    const me = `${server.host}:${server.port}`;
    expect(hello).toMatchObject({
      setName: 'rs0',
      hosts: [me],
      primary: me,
      me,
      isWritablePrimary: true,
      secondary: false,
      setVersion: 1,
      logicalSessionTimeoutMinutes: 30,
    });
    expect(hello.topologyVersion.processId).toBeDefined();
    expect(hello.lastWrite.opTime.ts).toBeInstanceOf(Timestamp);
    expect(hello.$clusterTime.clusterTime).toBeInstanceOf(Timestamp);
    expect(hello.operationTime).toBeInstanceOf(Timestamp);
  });

  test('when connecting with directConnection=true, then the same server is reachable', async () => {
    const direct = await MongoClient.connect(`${server.uri}/?directConnection=true`);
    try {
      expect((await direct.db('admin').command({ ping: 1 })).ok).toBe(1);
    } finally {
      await direct.close();
    }
  });

  test('when a write is acknowledged, then its operationTime is later than the one before', async () => {
    const db = client.db('replset_times');
    const a = await db.command({ insert: 'c', documents: [{ x: 1 }] });
    const b = await db.command({ insert: 'c', documents: [{ x: 2 }] });
    expect(b.operationTime.greaterThan(a.operationTime)).toBe(true);
  });
});

describe('retryable writes', () => {
  test('when the same statement is sent twice with one txnNumber, then it is applied once', async () => {
    await accounts('retry');
    // A client of its own: the statements below number the transactions of the driver's
    // implicit session by hand, which its later operations would then reuse.
    const own = await MongoClient.connect(`${server.uri}/?replicaSet=rs0`);
    try {
      const db = own.db('replset_retry');
      const cmd = { update: 'acc', updates: [{ q: { _id: 1 }, u: { $inc: { v: 5 } } }] };
      const session = own.startSession();
      const first = await db.command({ ...cmd, txnNumber: 7 }, { session });
      const second = await db.command({ ...cmd, txnNumber: 7 }, { session });
      expect(second.nModified).toBe(first.nModified);
      expect((await db.collection<Acc>('acc').findOne({ _id: 1 }))?.v).toBe(105);
      await db.command({ ...cmd, txnNumber: 8 }, { session });
      expect((await db.collection<Acc>('acc').findOne({ _id: 1 }))?.v).toBe(110);
      await expect(db.command({ ...cmd, txnNumber: 6 }, { session })).rejects.toMatchObject({
        code: 225,
      });
    } finally {
      await own.close();
    }
  });

  test('when the connection drops before the reply, then the driver retries and the write lands once', async () => {
    const db = await accounts('retry_drop');
    await client.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: { times: 1 },
      data: { failCommands: ['insert'], closeConnection: true },
    });
    await db.collection<Acc>('acc').insertOne({ _id: 9, v: 1 });
    expect(await db.collection<Acc>('acc').countDocuments({ _id: 9 })).toBe(1);
  });
});

describe('transactions', () => {
  test('when a transaction writes, then only it sees its writes until commit, and then everyone does', async () => {
    const db = await accounts('isolation');
    const acc = db.collection<Acc>('acc');
    const session = client.startSession();
    try {
      session.startTransaction();
      await acc.updateOne({ _id: 1 }, { $inc: { v: -30 } }, { session });
      await acc.insertOne({ _id: 3, v: 30 }, { session });
      expect((await acc.findOne({ _id: 1 }, { session }))?.v).toBe(70);
      expect(await acc.countDocuments({}, { session })).toBe(3);
      expect((await acc.findOne({ _id: 1 }))?.v).toBe(100);
      expect(await acc.countDocuments({})).toBe(2);
      await session.commitTransaction();
      expect(await acc.find().sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, v: 70 },
        { _id: 2, v: 100 },
        { _id: 3, v: 30 },
      ]);
    } finally {
      await session.endSession();
    }
  });

  test('when a transaction aborts, then none of its writes remain', async () => {
    const db = await accounts('abort');
    const acc = db.collection<Acc>('acc');
    const session = client.startSession();
    try {
      session.startTransaction();
      await acc.updateOne({ _id: 1 }, { $set: { v: 0 } }, { session });
      await acc.deleteOne({ _id: 2 }, { session });
      await session.abortTransaction();
      expect(await acc.find().sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, v: 100 },
        { _id: 2, v: 100 },
      ]);
    } finally {
      await session.endSession();
    }
  });

  test('when others commit after the snapshot, then the transaction still reads its snapshot', async () => {
    const db = await accounts('snapshot');
    const acc = db.collection<Acc>('acc');
    const session = client.startSession();
    try {
      session.startTransaction();
      expect((await acc.findOne({ _id: 2 }, { session }))?.v).toBe(100);
      await acc.updateOne({ _id: 2 }, { $set: { v: 1 } });
      await acc.insertOne({ _id: 5, v: 5 });
      await acc.deleteOne({ _id: 1 });
      expect(await acc.find({}, { session }).sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, v: 100 },
        { _id: 2, v: 100 },
      ]);
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
  });

  test('when statements name their documents by _id, then they still see the snapshot, and no unique key is broken', async () => {
    const db = await accounts('snapshot_ids', 3);
    const acc = db.collection<Acc & { e?: string }>('acc');
    await acc.createIndex({ e: 1 }, { unique: true, sparse: true });
    await acc.updateOne({ _id: 3 }, { $set: { e: 'held' } });
    const session = client.startSession();
    try {
      session.startTransaction();
      expect((await acc.findOne({ _id: 2 }, { session }))?.v).toBe(100);
      // Others commit after the snapshot: each of these is in the transaction's snapshot.
      await acc.updateOne({ _id: 1 }, { $set: { v: 1 } });
      await acc.deleteOne({ _id: 2 });
      await acc.insertOne({ _id: 5, v: 5, e: 'taken' });
      for (let i = 10; i < 40; i++) await acc.insertOne({ _id: i, v: i });
      expect((await acc.findOne({ _id: 1 }, { session }))?.v).toBe(100);
      expect(await acc.find({ _id: { $in: [2, 5, 11] } }, { session }).toArray()).toEqual([
        { _id: 2, v: 100 },
      ]);
      expect(await acc.countDocuments({ _id: { $eq: 5 } }, { session })).toBe(0);
      const upd = await acc.updateOne({ _id: 5 }, { $set: { v: 6 } }, { session });
      expect(upd.matchedCount).toBe(0);
      // A unique key held by a document the transaction must not see, and one it sees.
      const taken = async () => {
        await acc.insertOne({ _id: 6, v: 6, e: 'taken' }, { session });
        await session.commitTransaction();
      };
      await expect(taken()).rejects.toBeDefined();
    } finally {
      await session.endSession();
    }
    expect(await acc.countDocuments({ e: 'taken' })).toBe(1);
    expect(await acc.findOne({ _id: 6 })).toBeNull();
    const again = client.startSession();
    try {
      again.startTransaction();
      await expect(
        acc.insertOne({ _id: 7, v: 7, e: 'held' }, { session: again }),
      ).rejects.toMatchObject({
        code: 11000,
      });
      await again.abortTransaction().catch(() => undefined);
    } finally {
      await again.endSession();
    }
  });

  test('when two transactions write one document, then the second gets WriteConflict (112) labelled transient', async () => {
    const db = await accounts('conflict');
    const acc = db.collection<Acc>('acc');
    const s1 = client.startSession();
    const s2 = client.startSession();
    try {
      s1.startTransaction();
      s2.startTransaction();
      await acc.updateOne({ _id: 1 }, { $inc: { v: 1 } }, { session: s1 });
      const err = await acc.updateOne({ _id: 1 }, { $inc: { v: 1 } }, { session: s2 }).then(
        () => undefined,
        (e: unknown) => e as { code?: number; errorLabels?: string[] },
      );
      expect(err?.code).toBe(112);
      expect(err?.errorLabels).toContain('TransientTransactionError');
      await s2.abortTransaction().catch(() => undefined);
      await s1.commitTransaction();
      expect((await acc.findOne({ _id: 1 }))?.v).toBe(101);
    } finally {
      await s1.endSession();
      await s2.endSession();
    }
  });

  test('when a write outside transactions changes a document a transaction wrote, then the commit fails and withTransaction retries', async () => {
    const db = await accounts('retry_txn');
    const acc = db.collection<Acc>('acc');
    const session = client.startSession();
    let attempts = 0;
    try {
      await session.withTransaction(async () => {
        attempts++;
        await acc.updateOne({ _id: 1 }, { $inc: { v: -10 } }, { session });
        await acc.updateOne({ _id: 2 }, { $inc: { v: 10 } }, { session });
        if (attempts === 1) await acc.updateOne({ _id: 1 }, { $inc: { v: 1000 } });
      });
      expect(attempts).toBe(2);
      expect(await acc.find().sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, v: 1090 },
        { _id: 2, v: 110 },
      ]);
    } finally {
      await session.endSession();
    }
  });

  test('when many transfers run concurrently through withTransaction, then the total is unchanged', async () => {
    const db = await accounts('transfers', 4);
    const acc = db.collection<Acc>('acc');
    await Promise.all(
      Array.from({ length: 6 }, async (_, worker) => {
        const session = client.startSession();
        try {
          for (let i = 0; i < 10; i++) {
            const from = ((worker + i) % 4) + 1;
            const to = ((worker + i + 1) % 4) + 1;
            await session.withTransaction(async () => {
              await acc.updateOne({ _id: from }, { $inc: { v: -1 } }, { session });
              await acc.updateOne({ _id: to }, { $inc: { v: 1 } }, { session });
            });
          }
        } finally {
          await session.endSession();
        }
      }),
    );
    const docs = await acc.find().toArray();
    expect(docs.reduce((s, d) => s + d.v, 0)).toBe(400);
  });

  test('when a statement fails with a duplicate key, then the transaction is aborted', async () => {
    const db = await accounts('dup');
    const acc = db.collection<Acc>('acc');
    const session = client.startSession();
    try {
      session.startTransaction();
      await acc.updateOne({ _id: 1 }, { $set: { v: 1 } }, { session });
      await expect(acc.insertOne({ _id: 2, v: 2 }, { session })).rejects.toMatchObject({
        code: 11000,
      });
      await expect(session.commitTransaction()).rejects.toMatchObject({ code: 251 });
      expect((await acc.findOne({ _id: 1 }))?.v).toBe(100);
    } finally {
      await session.endSession();
    }
  });

  test('when mongoose runs connection.transaction(), then the writes commit together', async () => {
    const conn = await mongoose
      .createConnection(`${server.uri}/replset_mongoose?replicaSet=rs0`)
      .asPromise();
    try {
      const Post = conn.model('Post', new Schema({ _id: Number, likes: Number }));
      const Like = conn.model('Like', new Schema({ postId: Number, userId: Number }));
      await Post.create({ _id: 1, likes: 0 });
      await conn.transaction(async (session) => {
        await Like.create([{ postId: 1, userId: 7 }], { session });
        await Post.updateOne({ _id: 1 }, { $inc: { likes: 1 } }, { session });
      });
      await expect(
        conn.transaction(async (session) => {
          await Like.create([{ postId: 1, userId: 8 }], { session });
          await Post.updateOne({ _id: 1 }, { $inc: { likes: 1 } }, { session });
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect((await Post.findById(1).lean())?.likes).toBe(1);
      expect(await Like.countDocuments()).toBe(1);
    } finally {
      await conn.close();
    }
  });
});

function next(stream: { next(): Promise<ChangeStreamDocument<Document>> }) {
  return stream.next();
}

describe('change streams', () => {
  test('when documents change, then a collection stream reports insert, update, replace, delete, drop and invalidate', async () => {
    const db = client.db('replset_streams');
    await db.dropDatabase();
    const coll = db.collection<Item>('c');
    await coll.insertOne({ _id: 0 });
    const stream = coll.watch([], { fullDocument: 'updateLookup' });
    await stream.tryNext(); // opens the stream
    await coll.insertOne({ _id: 1, a: 1, b: { c: 1 } });
    await coll.updateOne({ _id: 1 }, { $set: { 'b.c': 2 }, $unset: { a: '' } });
    // updateLookup reads the document when the event is read: read these two before it changes.
    const events = [await next(stream), await next(stream)];
    await coll.replaceOne({ _id: 1 }, { z: 1 });
    await coll.deleteOne({ _id: 1 });
    await coll.drop();
    for (let i = 0; i < 4; i++) events.push(await next(stream));
    expect(events.map((e) => e.operationType)).toEqual([
      'insert',
      'update',
      'replace',
      'delete',
      'drop',
      'invalidate',
    ]);
    expect(events[1]).toMatchObject({
      updateDescription: { updatedFields: { 'b.c': 2 }, removedFields: ['a'] },
      fullDocument: { _id: 1, b: { c: 2 } },
      documentKey: { _id: 1 },
      ns: { db: 'replset_streams', coll: 'c' },
    });
    await stream.close();
  });

  test('when a stream resumes after a token or from an operation time, then it continues from there', async () => {
    const db = client.db('replset_resume');
    await db.dropDatabase();
    const coll = db.collection<Item>('c');
    const stream = coll.watch();
    await stream.tryNext();
    const r = await db.command({ insert: 'c', documents: [{ _id: 1 }] });
    await coll.insertOne({ _id: 2 });
    const first = await next(stream);
    await stream.close();
    const resumed = coll.watch([], { resumeAfter: first._id });
    expect(keyOf(await next(resumed))).toEqual({ _id: 2 });
    await resumed.close();
    const fromTime = coll.watch([], { startAtOperationTime: r.operationTime });
    expect(keyOf(await next(fromTime))).toEqual({ _id: 1 });
    await fromTime.close();
  });

  test('when a transaction commits, then its events appear only after the commit, with its lsid and txnNumber', async () => {
    const db = client.db('replset_txn_events');
    await db.dropDatabase();
    const coll = db.collection<Item>('c');
    await coll.insertOne({ _id: 0 });
    const stream = db.watch([{ $match: { operationType: 'insert' } }]);
    await stream.tryNext();
    const session = client.startSession();
    try {
      session.startTransaction();
      await coll.insertOne({ _id: 1 }, { session });
      await coll.insertOne({ _id: 2 }, { session });
      expect(await stream.tryNext()).toBeNull();
      await session.commitTransaction();
      const a = await next(stream);
      const b = await next(stream);
      expect([a, b].map((e) => (keyOf(e) as { _id: number })._id)).toEqual([1, 2]);
      expect(a).toHaveProperty('txnNumber');
      expect(a).toHaveProperty('lsid');
    } finally {
      await session.endSession();
      await stream.close();
    }
  });

  test('when a tailing getMore finds nothing, then it waits for the next event instead of answering at once', async () => {
    const db = client.db('replset_tail');
    await db.dropDatabase();
    const coll = db.collection<Item>('c');
    // The stream's own client, to see every getMore it sends and what each one brought back.
    const watcher = await MongoClient.connect(`${server.uri}/?replicaSet=rs0`, {
      monitorCommands: true,
    });
    const stream = watcher.db('replset_tail').collection<Item>('c').watch([], {
      maxAwaitTimeMS: 8000,
    });
    try {
      await stream.tryNext();
      const batches: number[] = [];
      watcher.on('commandSucceeded', (e) => {
        if (e.commandName === 'getMore') {
          batches.push((e.reply as { cursor: { nextBatch: unknown[] } }).cursor.nextBatch.length);
        }
      });
      const started = Date.now();
      setTimeout(() => void coll.insertOne({ _id: 1 }), 300);
      const event = await next(stream);
      expect(event.operationType).toBe('insert');
      expect(Date.now() - started).toBeGreaterThanOrEqual(250); // it did wait for the insert
      // One getMore waited and brought the event: no empty answers (polling), and not a wait to
      // the end of maxAwaitTimeMS (that would have answered empty first).
      expect(batches).toEqual([1]);
    } finally {
      await stream.close();
      await watcher.close();
    }
  });
});

describe('TTL indexes', () => {
  test('when documents expire, then the monitor deletes them and change streams see the deletes', async () => {
    const db = client.db('replset_ttl');
    await db.dropDatabase();
    const coll = db.collection<Item>('sessions');
    await coll.createIndex({ createdAt: 1 }, { expireAfterSeconds: 1 });
    await db.collection<Item>('resets').createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    const stream = coll.watch();
    const resetsStream = db.collection<Item>('resets').watch();
    await stream.tryNext();
    await resetsStream.tryNext();
    const old = new Date(Date.now() - 10_000);
    await coll.insertMany([
      { _id: 1, createdAt: old },
      { _id: 2, createdAt: new Date(Date.now() + 60_000) },
      { _id: 3, createdAt: 'not a date' },
    ]);
    await db.collection<Item>('resets').insertMany([
      { _id: 1, expiresAt: new Date(Date.now() - 1) },
      { _id: 2, expiresAt: new Date(Date.now() + 60_000) },
    ]);
    // The monitor passes every 200 ms; each collection's stream sees its delete, maybe from two
    // passes (one may run between the two inserts).
    const events = [await next(stream), await next(stream), await next(stream), await next(stream)];
    expect(events.map((e) => e.operationType)).toEqual(['insert', 'insert', 'insert', 'delete']);
    expect(keyOf(events[3]!)).toEqual({ _id: 1 });
    const resets = [await next(resetsStream), await next(resetsStream), await next(resetsStream)];
    expect(resets.map((e) => e.operationType)).toEqual(['insert', 'insert', 'delete']);
    expect(keyOf(resets[2]!)).toEqual({ _id: 1 });
    const remaining = (await coll.find().sort({ _id: 1 }).toArray()).map((d) => d._id);
    expect(remaining).toEqual([2, 3]);
    const kept = (await db.collection<Item>('resets').find().toArray()).map((d) => d._id);
    expect(kept).toEqual([2]);
    await resetsStream.close();
    await stream.close();
  });
});
