/**
 * A journal that cannot be written (ENOSPC, EIO...) stops the server: the write that failed is not
 * acknowledged, nothing is served from memory that is not on disk, and a restart finds exactly
 * the acknowledged writes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { start } from '../src';
import type { StorageFaults } from '../src/journal';
import { waitForExit } from './support/spawn-server';

const bin = path.resolve(__dirname, '../bin/embedded-mongo.cjs');
let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-fail-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

test('when a journal write fails with ENOSPC, then the write gets an error, the server stops, and a restart has every acknowledged write and not the failed one', async () => {
  const faults: StorageFaults = {};
  let fatal: Error | undefined;
  let stopped!: () => void;
  const hasStopped = new Promise<void>((resolve) => (stopped = resolve));
  const server = await start({ dbPath: dir, faults, onFatal: (e) => ((fatal = e), stopped()) });
  const client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 1000 });
  const docs = client.db('f').collection<{ _id: number }>('docs');
  try {
    for (let i = 0; i < 5; i++) await docs.insertOne({ _id: i });
    const sizeBefore = fs.statSync(path.join(dir, 'journal.bson')).size;
    // Part of the record reaches the disk before the error, as a filling disk allows.
    faults.failWrites = { code: 'ENOSPC', afterBytes: 20 };
    await expect(docs.insertOne({ _id: 5 })).rejects.toThrow(/ENOSPC/);
    await hasStopped;
    // The partial record was cut: the journal ends with the last acknowledged write.
    expect(fs.statSync(path.join(dir, 'journal.bson')).size).toBe(sizeBefore);
    // Nothing more is served: not the unacknowledged document, not anything else.
    await expect(docs.findOne({ _id: 5 })).rejects.toThrow();
  } finally {
    await client.close(true).catch(() => undefined);
    await server.stop();
  }
  expect(fatal?.message).toMatch(/write to the journal .*journal\.bson failed \(ENOSPC/);

  const again = await start({ dbPath: dir });
  const reader = await MongoClient.connect(again.uri);
  try {
    const ids = await reader.db('f').collection('docs').distinct('_id');
    expect(ids.sort()).toEqual([0, 1, 2, 3, 4]);
  } finally {
    await reader.close();
    await again.stop();
  }
});

test('when the CLI cannot write its journal, then it exits 1 with a FATAL line and the client gets an error', async () => {
  const child = spawn(
    process.execPath,
    [
      bin,
      '--port',
      '0',
      '--dbpath',
      dir,
      '--test-faults',
      JSON.stringify({ failWrites: { code: 'EIO' } }),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const uri = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (mongodb:\/\/\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.once('exit', () => reject(new Error(`exited early: ${stderr}`)));
  });
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 1000 });
  try {
    await expect(
      client
        .db('f')
        .collection('docs')
        .insertOne({ _id: 1 as never }),
    ).rejects.toThrow(/EIO/);
    await waitForExit(child);
  } finally {
    await client.close(true).catch(() => undefined);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  expect(child.exitCode).toBe(1);
  expect(stderr).toMatch(
    /FATAL: write to the journal .* failed \(EIO.*never serves data that is not on disk/,
  );
});

test('when the once-a-second fdatasync fails, then the server stops on its own, before any further request', async () => {
  const faults: StorageFaults = {};
  let stopped!: (e: Error) => void;
  const fatal = new Promise<Error>((resolve) => (stopped = resolve));
  const server = await start({
    dbPath: dir,
    fsync: 'interval',
    faults,
    onFatal: (e) => stopped(e),
  });
  const client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 1000 });
  try {
    await client
      .db('f')
      .collection('docs')
      .insertOne({ _id: 1 as never });
    faults.failSync = { code: 'EIO' };
    // Dirty since the insert: the next tick of the sync timer (at most a second) meets the error.
    expect((await fatal).message).toMatch(/fdatasync of the journal .* failed \(EIO/);
    await expect(client.db('f').collection('docs').findOne({})).rejects.toThrow();
  } finally {
    await client.close(true).catch(() => undefined);
    await server.stop();
  }
});

test('when fsync is "always" and the sync before an acknowledgement fails, then that write gets an error and is cut from the journal', async () => {
  const faults: StorageFaults = {};
  let stopped!: () => void;
  const hasStopped = new Promise<void>((resolve) => (stopped = resolve));
  const server = await start({ dbPath: dir, fsync: 'always', faults, onFatal: () => stopped() });
  const client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 1000 });
  const docs = client.db('f').collection<{ _id: number }>('docs');
  try {
    await docs.insertOne({ _id: 1 });
    const sizeBefore = fs.statSync(path.join(dir, 'journal.bson')).size;
    faults.failSync = { code: 'EIO' };
    await expect(docs.insertOne({ _id: 2 })).rejects.toThrow(/EIO/);
    await hasStopped;
    expect(fs.statSync(path.join(dir, 'journal.bson')).size).toBe(sizeBefore);
  } finally {
    await client.close(true).catch(() => undefined);
    await server.stop();
  }
});
