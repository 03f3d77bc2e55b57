/**
 * The one way a use case writes: `transaction(work)` runs `work` in one database transaction with
 * the domain events it publishes (`publish`), so a write, the denormalized counts it moves (a like
 * and its post's `likesCount`) and the events that tell everyone about it are committed together
 * or not at all, even when the database is killed between two of them.
 *
 * - Every mongoose operation inside `work` joins the transaction by itself (db.ts turns on
 *   mongoose's `transactionAsyncLocalStorage`), so use cases need no session parameter.
 * - The events are written to the outbox (outbox-model.ts) as one document just before the commit,
 *   and handed to this app's subscribers right after it (also after a commit whose result is
 *   unknown: it may have taken effect). Other processes read them from the outbox's change stream.
 * - Write conflicts (two transactions moving the same count) are answered by the database with
 *   the `TransientTransactionError` label; `work` runs again after a growing, jittered back-off
 *   (for up to 30 s), so concurrent toggles of one post all end, and end exact. `work` must
 *   therefore be safe to run again from the start (it reads what it decides on inside). A
 *   database that is gone (network, server selection) is not retried: the request gets its 503
 *   at once, where the driver's `withTransaction` would retry for two minutes.
 * - Callers name the document their transaction contends for (`hot`, e.g. `posts:42`): within one
 *   API process, transactions on the same hot document queue up instead of conflicting and
 *   backing off (a popular post liked by many at once would otherwise spend most of its time in
 *   back-off). Across processes the database's conflicts and retries still decide.
 * - Ids come from the counters, which never join a transaction (a sequence, like SQL's, is not
 *   rolled back: an aborted attempt leaves a gap), so concurrent writers do not all conflict on
 *   the sequence document.
 * - A `transaction` inside another joins the open one instead of nesting.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ConnectionStates, mongo, type ClientSession, type Connection } from 'mongoose';
import { databaseUnavailable } from './errors';
import type { OutboxModel } from './outbox-model';

export type Transaction = <T>(work: () => Promise<T>, hot?: string) => Promise<T>;

export interface Transactions<E> {
  transaction: Transaction;
  /** Adds events to the transaction under way (a programming error outside one). */
  publish(...events: E[]): void;
}

/** How long a transaction that keeps meeting write conflicts is tried again. */
const RETRY_FOR_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A write conflict the database answered (WriteConflict, or a commit that met one), to be tried
 * again. A network or server selection error is not: the database is gone, and the request gets
 * its 503 at once (the driver's `withTransaction` would retry those for two minutes).
 */
function isWriteConflict(err: unknown): boolean {
  return err instanceof mongo.MongoServerError && err.hasErrorLabel('TransientTransactionError');
}

export interface TransactionsOptions<E> {
  connection: Connection;
  Outbox: OutboxModel;
  /** This app's id on the outbox documents it writes (it skips their echo on the stream). */
  origin: string;
  /** Hands committed events to this app's subscribers. */
  deliver(events: E[]): void;
}

export function createTransactions<E extends { type: string }>({
  connection,
  Outbox,
  origin,
  deliver,
}: TransactionsOptions<E>): Transactions<E> {
  /** The events published by the transaction under way (an attempt's own list). */
  const published = new AsyncLocalStorage<E[]>();
  // mongoose's own store (db.ts turns it on): operations in `work` take the session from it.
  const store = (
    connection.base as unknown as {
      transactionAsyncLocalStorage?: AsyncLocalStorage<{ session: ClientSession }>;
    }
  ).transactionAsyncLocalStorage;
  if (!store) throw new Error('transactions: mongoose transactionAsyncLocalStorage is off (db.ts)');
  const joined: AsyncLocalStorage<{ session: ClientSession }> = store;
  /** The last transaction queued on each hot document (removed when the queue empties). */
  const queues = new Map<string, Promise<unknown>>();

  async function run<T>(work: () => Promise<T>): Promise<T> {
    // A database found gone while this waited in its queue: no waiting for mongoose's buffering
    // (10 s) behind each of the others, the 503 comes at once.
    if (connection.readyState !== ConnectionStates.connected) throw databaseUnavailable();
    const session = await connection.startSession();
    const giveUpAt = Date.now() + RETRY_FOR_MS;
    try {
      for (let attempt = 1; ; attempt++) {
        const events: E[] = [];
        session.startTransaction();
        try {
          const value = await published.run(events, () => joined.run({ session }, work));
          if (events.length > 0) {
            await Outbox.collection.insertOne({ origin, at: new Date(), events } as never, {
              session,
            });
          }
          try {
            await session.commitTransaction();
          } finally {
            // Also when the commit failed: it may have taken effect (an unknown commit result).
            if (events.length > 0) deliver(events);
          }
          return value;
        } catch (err) {
          if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
          if (!isWriteConflict(err) || Date.now() >= giveUpAt) throw err;
          // Jittered, growing back-off, as the driver's withTransaction.
          await sleep(Math.random() * Math.min(5 * 1.5 ** attempt, 500));
        }
      }
    } finally {
      await session.endSession().catch(() => undefined);
    }
  }

  const transaction: Transaction = async <T>(work: () => Promise<T>, hot?: string) => {
    if (published.getStore()) return work(); // already inside one: join it
    if (hot === undefined) return run(work);
    const before = queues.get(hot) ?? Promise.resolve();
    const mine = before.then(() => run(work));
    const settled = mine.catch(() => undefined);
    queues.set(hot, settled);
    try {
      return await mine;
    } finally {
      if (queues.get(hot) === settled) queues.delete(hot);
    }
  };

  return {
    transaction,
    publish(...events) {
      const open = published.getStore();
      if (!open)
        throw new Error(`${events[0]?.type ?? 'an event'} published outside a transaction`);
      open.push(...events);
    },
  };
}
