/** The follow graph as other modules read it: lists, counts, suggestions' aggregations. */
import { trusted } from 'mongoose';
import type { UserInList } from '@campus/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../platform/errors';
import { viewerSafety } from '../safety/relations';
import { toUserInList } from '../users/presenters';
import { publicUsersById, USER_NOT_FOUND, userExists } from '../users/queries';
import { followsOf } from './model';

type Direction = 'following' | 'followers';

/**
 * Who `userId` follows, or who follows `userId`, newest first, each with whether the viewer
 * follows them. Three queries whatever the length of the list.
 */
export async function listConnections(
  ctx: AppContext,
  userId: number,
  direction: Direction,
  viewerId: number,
): Promise<UserInList[]> {
  const { publicUrl } = ctx.config;
  if (!(await userExists(ctx, userId))) throw notFound(USER_NOT_FOUND);
  // Blocked either way: the member's lists read as unavailable; members the viewer blocked (or
  // who blocked the viewer) are left out of anyone's.
  const safety = await viewerSafety(ctx, viewerId);
  if (safety.blocks(userId)) throw notFound(USER_NOT_FOUND);
  const filter = direction === 'following' ? { followerId: userId } : { followingId: userId };
  const follows = await followsOf(ctx).find(filter).sort({ createdAt: -1, _id: -1 }).lean();
  const ids = follows
    .map((f) => (direction === 'following' ? f.followingId : f.followerId))
    .filter((id) => !safety.blocks(id));
  if (ids.length === 0) return [];

  const [users, viewerFollows] = await Promise.all([
    publicUsersById(ctx, ids),
    followsOf(ctx)
      .find({ followerId: viewerId, followingId: trusted({ $in: ids }) }, { followingId: 1 })
      .lean(),
  ]);
  const followed = new Set(viewerFollows.map((f) => f.followingId));
  return ids.flatMap((id) => {
    const user = users.get(id);
    return user ? [toUserInList(user, followed.has(id), publicUrl)] : [];
  });
}

/** How many members `userId` follows and how many follow them, and whether the viewer does. */
export async function followSummary(
  ctx: AppContext,
  userId: number,
  viewerId: number,
): Promise<{ followingCount: number; followersCount: number; isFollowing: boolean }> {
  const [followingCount, followersCount, viewerFollows] = await Promise.all([
    followsOf(ctx).countDocuments({ followerId: userId }),
    followsOf(ctx).countDocuments({ followingId: userId }),
    followsOf(ctx).exists({ followerId: viewerId, followingId: userId }),
  ]);
  return { followingCount, followersCount, isFollowing: viewerFollows !== null };
}

/** The members `userId` follows (a Following page's authors). */
export async function followedIds(ctx: AppContext, userId: number): Promise<number[]> {
  const follows = await followsOf(ctx)
    .find({ followerId: userId }, { _id: 0, followingId: 1 })
    .lean();
  return follows.map((f) => f.followingId);
}

export function countAllFollows(ctx: AppContext): Promise<number> {
  return followsOf(ctx).estimatedDocumentCount();
}

/** Which of `ids` `viewerId` follows. */
export async function followedAmong(
  ctx: AppContext,
  viewerId: number,
  ids: number[],
): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const follows = await followsOf(ctx)
    .find({ followerId: viewerId, followingId: trusted({ $in: ids }) }, { followingId: 1 })
    .lean();
  return new Set(follows.map((f) => f.followingId));
}

/**
 * The people `followerIds` follow, besides `excluded`, each with how many of `followerIds`
 * follow them: the `limit` followed by most (one aggregation).
 */
export async function followedByMost(
  ctx: AppContext,
  followerIds: number[],
  excluded: number[],
  limit: number,
): Promise<Array<{ id: number; count: number }>> {
  if (!followerIds.length) return [];
  const rows = await followsOf(ctx).aggregate<{ _id: number; count: number }>([
    { $match: { followerId: { $in: followerIds }, followingId: { $nin: excluded } } },
    { $group: { _id: '$followingId', count: { $sum: 1 } } },
    { $sort: { count: -1, _id: 1 } },
    { $limit: limit },
  ]);
  return rows.map((r) => ({ id: r._id, count: r.count }));
}

/** How many follow each of `ids` (one aggregation on the followingId index). */
export async function followerCounts(ctx: AppContext, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await followsOf(ctx).aggregate<{ _id: number; count: number }>([
    { $match: { followingId: { $in: ids } } },
    { $group: { _id: '$followingId', count: { $sum: 1 } } },
  ]);
  return new Map(rows.map((r) => [r._id, r.count]));
}

/** The `limit` most followed members besides `excluded`, with their follower counts. */
export async function mostFollowed(
  ctx: AppContext,
  excluded: number[],
  limit: number,
): Promise<Array<{ id: number; count: number }>> {
  const rows = await followsOf(ctx).aggregate<{ _id: number; count: number }>([
    { $match: { followingId: { $nin: excluded } } },
    { $group: { _id: '$followingId', count: { $sum: 1 } } },
    { $sort: { count: -1, _id: 1 } },
    { $limit: limit },
  ]);
  return rows.map((r) => ({ id: r._id, count: r.count }));
}
