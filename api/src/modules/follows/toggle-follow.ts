import type { FollowToggleResponse } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { badRequest, notFound } from '../../platform/errors';
import { isDuplicateKey } from '../../platform/mongo-errors';
import { notify, withdrawNotifications } from '../notifications/notify';
import { blockedEitherWay } from '../safety/relations';
import { userPolicy } from '../users/policy';
import { USER_NOT_FOUND } from '../users/queries';
import { followsOf } from './model';

/**
 * One action for follow and unfollow (spec §4). Following notifies the followed user, in the
 * follow's transaction. The counts of followers and followings are counted from the follows
 * (nothing stored to drift); an unfollow and the withdrawal of its notification are one
 * transaction. The follow is tried first (most toggles are follows): the unique index on the
 * pair says when it exists already (the attempt is rolled back), and only then is the toggle an
 * unfollow.
 */
export async function toggleFollow(
  ctx: AppContext,
  actor: AuthUser,
  targetId: number,
): Promise<FollowToggleResponse> {
  if (!userPolicy.canFollow(actor, targetId)) throw badRequest('You cannot follow yourself');
  // Through the app's author cache: a member followed is usually an author it holds, so the
  // follow needs no lookup of the account (a deleted account is forgotten by every process).
  const exists = (await ctx.caches.authors.byId([targetId])).has(targetId);
  if (!exists) throw notFound(USER_NOT_FOUND);
  // Blocked either way: neither can follow the other (the member reads as unavailable).
  if (await blockedEitherWay(ctx, actor.id, targetId)) throw notFound(USER_NOT_FOUND);
  const pair = { followerId: actor.id, followingId: targetId };

  let following: boolean;
  try {
    const id = await ctx.ids.nextIdOfBlock('follows');
    await ctx.transaction(async () => {
      await followsOf(ctx).create({ _id: id, ...pair });
      ctx.publish({ type: 'follow.created', ...pair });
      await notify(ctx, 'follow', targetId, { actorId: actor.id });
    });
    following = true;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    // Followed already: this toggle unfollows (and withdraws the notification with it). A
    // concurrent unfollow of the same pair that removed it first: the outcome is the same.
    await ctx.transaction(async () => {
      const removed = await followsOf(ctx).deleteOne(pair);
      if (removed.deletedCount === 0) return;
      ctx.publish({ type: 'follow.removed', ...pair });
      await withdrawNotifications(ctx, 'follow', targetId, actor.id);
    });
    following = false;
  }
  const followersCount = await followsOf(ctx).countDocuments({ followingId: targetId });
  return { following, followersCount };
}

/**
 * Account deletion (in its transaction, told by `account.deleted`): the member's follows, both
 * ways (the counts are counted, not stored).
 */
export async function removeFollowsOf(ctx: AppContext, userId: number): Promise<void> {
  await followsOf(ctx).deleteMany({ $or: [{ followerId: userId }, { followingId: userId }] });
}
