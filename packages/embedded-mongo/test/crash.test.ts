import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type MongoClientOptions } from 'mongodb';
import { killSpawnedServers, spawnServer, waitForExit } from './support/spawn-server';

let dir: string;
const openClients = new Set<MongoClient>();

/** What each client's monitor last concluded about its (single) server. */
const serverType = new Map<MongoClient, string>();

/** A client closed after the test whatever happens, so a failure never leaves monitors running. */
async function connect(uri: string, options?: MongoClientOptions): Promise<MongoClient> {
  const client = new MongoClient(uri, options);
  openClients.add(client);
  client.on('serverDescriptionChanged', (e) => {
    serverType.set(client, e.newDescription.type);
  });
  await client.connect();
  return client;
}

/**
 * Resolves once every client's monitor has marked its server unreachable.
 *
 * Closing a client sends endSessions while the driver still believes its server is up. The
 * driver (mongodb 7.8/7.9) hangs forever if that write meets a socket the peer has just closed
 * but whose 'close' event has not yet been handled: it awaits 'drain' on a destroyed socket.
 * Once the server is known to be unreachable, close() skips endSessions altogether.
 */
function allSeeServerGone(clients: MongoClient[]): Promise<void> {
  const gone = (client: MongoClient) => serverType.get(client) === 'Unknown';
  return Promise.all(
    clients.map(
      (client) =>
        new Promise<void>((resolve) => {
          if (gone(client)) return resolve();
          const onChange = () => {
            if (!gone(client)) return;
            client.off('serverDescriptionChanged', onChange);
            resolve();
          };
          client.on('serverDescriptionChanged', onChange);
        }),
    ),
  ).then(() => undefined);
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-crash-'));
});
afterEach(async () => {
  await killSpawnedServers();
  await Promise.all([...openClients].map((c) => c.close(true).catch(() => undefined)));
  openClients.clear();
  serverType.clear();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('when the server is killed with SIGKILL under a write load, then every acknowledged write survives the restart', async () => {
  const first = await spawnServer(dir);
  const writers = 8;
  const clients = await Promise.all(
    Array.from({ length: writers }, () =>
      // Frequent heartbeats: a writer whose last write succeeded learns of the crash within 0.5 s.
      connect(first.uri, {
        maxPoolSize: 1,
        serverSelectionTimeoutMS: 2000,
        heartbeatFrequencyMS: 500,
      }),
    ),
  );
  const acknowledgedInserts = new Set<string>();
  const acknowledgedIncs = new Map<number, number>();
  let enoughAcknowledged = () => {};
  const enough = new Promise<void>((resolve) => (enoughAcknowledged = resolve));
  let running = true;

  const load = clients.map(async (client, w) => {
    const coll = client.db('crash').collection('events');
    const counters = client.db('crash').collection<{ _id: number; n: number }>('counters');
    acknowledgedIncs.set(w, 0);
    for (let i = 0; running; i++) {
      try {
        await coll.insertOne({ _id: `${w}-${i}` as never, w, i, payload: 'x'.repeat(200) });
        acknowledgedInserts.add(`${w}-${i}`);
        if (acknowledgedInserts.size >= 200) enoughAcknowledged();
        await counters.updateOne({ _id: w }, { $inc: { n: 1 } }, { upsert: true });
        acknowledgedIncs.set(w, (acknowledgedIncs.get(w) ?? 0) + 1);
      } catch {
        return; // the server died mid-request: this write was never acknowledged
      }
    }
  });

  // Kill once a fair number of writes are acknowledged, however busy the machine is (a fixed
  // delay got fewer than 100 on a loaded 2-core machine), while the writers are still going; or
  // once every writer has stopped on an error, which the count below then reports.
  await Promise.race([enough, Promise.all(load)]);
  first.child.kill('SIGKILL');
  running = false;
  await waitForExit(first.child);
  await Promise.all(load);
  await allSeeServerGone(clients);
  await Promise.all(clients.map((c) => c.close(true).catch(() => undefined)));

  expect(acknowledgedInserts.size).toBeGreaterThanOrEqual(200);

  const second = await spawnServer(dir);
  const client = await connect(second.uri);
  try {
    const stored = await client
      .db('crash')
      .collection('events')
      .find({}, { projection: { _id: 1 } })
      .toArray();
    const storedIds = new Set(stored.map((d) => String(d._id)));
    const lost = [...acknowledgedInserts].filter((id) => !storedIds.has(id));
    expect(lost).toEqual([]);
    const counters = await client
      .db('crash')
      .collection<{ _id: number; n: number }>('counters')
      .find()
      .toArray();
    for (const [w, acked] of acknowledgedIncs) {
      const n = counters.find((c) => c._id === w)?.n ?? 0;
      // An increment in flight when the process died may or may not have been applied.
      expect(n).toBeGreaterThanOrEqual(acked);
      expect(n).toBeLessThanOrEqual(acked + 1);
    }
    // The restarted server accepts writes on the same data directory.
    await client
      .db('crash')
      .collection('events')
      .insertOne({ _id: 'after-restart' as never });
  } finally {
    await client.close();
    second.child.kill('SIGTERM');
    await waitForExit(second.child);
  }
});

test('when the journal ends in a torn record, then replay keeps every complete record and drops the tail', async () => {
  const first = await spawnServer(dir);
  const client = await connect(first.uri);
  await client
    .db('torn')
    .collection('c')
    .insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: i as never })));
  await client.close();
  first.child.kill('SIGKILL');
  await waitForExit(first.child);

  const file = path.join(dir, 'journal.bson');
  fs.appendFileSync(file, Buffer.from([200, 0, 0, 0, 1, 2, 3, 4, 5, 6]));

  const second = await spawnServer(dir);
  const again = await connect(second.uri);
  try {
    expect(await again.db('torn').collection('c').countDocuments()).toBe(50);
  } finally {
    await again.close();
    second.child.kill('SIGTERM');
    await waitForExit(second.child);
  }
});

test('when the server restarts after compaction, then indexes and documents are intact', async () => {
  const first = await spawnServer(dir);
  const client = await connect(first.uri);
  const c = client.db('compact').collection('users');
  await c.createIndex({ email: 1 }, { unique: true });
  await c.insertMany(
    Array.from({ length: 300 }, (_, i) => ({ _id: i as never, email: `u${i}@x` })),
  );
  for (let round = 1; round <= 4; round++) {
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        c.updateOne({ _id: i as never }, { $set: { v: round } }),
      ),
    );
  }
  await c.deleteMany({ _id: { $gte: 200 } as never });
  await client.close();
  first.child.kill('SIGTERM');
  await waitForExit(first.child);

  // Replay of 1,900 records for 200 live documents triggers a compaction at start-up, in the
  // background once the server listens.
  const before = fs.statSync(path.join(dir, 'journal.bson')).size;
  const second = await spawnServer(dir);
  await second.printed(/embedded-mongo: compacted: /);
  const after = fs.statSync(path.join(dir, 'journal.bson')).size;
  const again = await connect(second.uri);
  try {
    expect(after).toBeLessThan(before);
    const users = again.db('compact').collection('users');
    expect(await users.countDocuments({ v: 4 })).toBe(200);
    await expect(users.insertOne({ _id: 999 as never, email: 'u5@x' })).rejects.toMatchObject({
      code: 11000,
    });
  } finally {
    await again.close();
    second.child.kill('SIGTERM');
    await waitForExit(second.child);
  }
});
