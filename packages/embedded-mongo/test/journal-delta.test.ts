/**
 * Updates journal the change, not the whole document: an `update` record holds the top-level
 * fields set (changed or new) and removed, and replays onto the version before it with the same
 * field order. Whole-document `replace` records (older journals, replacements, reordered fields)
 * still replay. A delta whose document is missing cannot be replayed: the server refuses to start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deserialize } from 'bson';
import { MongoClient } from 'mongodb';
import { start } from '../src';
import { frame, JournalCorruptError, type JournalOp } from '../src/journal';

let dir: string;
let journal: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-delta-'));
  journal = path.join(dir, 'journal.bson');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The journal's records, in order. */
function records(): JournalOp[] {
  const buf = fs.readFileSync(journal);
  const out: JournalOp[] = [];
  for (let off = 0; off < buf.length;) {
    const len = buf.readUInt32LE(off);
    out.push(deserialize(buf.subarray(off + 8, off + 8 + len)) as JournalOp);
    off += 8 + len;
  }
  return out;
}

async function withServer<T>(fn: (client: MongoClient) => Promise<T>): Promise<T> {
  const server = await start({ dbPath: dir, fsync: 'never' });
  const client = await MongoClient.connect(`${server.uri}/?directConnection=true`);
  try {
    return await fn(client);
  } finally {
    await client.close();
    await server.stop();
  }
}

const readAll = (client: MongoClient) =>
  client.db('d').collection('posts').find().sort({ _id: 1 }).toArray();

test('a $inc on a 5 KB document writes a record of a few dozen bytes, and replays', async () => {
  const content = 'x'.repeat(5000);
  const before = await withServer(async (client) => {
    const posts = client.db('d').collection<{ _id: number }>('posts');
    await posts.insertOne({ _id: 1, content, likesCount: 0, tags: ['a'] } as never);
    const size = fs.statSync(journal).size;
    await posts.updateOne({ _id: 1 }, { $inc: { likesCount: 1 } });
    const written = fs.statSync(journal).size - size;
    expect(written).toBeLessThan(100);
    expect(records().at(-1)).toEqual({
      o: 'update',
      db: 'd',
      coll: 'posts',
      id: 1,
      set: { likesCount: 1 },
    });
    return readAll(client);
  });
  const after = await withServer(readAll);
  expect(after).toEqual(before);
  expect(after[0]).toMatchObject({ likesCount: 1, content });
});

test('set, new, removed and renamed fields, nested changes and replacements replay in order', async () => {
  const before = await withServer(async (client) => {
    const posts = client.db('d').collection<{ _id: number }>('posts');
    await posts.insertMany([
      { _id: 1, a: 1, b: { c: 1, d: [1, 2] }, e: 'keep', f: 'gone' },
      { _id: 2, a: 1, b: 2 },
      { _id: 3, a: 1, b: 2 },
    ] as never[]);
    await posts.updateOne(
      { _id: 1 },
      { $set: { 'b.c': 2, z: new Date(0) }, $push: { 'b.d': 3 }, $unset: { f: '' } },
    );
    await posts.updateOne({ _id: 1 }, { $inc: { n: 1 }, $set: { a: 'one' } });
    await posts.updateOne({ _id: 2 }, { $rename: { a: 'x' } });
    await posts.replaceOne({ _id: 3 }, { b: 3, a: 2 });
    await posts.findOneAndUpdate({ _id: 3 }, { $set: { c: [{ d: 1 }] } });
    await posts.updateMany({}, { $set: { all: true } });
    const ops = records().map((r) => r.o);
    expect(ops.filter((o) => o === 'update')).toHaveLength(7);
    // The replacement changes every field: its record is the whole document.
    expect(ops.filter((o) => o === 'replace')).toHaveLength(1);
    const docs = await readAll(client);
    expect(docs.map((d) => Object.keys(d))).toEqual([
      ['_id', 'a', 'b', 'e', 'z', 'n', 'all'],
      ['_id', 'b', 'x', 'all'],
      ['_id', 'b', 'a', 'c', 'all'],
    ]);
    return docs;
  });
  const after = await withServer(readAll);
  expect(after).toEqual(before);
  expect(after.map((d) => Object.keys(d))).toEqual(before.map((d) => Object.keys(d)));
});

test("a transaction's updates are deltas inside its one record, and replay", async () => {
  const before = await withServer(async (client) => {
    const posts = client.db('d').collection<{ _id: number }>('posts');
    await posts.insertMany([
      { _id: 1, content: 'y'.repeat(3000), likesCount: 0 },
      { _id: 2, content: 'z'.repeat(3000), likesCount: 0 },
    ] as never[]);
    const session = client.startSession();
    await session.withTransaction(async () => {
      await posts.updateOne({ _id: 1 }, { $inc: { likesCount: 1 } }, { session });
      await posts.updateOne({ _id: 2 }, { $inc: { likesCount: 2 } }, { session });
    });
    await session.endSession();
    const txn = records().at(-1) as Extract<JournalOp, { o: 'txn' }>;
    expect(txn.o).toBe('txn');
    expect(txn.ops.map((o) => o.o)).toEqual(['update', 'update']);
    return readAll(client);
  });
  expect(before.map((d) => d.likesCount)).toEqual([1, 2]);
  expect(await withServer(readAll)).toEqual(before);
});

test('a journal of whole-document replace records (the older format) still replays', async () => {
  const ops: JournalOp[] = [
    { o: 'create', db: 'd', coll: 'posts', options: {} },
    { o: 'insert', db: 'd', coll: 'posts', doc: { _id: 1, n: 0, s: 'a' } },
    { o: 'replace', db: 'd', coll: 'posts', doc: { _id: 1, n: 1, s: 'a' } },
    { o: 'update', db: 'd', coll: 'posts', id: 1, set: { n: 2, t: true }, unset: ['s'] },
  ];
  fs.writeFileSync(journal, Buffer.concat(ops.map(frame)));
  expect(await withServer(readAll)).toEqual([{ _id: 1, n: 2, t: true }]);
});

test('a delta for a document that is not there refuses to start, naming the offset', async () => {
  const ops: JournalOp[] = [
    { o: 'create', db: 'd', coll: 'posts', options: {} },
    { o: 'update', db: 'd', coll: 'posts', id: 7, set: { n: 1 } },
    { o: 'insert', db: 'd', coll: 'posts', doc: { _id: 1 } },
  ];
  fs.writeFileSync(journal, Buffer.concat(ops.map(frame)));
  const offset = frame(ops[0] as JournalOp).length;
  const error = await start({ dbPath: dir }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(JournalCorruptError);
  expect((error as JournalCorruptError).offset).toBe(offset);
  expect((error as Error).message).toContain('cannot be replayed');
});
