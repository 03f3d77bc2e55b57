/**
 * An inserted document is journaled with the BSON bytes it arrived in (the insert command's
 * `documents` sequence), not decoded and encoded again: a value the server reads as a JavaScript
 * number (an int64) keeps its type in the journal, and a restart reads every document as it was
 * served. A document the server changes before storing it (an `_id` added or moved first) is
 * encoded as before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deserialize, Long, serialize } from 'bson';
import { MongoClient } from 'mongodb';
import { start } from '../src';
import { frameInsert } from '../src/journal';

let dir: string;
let journal: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-insert-bytes-'));
  journal = path.join(dir, 'journal.bson');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The payloads of the journal's insert records, as bytes. */
function insertPayloads(): Buffer[] {
  const buf = fs.readFileSync(journal);
  const out: Buffer[] = [];
  for (let off = 0; off < buf.length;) {
    const len = buf.readUInt32LE(off);
    const payload = buf.subarray(off + 8, off + 8 + len);
    if ((deserialize(payload) as { o: string }).o === 'insert') out.push(payload);
    off += 8 + len;
  }
  return out;
}

test('frameInsert writes the record serialize would write for the same document', () => {
  const doc = { _id: 7, name: 'é', at: new Date(5), tags: ['a'] };
  const record = frameInsert('d', 'ünicode', serialize(doc));
  const payload = record.subarray(8);
  expect(record.readUInt32LE(0)).toBe(payload.length);
  expect(payload.equals(serialize({ o: 'insert', db: 'd', coll: 'ünicode', doc }))).toBe(true);
});

test('inserted documents are journaled with the bytes they arrived in, and read back the same after a restart', async () => {
  let server = await start({ dbPath: dir, fsync: 'never' });
  let client = await MongoClient.connect(`${server.uri}/?directConnection=true`);
  let c = client.db('d').collection<{ _id: number; [k: string]: unknown }>('c');
  await c.insertOne({ _id: 1, n: Long.fromNumber(5), s: 'é' });
  await c.insertMany([
    { _id: 2, n: Long.fromNumber(6) },
    { _id: 3, v: 1 },
  ]);
  await c.insertOne({ v: 2, _id: 4 }); // _id not first: stored with _id first, encoded again
  const served = await c.find().sort({ _id: 1 }).toArray();
  expect(served.map((d) => d.n)).toEqual([5, 6, undefined, undefined]);
  await client.close();
  await server.stop();

  const byId = new Map(
    insertPayloads().map((p) => {
      const op = deserialize(p, { promoteValues: false }) as { doc: { _id: unknown } };
      return [Number(op.doc._id), p];
    }),
  );
  // The int64 is still an int64 (BSON type 0x12) in the journal: the bytes sent, not a number
  // encoded again (which would be an int32).
  const first = byId.get(1)!;
  expect(first[first.indexOf(Buffer.from('\u0012n\u0000', 'latin1'))]).toBe(0x12);
  expect(byId.get(2)!.includes(Buffer.from('\u0012n\u0000', 'latin1'))).toBe(true);
  // The document moved to _id first was encoded from what was stored.
  const fourth = deserialize(byId.get(4)!) as { doc: Record<string, unknown> };
  expect(Object.keys(fourth.doc)).toEqual(['_id', 'v']);

  server = await start({ dbPath: dir, fsync: 'never' });
  client = await MongoClient.connect(`${server.uri}/?directConnection=true`);
  c = client.db('d').collection<{ _id: number; [k: string]: unknown }>('c');
  try {
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual(served);
  } finally {
    await client.close();
    await server.stop();
  }
});
