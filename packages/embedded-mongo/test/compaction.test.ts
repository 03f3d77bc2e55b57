/**
 * Compaction rewrites the journal as the live state: nothing is lost or duplicated, whether it
 * runs while serving (in the background), fails, or is killed halfway (the temporary file is
 * then removed at start). background-compaction.test.ts holds it mid-way under reads and writes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { start, type RunningServer } from '../src';
import type { StorageFaults } from '../src/journal';
import { waitForExit } from './support/spawn-server';

const bin = path.resolve(__dirname, '../bin/embedded-mongo.cjs');
let dir: string;
let journal: string;
const children = new Set<ChildProcess>();

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-compact-'));
  journal = path.join(dir, 'journal.bson');
});
afterEach(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all([...children].map(waitForExit));
  children.clear();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Item {
  _id: number;
  email: string;
  v: number;
}

/**
 * 300 documents under a unique index, each updated `rounds` times, and the last 100 deleted:
 * a journal of ~300 * (rounds + 1) + 100 records for 200 live documents.
 */
async function churn(uri: string, rounds: number): Promise<void> {
  const client = await MongoClient.connect(uri);
  try {
    const c = client.db('compact').collection<Item>('items');
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i, email: `u${i}@x`, v: 0 })));
    for (let round = 1; round <= rounds; round++) {
      // One command per round; still one journal record per document changed.
      await c.bulkWrite(
        Array.from({ length: 300 }, (_, i) => ({
          updateOne: { filter: { _id: i }, update: { $set: { v: round } } },
        })),
      );
    }
    await c.deleteMany({ _id: { $gte: 200 } });
  } finally {
    await client.close();
  }
}

/** Everything stored, in _id order, and whether the unique index still holds. */
async function contents(uri: string): Promise<{ items: Item[]; uniqueHolds: boolean }> {
  const client = await MongoClient.connect(uri);
  try {
    const c = client.db('compact').collection<Item>('items');
    const items = await c.find().sort({ _id: 1 }).toArray();
    const uniqueHolds = await c.insertOne({ _id: 10_000, email: 'u0@x', v: 0 }).then(
      () => false,
      (e: { code?: number }) => e.code === 11000,
    );
    return { items, uniqueHolds };
  } finally {
    await client.close();
  }
}

/** Waits for the background compaction in progress, if any, however it ends. */
async function compactionOver(server: RunningServer): Promise<void> {
  while (server.engine.compacting)
    await server.engine.compactInBackground()?.catch(() => undefined);
}

const expected = (rounds: number): Item[] =>
  Array.from({ length: 200 }, (_, i) => ({ _id: i, email: `u${i}@x`, v: rounds }));

test('when the journal outgrows its threshold while serving, then it is compacted in the background and a restart finds the same data', async () => {
  let compactions = 0;
  const server = await start({
    dbPath: dir,
    compactBytes: 20_000,
    fsync: 'never',
    onCompacted: () => compactions++,
  });
  await churn(server.uri, 3);
  await compactionOver(server);
  expect(compactions).toBeGreaterThan(0);
  // Once more with nothing written meanwhile: the journal is then the snapshot alone.
  await server.engine.compactInBackground();
  const live = await contents(server.uri);
  const compactedSize = fs.statSync(journal).size;
  await server.stop();

  expect(live).toEqual({ items: expected(3), uniqueHolds: true });
  // Uncompacted, 1,300 records of ~60 bytes would be ~80 kB.
  expect(compactedSize).toBeLessThan(40_000);

  const again = await start({ dbPath: dir });
  try {
    expect(await contents(again.uri)).toEqual({ items: expected(3), uniqueHolds: true });
  } finally {
    await again.stop();
  }
});

test('when compaction cannot write its file, then the old journal stays in use and nothing is lost', async () => {
  const faults: StorageFaults = { failCompaction: { code: 'ENOSPC' } };
  const warnings: string[] = [];
  const server = await start({
    dbPath: dir,
    compactBytes: 20_000,
    fsync: 'never',
    faults,
    onWarning: (m) => warnings.push(m),
  });
  await churn(server.uri, 3);
  await compactionOver(server);
  await server.stop();

  expect(warnings[0]).toMatch(/compaction of .*journal\.bson failed: ENOSPC.*stays in use/);
  expect(fs.existsSync(`${journal}.tmp`)).toBe(false);
  const again = await start({ dbPath: dir });
  try {
    expect(await contents(again.uri)).toEqual({ items: expected(3), uniqueHolds: true });
  } finally {
    await again.stop();
  }
});

test('when the server is killed with SIGKILL in the middle of compacting, then the restart ignores and removes the partial file and loses or duplicates nothing', async () => {
  // An uncompacted journal: 1,000 records past twice the live state compacts once the server
  // listens, in the background.
  const server = await start({ dbPath: dir, fsync: 'never' });
  await churn(server.uri, 5);
  await server.stop();
  const original = fs.readFileSync(journal);

  const child = spawn(
    process.execPath,
    [
      bin,
      '--port',
      '0',
      '--dbpath',
      dir,
      '--test-faults',
      // The snapshot's records: create, createIndex, then the documents in one record.
      JSON.stringify({ pauseCompaction: { afterRecords: 2, ms: 60_000 } }),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('compaction paused')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before pausing`)));
  });
  // Halfway: the new journal holds 2 records, the old one is untouched.
  expect(fs.statSync(`${journal}.tmp`).size).toBeGreaterThan(0);
  expect(fs.readFileSync(journal).equals(original)).toBe(true);
  child.kill('SIGKILL');
  await waitForExit(child);

  const warnings: string[] = [];
  const restarted = await start({ dbPath: dir, onWarning: (m) => warnings.push(m) });
  try {
    expect(warnings[0]).toMatch(
      /removed .*journal\.bson\.tmp, left by a compaction that did not finish/,
    );
    // This start compacts again, in the background.
    expect(restarted.engine.compacting).toBe(true);
    await restarted.engine.compactInBackground();
    expect(fs.existsSync(`${journal}.tmp`)).toBe(false);
    expect(await contents(restarted.uri)).toEqual({ items: expected(5), uniqueHolds: true });
    // This start compacted for real.
    expect(fs.statSync(journal).size).toBeLessThan(original.length / 3);
  } finally {
    await restarted.stop();
  }
});
