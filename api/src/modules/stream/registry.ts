import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import { liveStreamsOf } from './model';

/** How long a stream's record outlives its last refresh (a few heartbeats). */
export const LIVE_STREAM_TTL_MS = 120_000;

/** The open streams of every API process, in the database (model.ts). */
export function createStreamRegistry(ctx: AppContext) {
  const LiveStream = liveStreamsOf(ctx);
  const { transaction, publish } = ctx;
  const expiry = () => new Date(Date.now() + LIVE_STREAM_TTL_MS);

  /**
   * Records a new stream, then deletes the member's oldest records past `max` (wherever they
   * are held: `stream.superseded` tells their processes to end them); returns the keys it deleted.
   */
  async function register(key: string, userId: number, max: number): Promise<string[]> {
    await LiveStream.create({ _id: key, userId, openedAt: new Date(), expiresAt: expiry() });
    const records = await LiveStream.find({ userId }, { _id: 1 })
      .sort({ openedAt: -1, _id: -1 })
      .lean();
    const beyond = records.slice(max).map((r) => r._id);
    if (beyond.length === 0) return beyond;
    await transaction(async () => {
      await LiveStream.deleteMany({ _id: trusted({ $in: beyond }) });
      publish({ type: 'stream.superseded', keys: beyond });
    });
    return beyond;
  }

  async function remove(key: string): Promise<void> {
    await LiveStream.deleteOne({ _id: key });
  }

  /** Keeps the records of streams still open (one write for all of a process's streams). */
  async function refresh(keys: string[]): Promise<void> {
    if (!keys.length) return;
    await LiveStream.updateMany({ _id: trusted({ $in: keys }) }, { $set: { expiresAt: expiry() } });
  }

  return { register, remove, refresh };
}

export type StreamRegistry = ReturnType<typeof createStreamRegistry>;
