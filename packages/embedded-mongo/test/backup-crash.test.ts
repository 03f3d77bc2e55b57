/**
 * `embedded-mongo dump` only reads: killed with SIGKILL halfway through, it leaves the server
 * serving, its data whole, and a data directory that restarts cleanly; it leaves no archive under
 * the name it was writing (an earlier archive there stays as it was), only `<name>.partial`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { start } from '../src';
import { compareFingerprints, fingerprint, restore } from '../src/backup';
import { checkPairs, seedPairs, startPairLoad } from './support/backup-load';
import { killSpawnedServers, spawnServer, waitForExit } from './support/spawn-server';

jest.setTimeout(180_000);

const bin = path.resolve(__dirname, '../bin/embedded-mongo.cjs');
let dir: string;
const clients: MongoClient[] = [];
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-backup-crash-'));
});
afterEach(async () => {
  for (const c of children.splice(0))
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(clients.splice(0).map((c) => c.close(true).catch(() => undefined)));
  await killSpawnedServers();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI's dump to a file; resolves with the child and how it ended. */
function spawnDump(
  uri: string,
  archive: string,
): { child: ChildProcess; exit: Promise<void>; stderr: () => string } {
  const child = spawn(process.execPath, [bin, 'dump', '--uri', uri, `--archive=${archive}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return { child, exit: waitForExit(child), stderr: () => stderr };
}

/** Polls (without fixed sleeps deciding anything) until `check` is true or the child exits. */
async function until(check: () => boolean, child: ChildProcess): Promise<void> {
  while (!check()) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error('the dump ended before the test could kill it halfway');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

test('when the dump process is killed with SIGKILL halfway through, then the server serves on with its data whole, restarts cleanly from its data directory, and the archive name keeps the earlier dump', async () => {
  const dbPath = path.join(dir, 'db');
  fs.mkdirSync(dbPath);
  const first = await spawnServer(dbPath);
  const uri = `${first.uri}/?directConnection=true`;
  const client = await MongoClient.connect(uri);
  clients.push(client);
  const db = client.db('campus');
  await seedPairs(db, 2000);
  // An earlier, complete dump under the name (before the bulk: a small one).
  const archive = path.join(dir, 'campus.archive');
  const earlier = spawnDump(uri, archive);
  await earlier.exit;
  expect(earlier.child.exitCode).toBe(0);
  const earlierSha = sha(archive);

  // About 12 MB, so that the dump is far from done when it is killed.
  const body = 'x'.repeat(2000);
  for (let i = 0; i < 6; i++)
    await db
      .collection('bulk')
      .insertMany(Array.from({ length: 1000 }, (_, j) => ({ i: i * 1000 + j, body })));

  const load = startPairLoad(client, 'campus');
  await load.more(10);
  const killed = spawnDump(uri, archive);
  const partial = `${archive}.partial`;
  // Halfway: documents are being written (the prelude is a few kB).
  await until(() => fs.existsSync(partial) && fs.statSync(partial).size > 256 * 1024, killed.child);
  killed.child.kill('SIGKILL');
  await killed.exit;
  expect(killed.child.signalCode).toBe('SIGKILL');
  const committedAtKill = load.committed();

  // The server serves on: the load keeps committing, and a new dump can start at once.
  await load.more(20);
  await load.stop();
  expect(load.committed()).toBeGreaterThan(committedAtKill);
  expect(sha(archive)).toBe(earlierSha);
  expect(fs.statSync(partial).size).toBeGreaterThan(256 * 1024);
  await checkPairs(db);
  expect(await db.collection('bulk').countDocuments()).toBe(6000);
  const live = await fingerprint({ uri });
  // (Closed while the server is up: see crash.test.ts on the driver and closed sockets.)
  await client.close();

  // A clean stop and a start from the data directory: the same data.
  first.child.kill('SIGTERM');
  await waitForExit(first.child);
  expect(first.child.exitCode).toBe(0);
  const second = await spawnServer(dbPath);
  const uri2 = `${second.uri}/?directConnection=true`;
  expect(compareFingerprints(live, await fingerprint({ uri: uri2 }))).toEqual([]);

  // And a complete dump of it restores to the same fingerprint.
  const again = spawnDump(uri2, archive);
  await again.exit;
  expect(again.child.exitCode).toBe(0);
  expect(again.stderr()).toMatch(/dumped 4 collection\(s\) as they were at cluster time/);
  expect(fs.existsSync(partial)).toBe(false);
  const scratch = await start();
  try {
    await restore({
      uri: `${scratch.uri}/?directConnection=true`,
      input: fs.createReadStream(archive),
    });
    expect(
      compareFingerprints(
        live,
        await fingerprint({ uri: `${scratch.uri}/?directConnection=true` }),
      ),
    ).toEqual([]);
  } finally {
    await scratch.stop();
  }
});
