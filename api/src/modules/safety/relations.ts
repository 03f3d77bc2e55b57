/**
 * What other modules ask the safety module: what a member hides (`viewerSafety`, through the
 * app's cache) and whether two members are blocked either way (`blockedEitherWay`, from the
 * database, for the writes a block refuses). Reads only this module's models.
 */
import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import { blocksOf, mutedWordsOf, mutesOf } from './model';
import type { SafetyRecord, ViewerSafety } from './safety-cache';

export type { ViewerSafety } from './safety-cache';

/** What `userId` hides now: blocks either way, mutes and muted words in force. */
export function viewerSafety(ctx: AppContext, userId: number): Promise<ViewerSafety> {
  return ctx.caches.safety.of(userId);
}

/** Whether `a` blocked `b` or `b` blocked `a` (read from the database: writes are refused by it). */
export async function blockedEitherWay(ctx: AppContext, a: number, b: number): Promise<boolean> {
  if (a === b) return false;
  const found = await blocksOf(ctx).exists({
    $or: [
      { blockerId: a, blockedId: b },
      { blockerId: b, blockedId: a },
    ],
  });
  return found !== null;
}

/** Which of `others` `userId` blocked, or was blocked by (one query). */
export async function blockedAmong(
  ctx: AppContext,
  userId: number,
  others: number[],
): Promise<Set<number>> {
  const ids = [...new Set(others)].filter((id) => id !== userId);
  if (!ids.length) return new Set();
  const rows = await blocksOf(ctx)
    .find(
      {
        $or: [
          { blockerId: userId, blockedId: trusted({ $in: ids }) },
          { blockedId: userId, blockerId: trusted({ $in: ids }) },
        ],
      },
      { blockerId: 1, blockedId: 1 },
    )
    .lean();
  return new Set(rows.map((r) => (r.blockerId === userId ? r.blockedId : r.blockerId)));
}

/**
 * A member's record as the safety cache keeps it (three queries, run together), read outside any
 * transaction under way: one record serves every request of the member, so it must not be read
 * in one request's transaction, which a write conflict may abort while the others wait for it.
 */
export async function loadSafetyRecord(ctx: AppContext, userId: number): Promise<SafetyRecord> {
  const now = ctx.clock.now();
  const inForce = { $or: [{ until: null }, { until: trusted({ $gt: now }) }] };
  const [blocks, mutes, words] = await Promise.all([
    blocksOf(ctx)
      .find({ $or: [{ blockerId: userId }, { blockedId: userId }] }, { blockerId: 1, blockedId: 1 })
      .session(null)
      .lean(),
    mutesOf(ctx)
      .find({ muterId: userId, ...inForce }, { mutedId: 1, until: 1 })
      .session(null)
      .lean(),
    mutedWordsOf(ctx)
      .find({ userId, ...inForce }, { phrase: 1, folded: 1, until: 1 })
      .session(null)
      .lean(),
  ]);
  return {
    blocked: new Set(blocks.map((b) => (b.blockerId === userId ? b.blockedId : b.blockerId))),
    mutes: new Map(mutes.map((m) => [m.mutedId, m.until ? m.until.getTime() : null])),
    words: words.map((w) => ({
      phrase: w.phrase,
      folded: w.folded,
      until: w.until ? w.until.getTime() : null,
    })),
  };
}
