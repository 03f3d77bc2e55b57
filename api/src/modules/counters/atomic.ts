/**
 * Atomic counts: a write and the denormalized count it moves (a like and its post's
 * `likesCount`, a comment and `commentsCount`, a repost and `repostsCount`...) are committed
 * together in one transaction, or not at all, even when the database is killed between the two.
 *
 * - Every mongoose operation inside `work` joins the transaction by itself (db.ts turns on
 *   mongoose's `transactionAsyncLocalStorage`), so services need no session parameter.
 * - Write conflicts (two transactions moving the same count) are answered by the database with
 *   the `TransientTransactionError` label; the driver's `withTransaction` runs `work` again after
 *   a growing, jittered back-off, so concurrent toggles of one post all end, and end exact. `work`
 *   must therefore be safe to run again from the start (it reads what it decides on inside).
 * - Callers name the document their transaction contends for (`hot`, e.g. `posts:42`): within one
 *   API process, transactions on the same hot document queue up instead of conflicting and
 *   backing off (a popular post liked by many at once would otherwise spend most of its time in
 *   back-off). Across processes the database's conflicts and retries still decide.
 * - Ids come from `counters.nextId`, which never joins a transaction (a sequence, like SQL's, is
 *   not rolled back: an aborted attempt leaves a gap), so concurrent writers do not all conflict
 *   on the sequence document.
 * - Read caches hear of writes from mongoose's hooks (platform/write-events.ts) while the
 *   transaction is still open, when other readers cannot see them yet; the writes made inside are
 *   announced once more after the commit, so nothing read in between is kept.
 * - A call inside another `atomically` joins the open transaction instead of nesting.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { isDeepStrictEqual } from 'node:util';
import type { Connection } from 'mongoose';
import { announceWrite, onWrites, type WriteEvent } from '../../platform/write-events';

export type Atomically = <T>(work: () => Promise<T>, hot?: string) => Promise<T>;

/** Whether two announcements are of the same write (its hooks announce it before and after). */
function sameWrite(a: WriteEvent, b: WriteEvent): boolean {
  return (
    isDeepStrictEqual(a.filter, b.filter) &&
    isDeepStrictEqual(a.update, b.update) &&
    a.unknown === b.unknown &&
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
  /** The last transaction queued on each hot document (removed when the queue empties). */
  const queues = new Map<string, Promise<unknown>>();

  async function transaction<T>(work: () => Promise<T>): Promise<T> {
    const writes: Array<[string, WriteEvent]> = [];
    let result: { value: T } | undefined;
    await announced.run(writes, () =>
      connection.transaction(async () => {
        writes.length = 0; // a retried attempt announces its own writes
        result = { value: await work() };
      }),
    );
    for (const [collection, event] of writes) announceWrite(connection, collection, event);
    if (!result) throw new Error('atomically: the transaction committed without running its work');
    return result.value;
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
