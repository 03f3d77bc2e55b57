/**
 * Recovery never loses data silently: a torn tail is dropped, any other damage refuses to start
 * with the file and byte offset, and `repair` cuts at the last good record after a backup.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { start } from '../src';
import { frame, JournalCorruptError } from '../src/journal';
import { describeRepair, repairJournal } from '../src/repair';
import { killSpawnedServers, spawnServer, waitForExit } from './support/spawn-server';

const bin = path.resolve(__dirname, '../bin/embedded-mongo.cjs');
let dir: string;
let journal: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-journal-'));
  journal = path.join(dir, 'journal.bson');
});
afterEach(async () => {
  await killSpawnedServers();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Writes documents 0..n-1 one command (so one journal record) each; returns each record's end. */
async function writeDocs(n: number): Promise<number[]> {
  const server = await start({ dbPath: dir, fsync: 'never' });
  const client = await MongoClient.connect(server.uri);
  const ends: number[] = [];
  try {
    const c = client.db('j').collection<{ _id: number; v: string }>('docs');
    for (let i = 0; i < n; i++) {
      await c.insertOne({ _id: i, v: `value ${i}` });
      ends.push(fs.statSync(journal).size);
    }
  } finally {
    await client.close();
    await server.stop();
  }
  return ends;
}

/** Starts on `dir`, returns the ids stored and the recovery warnings, and stops. */
async function readBack(): Promise<{ ids: number[]; warnings: string[] }> {
  const warnings: string[] = [];
  const server = await start({ dbPath: dir, onWarning: (m) => warnings.push(m) });
  const client = await MongoClient.connect(server.uri);
  try {
    const docs = await client
      .db('j')
      .collection<{ _id: number }>('docs')
      .find()
      .sort({ _id: 1 })
      .toArray();
    return { ids: docs.map((d) => d._id), warnings };
  } finally {
    await client.close();
    await server.stop();
  }
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

function flipByte(offset: number): void {
  const fd = fs.openSync(journal, 'r+');
  const b = Buffer.alloc(1);
  fs.readSync(fd, b, 0, 1, offset);
  b[0] = (b[0] as number) ^ 0xff;
  fs.writeSync(fd, b, 0, 1, offset);
  fs.closeSync(fd);
}

async function startError(): Promise<unknown> {
  return start({ dbPath: dir }).then(
    async (s) => {
      await s.stop();
      return undefined;
    },
    (e: unknown) => e,
  );
}

test('when the journal ends in half a record, then recovery drops it, says so, and keeps every complete record', async () => {
  await writeDocs(10);
  const size = fs.statSync(journal).size;
  const next = frame({ o: 'insert', db: 'j', coll: 'docs', doc: { _id: 10, v: 'torn' } });
  fs.appendFileSync(journal, next.subarray(0, next.length - 7));

  const { ids, warnings } = await readBack();
  expect(ids).toEqual(range(10));
  expect(warnings).toEqual([
    expect.stringMatching(new RegExp(`dropped ${next.length - 7} bytes .*byte offset ${size}`)),
  ]);
  expect(fs.statSync(journal).size).toBe(size);
});

test('when the last record is complete but fails its checksum, then it is a torn tail and is dropped', async () => {
  const ends = await writeDocs(10);
  flipByte((ends[8] as number) + 20); // inside the last record's document

  const { ids, warnings } = await readBack();
  expect(ids).toEqual(range(9));
  expect(warnings[0]).toContain('the last record fails its checksum');
});

test('when the journal ends in zeros (a crashed append), then they are dropped', async () => {
  await writeDocs(5);
  fs.appendFileSync(journal, Buffer.alloc(4096));
  const { ids, warnings } = await readBack();
  expect(ids).toEqual(range(5));
  expect(warnings[0]).toContain('4096 zero bytes');
});

test('when a record in the middle fails its checksum, then the server refuses to start, naming the file, the offset and the repair command, and changes nothing', async () => {
  const ends = await writeDocs(20);
  const damaged = ends[9] as number; // the record of document 10
  flipByte(damaged + 30);
  const before = fs.readFileSync(journal);

  const error = await startError();
  expect(error).toBeInstanceOf(JournalCorruptError);
  const message = (error as Error).message;
  expect(message).toContain(`the journal ${journal} is damaged at byte offset ${damaged}`);
  expect(message).toContain('a record fails its checksum');
  expect(message).toContain(`npx embedded-mongo repair --dbpath ${dir}`);
  expect(fs.readFileSync(journal).equals(before)).toBe(true);
});

test('when a record header in the middle claims a length past the end, then it is not mistaken for a torn tail', async () => {
  const ends = await writeDocs(20);
  const damaged = ends[14] as number;
  const fd = fs.openSync(journal, 'r+');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(fs.statSync(journal).size, 0); // runs past the end of the file
  fs.writeSync(fd, len, 0, 4, damaged);
  fs.closeSync(fd);

  const error = await startError();
  expect(error).toBeInstanceOf(JournalCorruptError);
  expect((error as JournalCorruptError).offset).toBe(damaged);
  expect((error as Error).message).toMatch(/the record header says \d+ bytes but its document/);
});

test('when repair runs on a damaged journal, then it keeps a copy, cuts at the last good record, reports the cut, and the server starts with everything before it', async () => {
  const ends = await writeDocs(20);
  const damaged = ends[9] as number;
  flipByte(damaged + 30);
  const original = fs.readFileSync(journal);

  const report = repairJournal(dir, new Date('2026-11-23T22:00:00Z'));
  expect(report.cut).toMatchObject({
    offset: damaged,
    bytes: original.length - damaged,
    recordsAfter: 9, // documents 11..19: intact, but after the damage
  });
  // The records kept: the collection's creation and documents 0..9.
  expect(report.keptRecords).toBe(11);
  expect(fs.readFileSync(report.cut!.backup).equals(original)).toBe(true);
  expect(fs.statSync(journal).size).toBe(damaged);
  expect(describeRepair(report)).toContain(`Cut ${original.length - damaged} bytes`);

  const { ids, warnings } = await readBack();
  expect(ids).toEqual(range(10));
  expect(warnings).toEqual([]);
  expect(describeRepair(repairJournal(dir))).toContain('is intact (11 records): nothing to repair');
});

test('when the CLI meets a damaged journal, then it exits 1 with the message; repair through the CLI lets it start', async () => {
  const ends = await writeDocs(12);
  flipByte((ends[5] as number) + 30);

  const refused = spawn(process.execPath, [bin, '--port', '0', '--dbpath', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  refused.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await waitForExit(refused);
  expect(refused.exitCode).toBe(1);
  expect(stderr).toContain(`FATAL: the journal ${journal} is damaged at byte offset ${ends[5]}`);

  const repair = spawn(process.execPath, [bin, 'repair', '--dbpath', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  repair.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  await waitForExit(repair);
  expect(repair.exitCode).toBe(0);
  expect(stdout).toContain(`Found at byte offset ${ends[5]}: a record fails its checksum`);
  expect(stdout).toContain('Kept 7 records.');

  const server = await spawnServer(dir);
  const client = await MongoClient.connect(server.uri);
  try {
    expect(await client.db('j').collection('docs').countDocuments()).toBe(6);
  } finally {
    await client.close();
    server.child.kill('SIGTERM');
    await waitForExit(server.child);
  }
});
