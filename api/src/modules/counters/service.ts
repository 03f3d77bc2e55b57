import type { CounterModel } from './model';

export interface CounterServiceDeps {
  models: { Counter: CounterModel };
}

export function createCounterService({ models: { Counter } }: CounterServiceDeps) {
  /**
   * The next numeric id of a collection: 1, 2, 3, ... (atomic, so concurrent inserts never clash).
   * Never part of a transaction (`session: null`), as a database sequence: an id taken by an
   * attempt that is rolled back stays taken, and concurrent transactions (atomic.ts) do not all
   * conflict on the one sequence document.
   */
  async function nextId(name: string): Promise<number> {
    const counter = await Counter.findOneAndUpdate(
      { _id: name },
      { $inc: { seq: 1 } },
      { upsert: true, returnDocument: 'after', session: null },
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
    const counter = await Counter.findOneAndUpdate(
      { _id: name },
      { $inc: { seq: count } },
      { upsert: true, returnDocument: 'after' },
    ).lean();
    if (!counter) throw new Error(`counter ${name} was not created`);
    return counter.seq - count + 1;
  }

  return { nextId, nextIdExcept, reserveIdsUpTo, reserveIdBlock };
}

export type CounterService = ReturnType<typeof createCounterService>;
