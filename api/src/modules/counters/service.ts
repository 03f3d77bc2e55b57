import type { CounterModel } from './model';

export interface CounterServiceDeps {
  models: { Counter: CounterModel };
}

/** How many ids `nextIdOfBlock` takes from a sequence at once. */
export const ID_BLOCK_SIZE = 64;

export function createCounterService({ models: { Counter } }: CounterServiceDeps) {
  /**
   * The next numeric id of a collection: 1, 2, 3, ... (atomic, so concurrent inserts never clash).
   * Never part of a transaction (`session: null`), as a database sequence: an id taken by an
   * attempt that is rolled back stays taken, and concurrent transactions (atomic.ts) do not all
   * conflict on the one sequence document.
   */
  async function nextId(name: string): Promise<number> {
    return advance(name, 1, { session: null });
  }

  /** Adds `by` to the sequence `name` (created at 0 when missing); returns its new value. */
  async function advance(
    name: string,
    by: number,
    options: { session?: null } = {},
  ): Promise<number> {
    const counter = await Counter.findOneAndUpdate(
      { _id: name },
      { $inc: { seq: by } },
      { upsert: true, returnDocument: 'after', ...options },
    ).lean();
    if (!counter) throw new Error(`counter ${name} was not created`);
    return counter.seq;
  }

  /**
   * The next id of `name` other than `reserved` (the administrator's id, which registration
   * never hands out): when the counter reaches it, it is passed over for good.
   */
  async function nextIdExcept(name: string, reserved: number): Promise<number> {
    for (;;) {
      const id = await nextId(name);
      if (id !== reserved) return id;
    }
  }

  /** Makes the next id of `name` at least `value + 1`. */
  async function reserveIdsUpTo(name: string, value: number): Promise<void> {
    await Counter.updateOne({ _id: name }, { $max: { seq: value } }, { upsert: true });
  }

  /** Reserves `count` consecutive ids of `name` at once; returns the first. */
  async function reserveIdBlock(name: string, count: number): Promise<number> {
    return (await advance(name, count)) - count + 1;
  }

  /** Ids taken from each sequence by `nextIdOfBlock` and not handed out yet. */
  const blocks = new Map<string, { next: number; last: number }>();
  /** A block being taken, per sequence (the callers that find none left wait for the same one). */
  const taking = new Map<string, Promise<void>>();

  /**
   * A new id of `name` without a round trip most of the time: ids are taken from the sequence
   * `ID_BLOCK_SIZE` at a time (one `$inc`, never in a transaction) and handed out in order by this
   * service. Unique across processes like `nextId`, but not in creation order across them (each
   * process hands out its own block), and a process that stops leaves the rest of its block
   * unused: only for collections whose ids order nothing (likes, follows; comments, which are
   * ordered by `createdAt` first).
   */
  async function nextIdOfBlock(name: string): Promise<number> {
    for (;;) {
      const block = blocks.get(name);
      if (block && block.next <= block.last) return block.next++;
      let pending = taking.get(name);
      if (!pending) {
        pending = advance(name, ID_BLOCK_SIZE, { session: null })
          .then((last) => {
            blocks.set(name, { next: last - ID_BLOCK_SIZE + 1, last });
          })
          .finally(() => taking.delete(name));
        taking.set(name, pending);
      }
      await pending;
    }
  }

  return { nextId, nextIdExcept, nextIdOfBlock, reserveIdsUpTo, reserveIdBlock };
}

export type CounterService = ReturnType<typeof createCounterService>;
