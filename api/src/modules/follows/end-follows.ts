import type { AppContext } from '../../context';
import { withdrawNotifications } from '../notifications/notify';
import { followsOf } from './model';

/**
 * Ends the follows between two members, both ways, with their notifications (a block, in its
 * transaction): each follow removed publishes `follow.removed`, as an unfollow does.
 */
export async function endFollowsBetween(ctx: AppContext, a: number, b: number): Promise<void> {
  await ctx.transaction(async () => {
    for (const [followerId, followingId] of [
      [a, b],
      [b, a],
    ] as const) {
      const removed = await followsOf(ctx).deleteOne({ followerId, followingId });
      if (removed.deletedCount === 0) continue;
      ctx.publish({ type: 'follow.removed', followerId, followingId });
      await withdrawNotifications(ctx, 'follow', followingId, followerId);
    }
  });
}
