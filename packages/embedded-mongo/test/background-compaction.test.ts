/**
 * Compaction runs in the background: while it is held mid-way by a test fault, reads and writes
 * are answered, and every write made meanwhile is there after a restart; a server killed with
 * SIGKILL at any point of it (snapshot half written, snapshot written, new journal renamed into
 * place, compaction done) restarts with every acknowledged write.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type MongoClientOptions } from 'mongodb';
import { start } from '../src';
import { scanJournal, type StorageFaults } from '../src/journal';
import { killSpawnedServers, spawnServer, waitForExit, watchOutput } from './support/spawn-server';

let dir: string;
let journal: string;
const children = new Set<ChildProcess>();
const openClients = new Set<MongoClient>();
/** What each client's monitor last concluded about its server. */
const serverType = new Map<MongoClient, string>();

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-bg-compact-'));
  journal = path.join(dir, 'journal.bson');
});
afterEach(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all([...children].map(waitForExit));
  children.clear();
  await killSpawnedServers();
  await Promise.all([...openClients].map((c) => c.close(true).catch(() => undefined)));
  openClients.clear();
  serverType.clear();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function connect(uri: string, options?: MongoClientOptions): Promise<MongoClient> {
  const client = new MongoClient(uri, options);
  openClients.add(client);
  client.on('serverDescriptionChanged', (e) => serverType.set(client, e.newDescription.type));
  await client.connect();
  return client;
}

/**
 * Resolves once every client's monitor has marked its server unreachable, so that close()
 * skips endSessions (the driver can hang writing it to a socket the peer has just closed: see
 * crash.test.ts).
 */
function allSeeServerGone(clients: MongoClient[]): Promise<unknown> {
  return Promise.all(
    clients.map(
      (client) =>
        new Promise<void>((resolve) => {
          if (serverType.get(client) === 'Unknown') return resolve();
          const onChange = () => {
            if (serverType.get(client) !== 'Unknown') return;
            client.off('serverDescriptionChanged', onChange);
            resolve();
          };
          client.on('serverDescriptionChanged', onChange);
        }),
    ),
  );
}

/** The kinds of records of the journal (a snapshot section has `docs` records). */
function recordKinds(file: string): Set<string> {
  const kinds = new Set<string>();
  const scan = scanJournal(fs.readFileSync(file), (op) => kinds.add(op.o));
  expect(scan.problem).toBeUndefined();
  return kinds;
}

interface Item {
  _id: number;
  email: string;
  v: number;
}

/**
 * 300 documents under a unique index, all updated 3 times, the last 100 deleted: a journal of
 * ~1,300 records for 200 live documents.
 */
async function churn(uri: string): Promise<void> {
  const client = await connect(uri);
  const c = client.db('compact').collection<Item>('items');
  await c.createIndex({ email: 1 }, { unique: true });
  await c.createIndex({ v: -1, email: 1 });
  await c.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i, email: `u${i}@x`, v: 0 })));
  for (let round = 1; round <= 3; round++) await c.updateMany({}, { $set: { v: round } });
  await c.deleteMany({ _id: { $gte: 200 } });
  await client.close();
}

/** Every document in _id order, what the secondary indexes answer, and whether `email` stays unique. */
async function contents(uri: string) {
  const client = await connect(uri);
  try {
    const c = client.db('compact').collection<Item>('items');
    const items = await c.find().sort({ _id: 1 }).toArray();
    const byV = await c
      .find({ v: { $gte: 0 } })
      .sort({ v: -1, email: 1 })
      .hint({ v: -1, email: 1 })
      .project({ _id: 1 })
      .toArray();
    const uniqueHolds = await c.insertOne({ _id: 10_000, email: 'u0@x', v: 0 }).then(
      () => false,
      (e: { code?: number }) => e.code === 11000,
    );
    return { items, byV: byV.map((d) => d._id as number), uniqueHolds };
  } finally {
    await client.close();
  }
}

test.each([
  ['with the snapshot half written', { afterRecords: 2 }],
  ['with the snapshot written, before the later records are copied after it', { at: 'written' }],
] as const)(
  'when a compaction is held %s, then reads and writes are answered before it completes, and a restart finds every write',
  async (_, pause) => {
    let paused!: () => void;
    const isPaused = new Promise<void>((resolve) => (paused = resolve));
    const faults: StorageFaults = {
      pauseCompaction: { ...pause, ms: 60_000 },
      onCompactionPaused: () => paused(),
    };
    const server = await start({ dbPath: dir, faults });
    await churn(server.uri);
    const sizeBefore = fs.statSync(journal).size;
    const client = await connect(server.uri);
    const c = client.db('compact').collection<Item>('items');

    let completed = false;
    const compaction = client
      .db('compact')
      .command({ compact: 'items' })
      .finally(() => (completed = true));
    await isPaused;
    expect(server.engine.compacting).toBe(true);

    // Reads: a scan, an index range, a lookup by _id.
    expect((await c.find().sort({ _id: 1 }).toArray()).length).toBe(200);
    expect(await c.countDocuments({ v: 3 })).toBe(200);
    expect(await c.findOne({ _id: 7 })).toEqual({ _id: 7, email: 'u7@x', v: 3 });
    // Writes: inserts, updates of indexed fields, deletes.
    await c.insertMany(
      Array.from({ length: 50 }, (_, i) => ({ _id: 300 + i, email: `n${i}@x`, v: 7 })),
    );
    await c.updateMany({ _id: { $lt: 50 } }, { $set: { v: 99 } });
    await c.deleteMany({ _id: { $gte: 150, $lt: 200 } });
    await expect(c.insertOne({ _id: 500, email: 'u1@x', v: 0 })).rejects.toMatchObject({
      code: 11000,
    });
    // Everything above was answered while the compaction could not complete.
    expect(completed).toBe(false);
    expect(server.engine.compacting).toBe(true);

    server.engine.resumeCompaction();
    const reply = await compaction;
    expect(reply.ok).toBe(1);
    expect(reply.bytesFreed).toBeGreaterThan(0);
    expect(server.engine.compacting).toBe(false);
    expect(fs.statSync(journal).size).toBeLessThan(sizeBefore);
    expect(fs.existsSync(`${journal}.tmp`)).toBe(false);
    // Appends go on into the new journal.
    await c.insertOne({ _id: 600, email: 'after@x', v: 1 });
    await c.updateOne({ _id: 60 }, { $inc: { v: 10 } });
    await client.close();

    const live = await contents(server.uri);
    await server.stop();
    const expected: Item[] = [
      ...Array.from({ length: 150 }, (_, i) => ({
        _id: i,
        email: `u${i}@x`,
        v: i < 50 ? 99 : i === 60 ? 13 : 3,
      })),
      ...Array.from({ length: 50 }, (_, i) => ({ _id: 300 + i, email: `n${i}@x`, v: 7 })),
      { _id: 600, email: 'after@x', v: 1 },
    ];
    expect(live.items).toEqual(expected);
    expect(live.uniqueHolds).toBe(true);
    expect(recordKinds(journal).has('docs')).toBe(true);

    const again = await start({ dbPath: dir });
    try {
      expect(await contents(again.uri)).toEqual(live);
    } finally {
      await again.stop();
    }
  },
);

test('when compact names a collection that does not exist, then it is NamespaceNotFound; without a data directory it frees nothing', async () => {
  const server = await start({ dbPath: dir });
  const memory = await start();
  try {
    const client = await connect(server.uri);
    await expect(client.db('compact').command({ compact: 'nothing' })).rejects.toMatchObject({
      code: 26,
      codeName: 'NamespaceNotFound',
    });
    const inMemory = await connect(memory.uri);
    await inMemory
      .db('compact')
      .collection('items')
      .insertOne({ _id: 1 as never });
    expect(await inMemory.db('compact').command({ compact: 'items' })).toMatchObject({
      ok: 1,
      bytesFreed: 0,
    });
  } finally {
    await server.stop();
    await memory.stop();
  }
});

const compactingServer = path.join(__dirname, 'support/compacting-server.ts');

/** test/support/compacting-server.ts in its own process, with `faults`. */
async function spawnCompacting(faults: StorageFaults) {
  const child = spawn(
    process.execPath,
    ['--require', require.resolve('tsx/cjs'), compactingServer, dir, JSON.stringify(faults)],
    { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  );
  children.add(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const printed = watchOutput(child);
  const uri = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (mongodb:\/\/\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
  });
  return { child, uri, printed };
}

/**
 * Writers inserting events (a secondary index over them) and incrementing one counter each,
 * one acknowledged write after the other, until the server dies.
 */
async function writeLoad(uri: string, writers: number) {
  const clients = await Promise.all(
    Array.from({ length: writers }, () =>
      connect(uri, { maxPoolSize: 1, serverSelectionTimeoutMS: 2000, heartbeatFrequencyMS: 500 }),
    ),
  );
  const inserts = new Set<string>();
  const incs = new Map<number, number>();
  const waits = new Set<() => void>();
  let running = true;
  const done = clients.map(async (client, w) => {
    const events = client.db('crash').collection('events');
    const counters = client.db('crash').collection<{ _id: number; n: number }>('counters');
    incs.set(w, 0);
    for (let i = 0; running; i++) {
      try {
        await events.insertOne({ _id: `${w}-${i}` as never, w, i, pad: 'x'.repeat(200) });
        inserts.add(`${w}-${i}`);
        await counters.updateOne({ _id: w }, { $inc: { n: 1 } }, { upsert: true });
        incs.set(w, (incs.get(w) ?? 0) + 1);
        for (const wait of [...waits]) wait();
      } catch {
        return; // the server died mid-request: this write was never acknowledged
      }
    }
  });
  return {
    inserts,
    incs,
    /** Resolves once `n` more inserts than now are acknowledged. */
    more(n: number): Promise<void> {
      const target = inserts.size + n;
      return new Promise((resolve) => {
        const check = () => {
          if (inserts.size < target) return;
          waits.delete(check);
          resolve();
        };
        waits.add(check);
      });
    },
    async stop(): Promise<void> {
      running = false;
      await Promise.all(done);
      await allSeeServerGone(clients);
      await Promise.all(clients.map((c) => c.close(true).catch(() => undefined)));
    },
  };
}

type Point =
  'snapshot half written' | 'snapshot written' | 'new journal renamed' | 'compaction done';

test.each<[Point]>([
  ['snapshot half written'],
  ['snapshot written'],
  ['new journal renamed'],
  ['compaction done'],
])(
  'when the server is killed with SIGKILL during a background compaction (%s) under a write load, then it restarts with every acknowledged write',
  async (point) => {
    const server = await spawnCompacting({
      pauseCompaction:
        point === 'snapshot half written'
          ? { afterRecords: 3, ms: 60_000 }
          : { at: 'written', ms: 60_000 },
    });
    // A journal with more records than the state, and a secondary index.
    const seed = await connect(server.uri);
    const events = seed.db('crash').collection('events');
    await events.createIndex({ w: 1, i: -1 });
    await events.insertMany(
      Array.from({ length: 500 }, (_, i) => ({ _id: `seed-${i}` as never, w: -1, i })),
    );
    await events.updateMany({}, { $set: { seen: true } });
    await events.deleteMany({ i: { $gte: 400 } });

    const load = await writeLoad(server.uri, 4);
    await load.more(40);
    const compaction = seed
      .db('crash')
      .command({ compact: 'events' })
      .catch(() => undefined);
    await server.printed(/compaction paused/);
    // Writes acknowledged while the compaction is held.
    await load.more(40);
    if (point === 'new journal renamed') {
      // Go on to the switch and stop right after the rename (the server itself is held there).
      server.child.send({ pause: { at: 'renamed', ms: 60_000 }, resume: true });
      await server.printed(/compaction paused[\s\S]*compaction paused/);
    } else if (point === 'compaction done') {
      server.child.send({ pause: null, resume: true });
      await server.printed(/compacted/);
      await load.more(40);
    }
    server.child.kill('SIGKILL');
    await waitForExit(server.child);
    await load.stop();
    await compaction;
    await seed.close(true).catch(() => undefined);

    const renamed = point === 'new journal renamed' || point === 'compaction done';
    // Killed mid-way, the new journal is a leftover beside the old one; after the rename it is the journal.
    expect(fs.existsSync(`${journal}.tmp`)).toBe(!renamed);
    expect(recordKinds(journal).has('docs')).toBe(renamed);

    const restarted = await spawnServer(dir);
    const client = await connect(restarted.uri);
    try {
      expect(fs.existsSync(`${journal}.tmp`)).toBe(false);
      const db = client.db('crash');
      const stored = await db
        .collection('events')
        .find({ w: { $gte: 0 } })
        .toArray();
      const ids = new Set(stored.map((d) => String(d._id)));
      const missing = [...load.inserts].filter((id) => !ids.has(id));
      expect(missing).toEqual([]);
      // At most one unacknowledged insert per writer got in.
      expect(ids.size - load.inserts.size).toBeLessThanOrEqual(4);
      for (const [w, n] of load.incs) {
        const counter = await db
          .collection<{ _id: number; n: number }>('counters')
          .findOne({ _id: w });
        expect(counter?.n ?? 0).toBeGreaterThanOrEqual(n);
        expect(counter?.n ?? 0).toBeLessThanOrEqual(n + 1);
      }
      // The secondary index agrees with the documents.
      const byIndex = await db
        .collection('events')
        .find({ w: { $gte: -1 } })
        .hint({ w: 1, i: -1 })
        .project({ _id: 1 })
        .toArray();
      expect(byIndex.length).toBe(stored.length + 400);
      expect(await db.collection('events').countDocuments({ w: -1, seen: true })).toBe(400);
    } finally {
      await client.close();
    }
  },
);

test('when the compact command rewrites a journal with text, collated and hidden indexes, then a restart has each index as it was and uses it', async () => {
  const server = await start({ dbPath: dir });
  let restarted: Awaited<ReturnType<typeof start>> | undefined;
  try {
    const client = await connect(server.uri);
    const posts = client.db('compact').collection<{ _id: number; t: string; tag: string }>('posts');
    await posts.createIndex({ t: 'text' }, { weights: { t: 2 } });
    await posts.createIndex(
      { tag: 1 },
      { name: 'tag_ci', unique: true, collation: { locale: 'en', strength: 2 } },
    );
    await posts.createIndex({ t: 1 }, { name: 't_hidden' });
    await client
      .db('compact')
      .command({ collMod: 'posts', index: { name: 't_hidden', hidden: true } });
    await posts.insertMany([
      { _id: 1, t: 'snowy mountains', tag: 'Alps' },
      { _id: 2, t: 'sunny beaches', tag: 'Coast' },
    ]);
    // Enough churn that the rewrite has something to drop.
    for (let i = 0; i < 50; i += 1)
      await posts.updateOne({ _id: 2 }, { $set: { t: `sunny beaches ${i}` } });
    const compacted = await client.db('compact').command({ compact: 'posts' });
    expect(compacted.bytesFreed).toBeGreaterThan(0);
    await server.stop();

    restarted = await start({ dbPath: dir });
    const again = (await connect(restarted.uri)).db('compact').collection('posts');
    const indexes = await again.listIndexes().toArray();
    expect(indexes.find((ix) => ix.name === 't_text')).toMatchObject({
      key: { _fts: 'text', _ftsx: 1 },
      weights: { t: 2 },
    });
    expect(indexes.find((ix) => ix.name === 'tag_ci')).toMatchObject({
      unique: true,
      collation: { locale: 'en', strength: 2 },
    });
    expect(indexes.find((ix) => ix.name === 't_hidden')).toMatchObject({ hidden: true });
    expect(
      await again
        .find({ $text: { $search: 'mountain' } }, { projection: { score: { $meta: 'textScore' } } })
        .toArray(),
    ).toEqual([{ _id: 1, t: 'snowy mountains', tag: 'Alps', score: 2 * 0.75 }]);
    // The collated unique index still refuses a case variant of a stored tag.
    await expect(again.insertOne({ _id: 3, t: 'x', tag: 'alps' } as never)).rejects.toMatchObject({
      code: 11000,
    });
  } finally {
    if (server) await server.stop().catch(() => undefined);
    await restarted?.stop();
  }
});
