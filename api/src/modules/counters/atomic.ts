/**
 * Atomic counts: a write and the denormalized count it moves (a like and its post's
 * `likesCount`, a comment and `commentsCount`, a repost and `repostsCount`...) are committed
 * together in one transaction, or not at all, even when the database is killed between the two.
 *
 * - Every mongoose operation inside `work` joins the transaction by itself (db.ts turns on
 *   mongoose's `transactionAsyncLocalStorage`), so services need no session parameter.
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
 * - Ids come from `counters.nextId`, which never joins a transaction (a sequence, like SQL's, is
 *   not rolled back: an aborted attempt leaves a gap), so concurrent writers do not all conflict
 *   on the sequence document.
 * - Read caches hear of writes from mongoose's hooks (platform/write-events.ts) while the
 *   transaction is still open, when other readers cannot see them yet; the writes made inside are
 *   announced once more after the commit (also after a commit that failed: it may have taken
 *   effect), so nothing read in between is kept.
 * - A call inside another `atomically` joins the open transaction instead of nesting.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { isDeepStrictEqual } from 'node:util';
import { ConnectionStates, mongo, type ClientSession, type Connection } from 'mongoose';
import { databaseUnavailable } from '../../platform/errors';
import { announceWrite, onWrites, type WriteEvent } from '../../platform/write-events';

export type Atomically = <T>(work: () => Promise<T>, hot?: string) => Promise<T>;

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

/** Whether two announcements are of the same write (its hooks announce it before and after). */
function sameWrite(a: WriteEvent, b: WriteEvent): boolean {
  return (
    isDeepStrictEqual(a.filter, b.filter) &&
    isDeepStrictEqual(a.update, b.update) &&
    a.unknown === b.unknown &&
    a.inserted === b.inserted &&
    a.documents?.[0] === b.documents?.[0]
  );
}

/** Runs `work` in one transaction on `connection`, retried on write conflicts; answers its result. */
export function atomicallyOn(connection: Connection): Atomically {
  const announced = new AsyncLocalStorage<Array<[string, WriteEvent]>>();
  // Only writes made in the context of one of this connection's transactions are collected.
  onWrites(connection, (collection, event) => {
    const writes = announced.getStore();
    if (!writes) return;
    // Each write is announced before and after it runs: keep it once.
    const last = writes.at(-1);
    if (last && last[0] === collection && sameWrite(last[1], event)) return;
    writes.push([collection, event]);
  });
  // mongoose's own store (db.ts turns it on): operations in `work` take the session from it.
  const store = (
    connection.base as unknown as {
      transactionAsyncLocalStorage?: AsyncLocalStorage<{ session: ClientSession }>;
    }
  ).transactionAsyncLocalStorage;
  if (!store) throw new Error('atomically: mongoose transactionAsyncLocalStorage is off (db.ts)');
  const joined: AsyncLocalStorage<{ session: ClientSession }> = store;
  /** The last transaction queued on each hot document (removed when the queue empties). */
  const queues = new Map<string, Promise<unknown>>();

  async function transaction<T>(work: () => Promise<T>): Promise<T> {
    // A database found gone while this waited in its queue: no waiting for mongoose's buffering
    // (10 s) behind each of the others, the 503 comes at once.
    if (connection.readyState !== ConnectionStates.connected) throw databaseUnavailable();
    const session = await connection.startSession();
    const giveUpAt = Date.now() + RETRY_FOR_MS;
    try {
      for (let attempt = 1; ; attempt++) {
        const writes: Array<[string, WriteEvent]> = [];
        session.startTransaction();
        try {
          const value = await announced.run(writes, () => joined.run({ session }, work));
          try {
            await session.commitTransaction();
          } finally {
            // Also when the commit failed: it may have taken effect (an unknown commit result).
            for (const [collection, event] of writes) announceWrite(connection, collection, event);
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

  return async <T>(work: () => Promise<T>, hot?: string): Promise<T> => {
    if (announced.getStore()) return work(); // already inside one: join it
    if (hot === undefined) return transaction(work);
    const before = queues.get(hot) ?? Promise.resolve();
    const mine = before.then(() => transaction(work));
    const settled = mine.catch(() => undefined);
    queues.set(hot, settled);
    try {
      return await mine;
    } finally {
      if (queues.get(hot) === settled) queues.delete(hot);
    }
  };
}
