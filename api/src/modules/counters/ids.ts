/**
 * Numeric, sequential ids (a counters collection), so "the user with id 107" is literally user
 * 107. One IdSequences per app (`ctx.ids`): it holds the blocks of ids this process takes at once.
 */
import type { CounterModel } from './model';

/** How many ids `nextIdOfBlock` takes from a sequence at once. */
export const ID_BLOCK_SIZE = 64;

export class IdSequences {
  /** Ids taken from each sequence by `nextIdOfBlock` and not handed out yet. */
  private readonly blocks = new Map<string, { next: number; last: number }>();
  /** A block being taken, per sequence (the callers that find none left wait for the same one). */
  private readonly taking = new Map<string, Promise<void>>();

  constructor(private readonly Counter: CounterModel) {}

  /**
   * The next numeric id of a collection: 1, 2, 3, ... (atomic, so concurrent inserts never clash).
   * Never part of a transaction (`session: null`), as a database sequence: an id taken by an
   * attempt that is rolled back stays taken, and concurrent transactions do not all conflict on
   * the one sequence document.
   */
  nextId(name: string): Promise<number> {
    return this.advance(name, 1);
  }

  /**
   * The next id of `name` other than `reserved` (the administrator's id, which registration
   * never hands out): when the counter reaches it, it is passed over for good.
   */
  async nextIdExcept(name: string, reserved: number): Promise<number> {
    for (;;) {
      const id = await this.nextId(name);
      if (id !== reserved) return id;
    }
  }

  /** Makes the next id of `name` at least `value + 1`. */
  async reserveIdsUpTo(name: string, value: number): Promise<void> {
    await this.Counter.updateOne({ _id: name }, { $max: { seq: value } }, { upsert: true });
  }

  /** Reserves `count` consecutive ids of `name` at once; returns the first. */
  async reserveIdBlock(name: string, count: number): Promise<number> {
    return (await this.advance(name, count)) - count + 1;
  }

  /**
   * A new id of `name` without a round trip most of the time: ids are taken from the sequence
   * `ID_BLOCK_SIZE` at a time (one `$inc`, never in a transaction) and handed out in order by this
   * process. Unique across processes like `nextId`, but not in creation order across them (each
   * process hands out its own block), and a process that stops leaves the rest of its block
   * unused: only for collections whose ids order nothing (likes, follows; comments, which are
   * ordered by `createdAt` first).
   */
  async nextIdOfBlock(name: string): Promise<number> {
    for (;;) {
      const block = this.blocks.get(name);
      if (block && block.next <= block.last) return block.next++;
      let pending = this.taking.get(name);
      if (!pending) {
        pending = this.advance(name, ID_BLOCK_SIZE)
          .then((last) => {
            this.blocks.set(name, { next: last - ID_BLOCK_SIZE + 1, last });
          })
          .finally(() => this.taking.delete(name));
        this.taking.set(name, pending);
      }
      await pending;
    }
  }

  /** Adds `by` to the sequence `name` (created at 0 when missing), outside any transaction. */
  private async advance(name: string, by: number): Promise<number> {
    const counter = await this.Counter.findOneAndUpdate(
      { _id: name },
      { $inc: { seq: by } },
      { upsert: true, returnDocument: 'after', session: null },
    ).lean();
    if (!counter) throw new Error(`counter ${name} was not created`);
    return counter.seq;
  }
}
