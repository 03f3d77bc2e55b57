/**
 * A write load whose consistent states are easy to recognise: each transaction inserts, updates
 * or deletes one pair of documents (`left` and `right`, same `_id`, same `v`) and moves its
 * writer's counter with it. Any state read at one point in time has the same `_id`s in both
 * collections, equal `v`s, and counters adding up to the number of pairs; a dump that read the
 * collections at different times would break that while the load runs.
 */
import { createHash } from 'node:crypto';
import type { Db, Document, MongoClient, Timestamp } from 'mongodb';

export interface PairLoad {
  /** Transactions committed so far. */
  committed(): number;
  /** Resolves once `n` more transactions have committed than when called. */
  more(n: number): Promise<void>;
  /** Stops the writers and resolves when they are done. */
  stop(): Promise<void>;
}

type Pair = Document & { _id: number; v: number };

export async function seedPairs(db: Db, pairs: number): Promise<void> {
  const docs = Array.from({ length: pairs }, (_, i) => ({ _id: i, v: 0 }));
  await db.collection<Pair>('left').insertMany(docs);
  await db.collection<Pair>('right').insertMany(docs.map((d) => ({ ...d })));
  await db.collection('counters').insertOne({ _id: 'seed' as never, n: pairs });
}

export function startPairLoad(client: MongoClient, dbName: string, writers = 3): PairLoad {
  const db = client.db(dbName);
  let running = true;
  let committed = 0;
  const waiting = new Set<{ target: number; resolve: () => void }>();
  const loops = Array.from({ length: writers }, async (_, w) => {
    let next = 1_000_000 * (w + 1);
    const mine: number[] = [];
    await db.collection('counters').insertOne({ _id: `w${w}` as never, n: 0 });
    for (let round = 0; running; round++) {
      const kind =
        round % 3 === 2 && mine.length ? 'delete' : round % 3 === 1 ? 'update' : 'insert';
      const session = client.startSession();
      try {
        await session.withTransaction(async () => {
          const left = db.collection<Pair>('left');
          const right = db.collection<Pair>('right');
          const counters = db.collection<Document & { _id: string }>('counters');
          if (kind === 'delete') {
            // Delete one of ours.
            const id = mine[round % mine.length] as number;
            await left.deleteOne({ _id: id }, { session });
            await right.deleteOne({ _id: id }, { session });
            await counters.updateOne({ _id: `w${w}` }, { $inc: { n: -1 } }, { session });
          } else if (kind === 'update') {
            // Update a seeded pair (several writers may pick the same: conflicts are retried).
            const id = (round * 7919 + w) % 500;
            await left.updateOne({ _id: id }, { $inc: { v: 1 } }, { session });
            await right.updateOne({ _id: id }, { $inc: { v: 1 } }, { session });
          } else {
            const id = next;
            await left.insertOne({ _id: id, v: round }, { session });
            await right.insertOne({ _id: id, v: round }, { session });
            await counters.updateOne({ _id: `w${w}` }, { $inc: { n: 1 } }, { session });
          }
        });
        if (kind === 'insert') mine.push(next++);
        else if (kind === 'delete') mine.splice(round % mine.length, 1);
        committed++;
        for (const wait of [...waiting])
          if (committed >= wait.target) {
            waiting.delete(wait);
            wait.resolve();
          }
      } finally {
        await session.endSession();
      }
    }
  });
  return {
    committed: () => committed,
    more: (n) =>
      new Promise((resolve) => {
        waiting.add({ target: committed + n, resolve });
      }),
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** What a consistent state must satisfy; throws naming what does not hold. */
export async function checkPairs(db: Db): Promise<{ pairs: number }> {
  const left = await db.collection<Pair>('left').find().sort({ _id: 1 }).toArray();
  const right = await db.collection<Pair>('right').find().sort({ _id: 1 }).toArray();
  const counters = await db.collection('counters').find().toArray();
  const total = counters.reduce((n, c) => n + (c.n as number), 0);
  if (JSON.stringify(left) !== JSON.stringify(right))
    throw new Error(`left and right differ (${left.length} and ${right.length} documents)`);
  if (total !== left.length)
    throw new Error(`the counters add up to ${total}, but there are ${left.length} pairs`);
  return { pairs: left.length };
}

/**
 * Per collection, the count and the hash `fingerprint()` computes (sum of SHA-256 of each
 * document's bytes, mod 2^256), here read independently: raw find and getMore commands at
 * `atClusterTime`, the point in time a dump read at.
 */
export async function readAt(
  client: MongoClient,
  dbName: string,
  collections: string[],
  atClusterTime: Timestamp,
): Promise<Record<string, { count: number; hash: string }>> {
  const db = client.db(dbName);
  const session = client.startSession({ causalConsistency: false });
  const out: Record<string, { count: number; hash: string }> = {};
  try {
    for (const name of collections) {
      let sum = 0n;
      let count = 0;
      const add = (docs: Uint8Array[]) => {
        for (const d of docs) {
          sum += BigInt(`0x${createHash('sha256').update(d).digest('hex')}`);
          count++;
        }
      };
      const first = await db.command(
        {
          find: name,
          filter: {},
          batchSize: 500,
          readConcern: { level: 'snapshot', atClusterTime },
        },
        { session, fieldsAsRaw: { firstBatch: true } },
      );
      let cursor = first.cursor as {
        id: unknown;
        firstBatch?: Uint8Array[];
        nextBatch?: Uint8Array[];
      };
      add(cursor.firstBatch ?? []);
      while (String(cursor.id) !== '0') {
        const more = await db.command(
          { getMore: cursor.id, collection: name, batchSize: 500 },
          { session, fieldsAsRaw: { nextBatch: true } },
        );
        cursor = more.cursor as typeof cursor;
        add(cursor.nextBatch ?? []);
      }
      out[name] = { count, hash: (sum % (1n << 256n)).toString(16).padStart(64, '0') };
    }
  } finally {
    await session.endSession();
  }
  return out;
}
