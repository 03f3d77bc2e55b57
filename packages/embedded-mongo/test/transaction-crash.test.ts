/**
 * A transaction's commit is one journal record: killed with SIGKILL while 8 clients move value
 * between two documents in transactions, the restarted server has the same total and every
 * acknowledged commit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { killSpawnedServers, spawnServer, waitForExit } from './support/spawn-server';

let dir: string;
const clients = new Set<MongoClient>();

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-txn-crash-'));
});
afterEach(async () => {
  await killSpawnedServers();
  await Promise.all([...clients].map((c) => c.close(true).catch(() => undefined)));
  clients.clear();
  fs.rmSync(dir, { recursive: true, force: true });
});

type Account = { _id: number; balance: number };
type Transfer = { _id: string; amount: number };

/** Resolves once the client's monitor has marked the killed server unreachable. */
function seesServerGone(client: MongoClient): Promise<void> {
  return new Promise((resolve) => {
    const onChange = (e: { newDescription: { type: string } }) => {
      if (e.newDescription.type !== 'Unknown') return;
      client.off('serverDescriptionChanged', onChange);
      resolve();
    };
    client.on('serverDescriptionChanged', onChange);
  });
}

test('when the server is killed during transfer transactions, then the total is unchanged and every acknowledged commit survives', async () => {
  const first = await spawnServer(dir);
  const setup = new MongoClient(`${first.uri}/?replicaSet=rs0`);
  clients.add(setup);
  await setup
    .db('bank')
    .collection<Account>('accounts')
    .insertMany([
      { _id: 1, balance: 10_000 },
      { _id: 2, balance: 10_000 },
    ]);

  const workers = 8;
  const acknowledged = new Set<string>();
  let enoughAcknowledged = () => {};
  const enough = new Promise<void>((resolve) => (enoughAcknowledged = resolve));
  let running = true;
  // Each worker resolves once it has left its loop, with the promise of its client seeing the
  // server gone (in an object: an async function would wait for a returned promise itself).
  const load = Array.from({ length: workers }, async (_, w) => {
    const client = new MongoClient(`${first.uri}/?replicaSet=rs0`, {
      maxPoolSize: 1,
      serverSelectionTimeoutMS: 1000,
      heartbeatFrequencyMS: 500,
    });
    clients.add(client);
    await client.connect();
    const gone = seesServerGone(client);
    const db = client.db('bank');
    for (let i = 0; running; i++) {
      const id = `${w}-${i}`;
      const amount = (i % 7) + 1;
      const [from, to] = i % 2 ? [1, 2] : [2, 1];
      const session = client.startSession();
      try {
        // Each transfer records itself, so its commit can be found after the restart.
        await session.withTransaction(
          async () => {
            const accounts = db.collection<Account>('accounts');
            await accounts.updateOne({ _id: from }, { $inc: { balance: -amount } }, { session });
            await accounts.updateOne({ _id: to }, { $inc: { balance: amount } }, { session });
            await db.collection<Transfer>('transfers').insertOne({ _id: id, amount }, { session });
          },
          { maxCommitTimeMS: 1000 },
        );
        acknowledged.add(id);
        if (acknowledged.size >= 40) enoughAcknowledged();
      } catch {
        break; // the server died: this transfer was never acknowledged
      } finally {
        await session.endSession().catch(() => undefined);
      }
    }
    return { gone };
  });

  // Kill once enough transfers are acknowledged (a count, not a time: the machine may be busy),
  // while all 8 clients are still mid-transaction; or once every worker has stopped on an error,
  // which the count below then reports.
  await Promise.race([enough, Promise.all(load)]);
  first.child.kill('SIGKILL');
  running = false;
  await waitForExit(first.child);
  await Promise.all(load.map(async (worker) => (await worker).gone));
  await Promise.all([...clients].map((c) => c.close(true).catch(() => undefined)));
  clients.clear();
  expect(acknowledged.size).toBeGreaterThanOrEqual(40);

  const second = await spawnServer(dir);
  const client = new MongoClient(`${second.uri}/?replicaSet=rs0`);
  clients.add(client);
  try {
    const db = client.db('bank');
    const accounts = await db.collection<Account>('accounts').find().toArray();
    expect(accounts.reduce((sum, a) => sum + a.balance, 0)).toBe(20_000);
    const transfers = await db.collection<Transfer>('transfers').find().toArray();
    const stored = new Set(transfers.map((t) => t._id));
    expect([...acknowledged].filter((id) => !stored.has(id))).toEqual([]);
    // Balances agree with the transfers that are there: none half applied.
    const moved = transfers.reduce(
      (sum, t) => sum + (Number(t._id.split('-')[1]) % 2 ? t.amount : -t.amount),
      0,
    );
    expect(accounts.find((a) => a._id === 2)?.balance).toBe(10_000 + moved);
  } finally {
    await client.close();
    clients.delete(client);
    second.child.kill('SIGTERM');
    await waitForExit(second.child);
  }
});
