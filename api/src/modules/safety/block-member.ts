import { MAX_BLOCKS, type BlockResponse } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { badRequest, notFound } from '../../platform/errors';
import { isDuplicateKey } from '../../platform/mongo-errors';
import { endFollowsBetween } from '../follows/end-follows';
import { markReadFrom } from '../notifications/mark-read';
import { USER_NOT_FOUND } from '../users/queries';
import { blocksOf } from './model';

export const BLOCK_LIMIT_MESSAGE = `You can block at most ${MAX_BLOCKS.toLocaleString('en-US')} members`;

/** A member who exists (through the author cache: usually one the app holds), or 404. */
export async function assertMember(ctx: AppContext, userId: number): Promise<void> {
  if (!(await ctx.caches.authors.byId([userId])).has(userId)) throw notFound(USER_NOT_FOUND);
}

/**
 * Blocks a member: neither sees the other from now on, neither can follow, comment on, reply
 * to, like or repost the other, and the follows between them end, in the block's transaction.
 * Blocking again changes nothing. The blocked member is not told.
 */
export async function blockMember(
  ctx: AppContext,
  actor: AuthUser,
  targetId: number,
): Promise<BlockResponse> {
  if (actor.id === targetId) throw badRequest('You cannot block yourself');
  await assertMember(ctx, targetId);
  const Block = blocksOf(ctx);
  if ((await Block.exists({ blockerId: actor.id, blockedId: targetId })) !== null)
    return { userId: targetId, blocked: true };
  if ((await Block.countDocuments({ blockerId: actor.id })) >= MAX_BLOCKS)
    throw badRequest(BLOCK_LIMIT_MESSAGE);
  const id = await ctx.ids.nextIdOfBlock('blocks');
  try {
    await ctx.transaction(async () => {
      await Block.create({
        _id: id,
        blockerId: actor.id,
        blockedId: targetId,
        createdAt: ctx.clock.now(),
      });
      await endFollowsBetween(ctx, actor.id, targetId);
      // What each caused the other is hidden from now on: no longer counted as unread either.
      await markReadFrom(ctx, actor.id, targetId);
      await markReadFrom(ctx, targetId, actor.id);
      ctx.publish({ type: 'member.blocked', blockerId: actor.id, blockedId: targetId });
    });
  } catch (err) {
    // A concurrent block of the same member: blocked all the same.
    if (!isDuplicateKey(err)) throw err;
  }
  return { userId: targetId, blocked: true };
}

/** Unblocks a member (not blocked: nothing changes). The follows that ended stay ended. */
export async function unblockMember(
  ctx: AppContext,
  actor: AuthUser,
  targetId: number,
): Promise<BlockResponse> {
  if (actor.id === targetId) throw badRequest('You cannot unblock yourself');
  await assertMember(ctx, targetId);
  await ctx.transaction(async () => {
    const removed = await blocksOf(ctx).deleteOne({ blockerId: actor.id, blockedId: targetId });
    if (removed.deletedCount > 0)
      ctx.publish({ type: 'member.unblocked', blockerId: actor.id, blockedId: targetId });
  });
  return { userId: targetId, blocked: false };
}
