import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import type { DomainEvent } from '../../domain-events';
import type { EventBus } from '../../platform/event-bus';
import { logFailure } from '../../platform/errors';
import { outsideRequest } from '../../platform/logger';
import { mediaOf } from './model';

/** Uploads deleted per round of a sweep; a full round is followed by another. */
const SWEEP_BATCH = 100;

/**
 * Deletes the bytes nobody may see any more, in every API process (deleting twice is harmless):
 *
 * - images of a deleted post (by its author, by the administrator's removal, or a repost undone)
 *   and every upload of a deleted account: told by `post.deleted` and `account.deleted`, they
 *   expire at once and are swept at once;
 * - uploads never attached to a post, `MEDIA_UNATTACHED_TTL_HOURS` after their upload, and avatar
 *   uploads no profile showed as long (platform/storage.ts): swept every `MEDIA_SWEEP_INTERVAL_MS`.
 *
 * A sweep deletes an upload's files first, then its record (`media.deleted`): a process that stops
 * in between leaves the expired record, and the next sweep finishes the job.
 */
export interface MediaJanitor {
  /** Subscribes to the deletions and sweeps every interval; answers what undoes that. */
  start(events: EventBus<DomainEvent>): () => void;
  /** Sweeps now (after the sweep under way, if any); resolves once nothing expired is left. */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

export function createMediaJanitor(ctx: AppContext): MediaJanitor {
  let round: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const sweepExpired = async () => {
    for (;;) {
      const now = ctx.clock.now();
      const expired = await mediaOf(ctx)
        .find({ expiresAt: trusted({ $ne: null, $lte: now }) }, { ownerId: 1, variants: 1 })
        .limit(SWEEP_BATCH)
        .lean();
      for (const upload of expired) {
        await ctx.media.store.removeOf(
          upload._id,
          upload.variants.map((v) => v.name),
        );
        await ctx.transaction(async () => {
          const gone = await mediaOf(ctx).deleteOne({
            _id: upload._id,
            expiresAt: trusted({ $ne: null, $lte: now }),
          });
          if (gone.deletedCount > 0) {
            ctx.publish({ type: 'media.deleted', mediaId: upload._id, ownerId: upload.ownerId });
          }
        });
      }
      const avatars = await ctx.storage.removeExpired(now, SWEEP_BATCH);
      if (expired.length < SWEEP_BATCH && avatars < SWEEP_BATCH) return;
    }
  };

  const sweep = (): Promise<void> => {
    if (round) {
      again = true;
      return round;
    }
    round = (async () => {
      try {
        do {
          again = false;
          await sweepExpired();
        } while (again && !closed);
      } catch (err) {
        logFailure(
          ctx.logger,
          err,
          'expired uploads could not be deleted (the next sweep retries)',
        );
      } finally {
        round = undefined;
      }
    })();
    return round;
  };

  /** Makes these uploads expire now, then sweeps. */
  const expireNow = (filter: { postId: number } | { ownerId: number }) =>
    outsideRequest(async () => {
      try {
        await mediaOf(ctx).updateMany(filter, { $set: { expiresAt: ctx.clock.now() } });
      } catch (err) {
        logFailure(ctx.logger, err, 'the images of a deletion could not be marked for deletion');
      }
      await sweep();
    });

  return {
    start(events) {
      const unsubscribe = [
        events.on('post.deleted', (e) => void expireNow({ postId: e.postId })),
        events.on('account.deleted', (e) => void expireNow({ ownerId: e.userId })),
      ];
      const interval = ctx.config.media.sweepIntervalMs;
      if (interval > 0) {
        timer = setInterval(() => void outsideRequest(sweep), interval);
        timer.unref();
      }
      // Whatever expired while no process was running.
      void outsideRequest(sweep);
      return () => {
        for (const stop of unsubscribe) stop();
        clearInterval(timer);
      };
    },
    sweep,
    async close() {
      closed = true;
      clearInterval(timer);
      await round;
    },
  };
}
