/**
 * Compaction writes a snapshot section (documents in bulk `docs` records, each index's key order
 * in `indexOrder` records); a start stores those documents undecoded and builds each index on
 * first use (or in the background) from that order, merging in the documents the journal's tail
 * changed after the snapshot. Whatever is read afterwards is what was there before the stop.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deserialize, Long, ObjectId } from 'bson';
import { MongoClient, type Document } from 'mongodb';
import { start } from '../src';
import type { RunningServer } from '../src/server';
import { Index } from '../src/collection';
import { DocStore } from '../src/doc-store';

let dir: string;
let journal: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-snapshot-'));
  journal = path.join(dir, 'journal.bson');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function recordKinds(): string[] {
  const buf = fs.readFileSync(journal);
  const out: string[] = [];
  for (let off = 0; off < buf.length;) {
    const len = buf.readUInt32LE(off);
    out.push((deserialize(buf.subarray(off + 8, off + 8 + len)) as { o: string }).o);
    off += 8 + len;
  }
  return out;
}

const INDEXES: Array<[Document, Document]> = [
  [{ group: 1, at: -1 }, { name: 'group_at' }],
  [{ email: 1 }, { name: 'email', unique: true }],
  [{ tags: 1 }, { name: 'tags' }], // multikey
  [{ 'meta.rank': 1 }, { name: 'rank', sparse: true }],
  [{ at: 1 }, { name: 'recent', partialFilterExpression: { group: { $gte: 2 } } }],
];

/** Reads through every index (hinted), plus a full scan. */
async function readEverything(client: MongoClient): Promise<unknown> {
  const c = client.db('s').collection('items');
  const out: Record<string, unknown> = { all: await c.find().sort({ _id: 1 }).toArray() };
  out.group = await c.find({ group: 2 }).sort({ at: -1 }).hint('group_at').toArray();
  out.email = await c
    .find({ email: { $gte: 'u1' } })
    .hint('email')
    .toArray();
  out.tags = await c.find({ tags: 'b' }).hint('tags').toArray();
  out.rank = await c
    .find({ 'meta.rank': { $gt: 3 } })
    .hint('rank')
    .toArray();
  out.recent = await c
    .find({ group: { $gte: 2 } })
    .sort({ at: 1 })
    .hint('recent')
    .toArray();
  out.byId = await c.find().sort({ _id: -1 }).hint('_id_').toArray();
  out.count = await c.countDocuments({ group: 1 });
  return out;
}

async function connect(server: RunningServer): Promise<MongoClient> {
  return MongoClient.connect(`${server.uri}/?directConnection=true`);
}

test('after a snapshot and later writes, a restart reads every document and index as they were, building indexes from the snapshot order', async () => {
  const server = await start({ dbPath: dir, fsync: 'never' });
  let client = await connect(server);
  const c = client.db('s').collection<Document & { _id?: unknown }>('items');
  for (const [key, options] of INDEXES) await c.createIndex(key, options);
  const ids: unknown[] = [];
  for (let i = 0; i < 300; i++) {
    // ObjectId, int, string and other _ids (a Date and a document are decoded at start).
    const _id =
      i % 5 === 0
        ? new ObjectId()
        : i % 5 === 1
          ? i
          : i % 5 === 2
            ? `s${i}`
            : i % 5 === 3
              ? new Date(i)
              : { k: i };
    ids.push(_id);
    const doc: Document = {
      _id,
      group: i % 4,
      at: new Date(1e12 + ((i * 7919) % 300) * 1000),
      email: `u${i}`,
    };
    if (i % 3 === 0) doc.tags = ['a', i % 2 ? 'b' : 'c'];
    if (i % 4 === 0) doc.meta = { rank: i % 7 };
    await c.insertOne(doc);
  }
  server.engine.compact();
  // The tail: inserts, updates of indexed fields, deletes.
  await c.insertMany([
    { _id: 1000, group: 2, at: new Date(5), email: 'new1', tags: ['b'] },
    { _id: 'n2', group: 1, at: new Date(6), email: 'new2', meta: { rank: 9 } },
  ] as never[]);
  await c.updateMany({ group: 3 }, { $set: { group: 2 }, $inc: { n: 1 } });
  await c.updateOne({ _id: ids[10] as never }, { $set: { email: 'changed', tags: ['b', 'b'] } });
  await c.deleteMany({ _id: { $in: [ids[0], ids[1], ids[2], ids[7]] as never[] } });
  const expected = await readEverything(client);
  await client.close();
  await server.stop();

  const kinds = recordKinds();
  expect(kinds).toContain('docs');
  expect(kinds.filter((k) => k === 'indexOrder').length).toBe(INDEXES.length); // not the multikey one, with _id_
  expect(
    kinds.filter((k) => k === 'insert' || k === 'update' || k === 'remove').length,
  ).toBeGreaterThan(0);

  // Without the background warm-up: documents stay undecoded and indexes unbuilt until used.
  const lazy = await start({ dbPath: dir, fsync: 'never', warmUp: false });
  try {
    const coll = lazy.engine.collection('s', 'items')!;
    expect(coll.docs.undecoded).toBeGreaterThan(100);
    expect(coll.indexes.every((ix) => !ix.built)).toBe(true);
    client = await connect(lazy);
    expect(await readEverything(client)).toEqual(expected);
    // The reads built the indexes they used: each read is hinted, and hints are honoured (the
    // sparse and partial ones too, as mongod reads them). Each holds exactly the keys a build
    // from scratch (computed and sorted) makes.
    expect(coll.index('group_at')!.built).toBe(true);
    expect(coll.index('rank')!.built).toBe(true);
    coll.buildIndexes();
    // The documents the tail changed or inserted are kept apart from the snapshot's.
    expect([...coll.docs.changedSinceSnapshot()].length).toBeGreaterThan(0);
    expect(coll.indexes.map((ix) => [ix.name, ix.builtFrom])).toEqual([
      ['_id_', 'snapshot base'],
      ['group_at', 'snapshot base'],
      ['email', 'snapshot base'],
      ['tags', 'sort'], // multikey: no order in the snapshot
      ['rank', 'snapshot base'],
      ['recent', 'snapshot base'],
    ]);
    for (const ix of coll.indexes) {
      const fresh = new Index(ix.spec, coll.ns);
      fresh.build(coll.docs);
      expect([...ix.keys()]).toEqual([...fresh.keys()]);
    }
    // The unique index holds, for documents from the snapshot and from the tail.
    const items = client.db('s').collection('items');
    await expect(items.insertOne({ email: 'u5' })).rejects.toMatchObject({ code: 11000 });
    await expect(items.insertOne({ email: 'new1' })).rejects.toMatchObject({ code: 11000 });
    await items.insertOne({ _id: 'after' as never, email: 'u0', group: 9 }); // u0 was deleted
    await client.close();
  } finally {
    await lazy.stop();
  }

  // With the warm-up: every index made ready in the background (the multikey one built from
  // decoded documents, then let go: they stay bytes of the journal image until read), then the
  // same reads.
  let warmed!: () => void;
  const warm = new Promise<void>((resolve) => (warmed = resolve));
  const eager = await start({ dbPath: dir, fsync: 'never', onWarm: () => warmed() });
  try {
    await warm;
    const coll = eager.engine.collection('s', 'items')!;
    expect(coll.indexes.every((ix) => ix.built)).toBe(true);
    expect(coll.docs.decodedCount).toBe(0);
    expect(coll.docs.undecoded).toBeGreaterThan(100);
    client = await connect(eager);
    await client
      .db('s')
      .collection('items')
      .deleteOne({ _id: 'after' as never });
    expect(await readEverything(client)).toEqual(expected);
    await client.close();
  } finally {
    await eager.stop();
  }
});

test('snapshot documents decoded for reads are kept in a bounded cache; reads and writes of documents let go stay right', async () => {
  const server = await start({ dbPath: dir, fsync: 'never' });
  let client = await connect(server);
  let c = client.db('s').collection<Document & { _id: number }>('items');
  await c.createIndex({ group: 1, n: -1 });
  await c.insertMany(
    Array.from({ length: 200 }, (_, i) => ({ _id: i, group: i % 4, n: i, tags: [i % 3] })),
  );
  server.engine.compact();
  await client.close();
  await server.stop();

  const limit = DocStore.cacheLimit;
  DocStore.cacheLimit = 10;
  let warmed!: () => void;
  const warm = new Promise<void>((resolve) => (warmed = resolve));
  const again = await start({ dbPath: dir, fsync: 'never', onWarm: () => warmed() });
  try {
    await warm;
    const coll = again.engine.collection('s', 'items')!;
    expect(coll.docs.decodedCount).toBe(0);
    client = await connect(again);
    c = client.db('s').collection<Document & { _id: number }>('items');
    // Reads of single documents fill the cache, never past two generations of 10.
    for (let i = 0; i < 200; i += 3) expect((await c.findOne({ _id: i }))?.n).toBe(i);
    expect(coll.docs.decodedCount).toBeLessThanOrEqual(20);
    expect(coll.docs.decodedCount).toBeGreaterThan(0);
    // A whole scan decodes every document without keeping the ones it decoded.
    expect((await c.find().toArray()).length).toBe(200);
    expect(coll.docs.decodedCount).toBeLessThanOrEqual(20);
    // Updates of documents decoded long ago (let go) and of cached ones, then a delete: the
    // indexes and later reads see the new versions, and so does a restart.
    await c.updateOne({ _id: 0 }, { $inc: { n: 1000 } });
    await c.updateOne({ _id: 198 }, { $set: { group: 9 } });
    await c.deleteOne({ _id: 3 });
    expect(await c.findOne({ _id: 0 })).toEqual({ _id: 0, group: 0, n: 1000, tags: [0] });
    expect(await c.find({ group: 9 }).toArray()).toEqual([
      { _id: 198, group: 9, n: 198, tags: [0] },
    ]);
    expect(await c.find({ group: 0 }).sort({ n: -1 }).limit(2).toArray()).toEqual([
      { _id: 0, group: 0, n: 1000, tags: [0] },
      { _id: 196, group: 0, n: 196, tags: [1] },
    ]);
    expect(await c.findOne({ _id: 3 })).toBeNull();
    expect(await c.countDocuments({ tags: 0 })).toBe(66);
    await client.close();
  } finally {
    await again.stop();
    DocStore.cacheLimit = limit;
  }
  const last = await start({ dbPath: dir, fsync: 'never' });
  try {
    client = await connect(last);
    c = client.db('s').collection<Document & { _id: number }>('items');
    expect(await c.findOne({ _id: 0 })).toEqual({ _id: 0, group: 0, n: 1000, tags: [0] });
    expect(await c.countDocuments()).toBe(199);
    await client.close();
  } finally {
    await last.stop();
  }
});

test('writes after a restart (to documents of the snapshot and new ones) read the same as on a server that never restarted, through every index and after another compaction', async () => {
  // Two data directories get the same writes: `dir` is stopped and restarted after its
  // snapshot (its indexes then read the snapshot's keys), `memory` never restarts.
  const memory = await start({ fsync: 'never' });
  const server = await start({ dbPath: dir, fsync: 'never' });
  const clients = [await connect(memory), await connect(server)];
  const coll = (client: MongoClient) =>
    client.db('s').collection<Document & { _id?: unknown }>('items');
  const both = async (f: (c: ReturnType<typeof coll>, client: MongoClient) => Promise<unknown>) => {
    const results = [];
    for (const client of clients) results.push(await f(coll(client), client));
    return results;
  };
  await both(async (c) => {
    for (const [key, options] of INDEXES) await c.createIndex(key, options);
    await c.createIndex({ score: -1, group: 1 }, { name: 'score' });
    const docs: Document[] = [];
    for (let i = 0; i < 400; i++)
      docs.push({
        _id: i % 2 ? new ObjectId(i.toString(16).padStart(24, '0')) : i,
        group: i % 5,
        at: new Date(1e12 + ((i * 7919) % 400) * 1000),
        email: `u${i}`,
        score: i % 3 === 0 ? Long.fromNumber(2 ** 60 + i * 4096) : i % 3 === 1 ? i / 7 : i,
        ...(i % 4 === 0 ? { meta: { rank: i % 9 } } : {}),
        ...(i % 6 === 0 ? { tags: ['x', `t${i % 4}`] } : {}),
      });
    await c.insertMany(docs);
  });
  server.engine.compact();
  await clients[1]!.close();
  await server.stop();

  const again = await start({ dbPath: dir, fsync: 'never' });
  try {
    clients[1] = await connect(again);
    // Updates of indexed fields of snapshot documents, deletes, inserts, a reinsert of a
    // deleted _id, and documents changed twice.
    await both(async (c) => {
      await c.updateMany({ group: 1 }, { $set: { group: 7 }, $inc: { score: 1 } });
      await c.updateOne({ _id: 8 as never }, { $set: { at: new Date(1), email: 'moved' } });
      await c.updateOne({ _id: 8 as never }, { $set: { at: new Date(2) } });
      await c.deleteMany({ group: 2, score: { $lt: 100 } });
      await c.deleteOne({ _id: 10 as never });
      await c.insertOne({ _id: 10 as never, group: 3, at: new Date(3), email: 'back', score: -1 });
      await c.insertMany([
        { _id: 'new' as never, group: 0, at: new Date(4), email: 'n1', score: 5 },
        { _id: 1000 as never, group: 7, at: new Date(5), email: 'n2', tags: ['x'] },
      ]);
    });
    // A unique key held by a document of the snapshot, by one changed since, by a new one;
    // and one freed by a delete and by an update.
    for (const email of ['u5', 'moved', 'n1']) {
      const [a, b] = await both((c) =>
        c.insertOne({ email }).then(
          () => 'ok',
          (e: { code?: number }) => e.code,
        ),
      );
      expect([email, b]).toEqual([email, 11000]);
      expect(b).toBe(a);
    }
    const freed = await both((c) =>
      c
        .insertMany([
          { _id: 'f1' as never, email: 'u10' },
          { _id: 'f2' as never, email: 'u8' },
        ])
        .then(() => 'ok'),
    );
    expect(freed).toEqual(['ok', 'ok']);
    const reads = (c: ReturnType<typeof coll>, client: MongoClient) =>
      Promise.all([
        readEverything(client),
        c
          .find({ score: { $gt: 10 } })
          .sort({ score: -1 })
          .hint('score')
          .toArray(),
        c
          .find({ group: { $in: [0, 7] } })
          .sort({ at: -1 })
          .limit(7)
          .toArray(),
        c
          .find({ email: { $gte: 'u2', $lt: 'u3' } })
          .sort({ email: -1 })
          .toArray(),
        c.countDocuments({ group: 7 }),
        c.countDocuments({ at: { $gte: new Date(1e12 + 100_000) } }),
      ]);
    const [expected, actual] = await both(reads);
    expect(actual).toEqual(expected);
    const coll2 = again.engine.collection('s', 'items')!;
    expect(coll2.index('group_at')!.builtFrom).toBe('snapshot base');
    for (const ix of coll2.indexes) {
      const fresh = new Index(ix.spec, coll2.ns);
      fresh.build(coll2.docs);
      expect([ix.name, ...ix.keys()]).toEqual([ix.name, ...fresh.keys()]);
    }
    // Compacted while its indexes read the previous snapshot: the next start reads the same.
    again.engine.compact();
    await clients[1]!.close();
  } finally {
    await again.stop();
  }
  const last = await start({ dbPath: dir, fsync: 'never' });
  try {
    clients[1] = await connect(last);
    const [expected, actual] = await both((c) => c.find().sort({ email: 1, _id: 1 }).toArray());
    expect(actual).toEqual(expected);
    const [a, b] = await both((c) =>
      c.find({ group: 7 }).sort({ at: 1 }).hint('group_at').toArray(),
    );
    expect(b).toEqual(a);
  } finally {
    for (const client of clients) await client.close();
    await last.stop();
    await memory.stop();
  }
});

test('a snapshot record damaged in the middle of the journal refuses the start, as any damage does', async () => {
  const server = await start({ dbPath: dir, fsync: 'never' });
  const client = await connect(server);
  const items = client.db('s').collection<{ _id: number; v?: string }>('items');
  await items.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: i, v: 'x'.repeat(100) })));
  server.engine.compact();
  await items.insertOne({ _id: 99 });
  await client.close();
  await server.stop();
  const buf = fs.readFileSync(journal);
  const at = buf.indexOf('xxxxxxxx');
  buf[at] = 0x79;
  fs.writeFileSync(journal, buf);
  await expect(start({ dbPath: dir })).rejects.toThrow(/damaged at byte offset \d+ .*checksum/);
});
