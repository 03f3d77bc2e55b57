/**
 * A dump taken while transactions keep changing the database is the database at one point in
 * time: restored into a scratch server, every collection has the count and hash read at the
 * dump's cluster time, and the pair invariants of the load (test/support/backup-load.ts) hold,
 * although the load changed the collections between the dump's first and last reads.
 */
import { Readable, Writable } from 'node:stream';
import { MongoClient, type Timestamp } from 'mongodb';
import { start } from '../src';
import type { RunningServer } from '../src/server';
import { dump, fingerprint, restore } from '../src/backup';
import { checkPairs, readAt, seedPairs, startPairLoad } from './support/backup-load';

jest.setTimeout(120_000);

const servers: RunningServer[] = [];
const clients: MongoClient[] = [];

async function server(): Promise<{ uri: string; client: MongoClient }> {
  const s = await start();
  servers.push(s);
  const uri = `${s.uri}/?directConnection=true`;
  const client = await MongoClient.connect(uri);
  clients.push(client);
  return { uri, client };
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

const COLLECTIONS = ['counters', 'left', 'notes', 'right'];

test('when a dump runs while transactions change pairs of collections, then its restore holds every collection as it was at the dump cluster time, and the pairs are whole', async () => {
  const source = await server();
  const db = source.client.db('campus');
  await seedPairs(db, 2000);
  await db
    .collection('notes')
    .insertMany(Array.from({ length: 3000 }, (_, i) => ({ i, text: `note ${i} `.repeat(20) })));
  const load = startPairLoad(source.client, 'campus');
  await load.more(20);

  // The archive goes to a writable that holds the dump's first write until the load has
  // committed 30 more transactions after the dump fixed its point in time; meanwhile the test
  // reads every collection at that point on its own. The dump reads its documents only after.
  const chunks: Buffer[] = [];
  let clusterTime: Timestamp | undefined;
  let committedAtSnapshot = 0;
  let atSnapshot: Awaited<ReturnType<typeof readAt>> | undefined;
  let held = false;
  const out = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      if (held) return callback();
      held = true;
      load
        .more(30)
        .then(async () => {
          atSnapshot = await readAt(source.client, 'campus', COLLECTIONS, clusterTime as Timestamp);
        })
        .then(() => callback(), callback);
    },
  });
  const result = await dump({
    uri: source.uri,
    out,
    onSnapshot: (at) => {
      clusterTime = at;
      committedAtSnapshot = load.committed();
    },
  });
  const committedAfterDump = load.committed();
  await load.stop();

  expect(result.clusterTime).toEqual(clusterTime);
  expect(committedAfterDump).toBeGreaterThanOrEqual(committedAtSnapshot + 30);
  expect(result.collections.map((c) => [c.collection, c.count])).toEqual(
    COLLECTIONS.map((name) => [name, atSnapshot?.[name]?.count]),
  );

  const scratch = await server();
  await restore({ uri: scratch.uri, input: Readable.from([Buffer.concat(chunks)]) });
  const restored = await fingerprint({ uri: scratch.uri, db: 'campus' });
  for (const name of COLLECTIONS) {
    const expected = atSnapshot?.[name];
    expect(expected?.count).toBeGreaterThan(0);
    expect({ name, ...restored.collections[`campus.${name}`] }).toMatchObject({
      name,
      ...expected,
    });
  }
  const { pairs } = await checkPairs(scratch.client.db('campus'));
  // The load went on after the dump's point: the live database has moved on from the restored one.
  const live = await fingerprint({ uri: source.uri, db: 'campus' });
  expect(live.collections['campus.left']?.hash).not.toBe(restored.collections['campus.left']?.hash);
  await checkPairs(db);
  expect(pairs).toBeGreaterThan(2000);
});

test('when the dump and the reads at its point in time are over, then the server forgets that point', async () => {
  const source = await server();
  const db = source.client.db('campus');
  await seedPairs(db, 10);
  let clusterTime: Timestamp | undefined;
  await dump({ uri: source.uri, out: sink(), onSnapshot: (at) => (clusterTime = at) });
  await db.collection('left').insertOne({ _id: 'later' as never, v: 0 });
  // The dump's client ended its session: nobody reads at its point any more.
  await expect(
    readAt(source.client, 'campus', ['left'], clusterTime as Timestamp),
  ).rejects.toMatchObject({
    codeName: 'SnapshotTooOld',
  });
});

test('when nobody reads at a point in time for longer than the server keeps it, then a read there is SnapshotTooOld', async () => {
  // Kept for 0 ms without a read: gone as soon as the clock moves on after a read.
  const s = await start({ snapshotIdleMs: 0 });
  servers.push(s);
  const client = await MongoClient.connect(`${s.uri}/?directConnection=true`);
  clients.push(client);
  const db = client.db('t');
  await db.collection('c').insertOne({ n: 1 });
  const first = await db.command({ find: 'c', readConcern: { level: 'snapshot' } });
  const at = (first.cursor as { atClusterTime: Timestamp }).atClusterTime;
  await db.collection('c').insertOne({ n: 2 });
  let error: unknown;
  for (let attempt = 0; attempt < 10_000 && !error; attempt++)
    error = await db
      .command({ find: 'c', readConcern: { level: 'snapshot', atClusterTime: at } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
  expect(error).toMatchObject({ code: 239, codeName: 'SnapshotTooOld' });
});

function sink(): Writable {
  return new Writable({ write: (_chunk, _encoding, callback) => callback() });
}
