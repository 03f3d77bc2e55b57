import { trusted } from 'mongoose';
import type { FollowToggleResponse, UserInList } from '@campus/contracts';
import type { DomainEvent } from '../../domain-events';
import type { AuthUser } from '../../platform/auth';
import { badRequest, notFound } from '../../platform/errors';
import { isDuplicateKey } from '../../platform/mongo-errors';
import type { Transactions } from '../../platform/transactions';
import type { CounterService } from '../counters/service';
import type { NotificationService } from '../notifications/service';
import { userPolicy } from '../users/policy';
import { toUserInList } from '../users/presenters';
import { USER_NOT_FOUND, type UserService } from '../users/service';
import type { FollowModel } from './model';

type Direction = 'following' | 'followers';

export interface FollowServiceDeps {
  models: { Follow: FollowModel };
  counters: CounterService;
  notifications: NotificationService;
  users: UserService;
  writes: Transactions<DomainEvent>;
}

export function createFollowService({
  models: { Follow },
  counters,
  notifications,
  users,
  writes: { transaction, publish },
}: FollowServiceDeps) {
  const { nextIdOfBlock } = counters;
  const { notify, withdrawNotifications } = notifications;
  const { publicUsersById, userExists } = users;

  /**
   * One action for follow and unfollow (spec §4). Following notifies the followed user, in the
   * follow's transaction. The counts of followers and followings are counted from the follows
   * (nothing stored to drift); an unfollow and the withdrawal of its notification are one
   * transaction. The follow is tried first (most toggles are follows): the unique index on the
   * pair says when it exists already (the attempt is rolled back), and only then is the toggle an
   * unfollow.
   */
  async function toggleFollow(
    actor: AuthUser,
    targetId: number,
    /** Whether the user exists, e.g. answered by the app's author cache (default: a lookup). */
    exists: (id: number) => Promise<boolean> = userExists,
  ): Promise<FollowToggleResponse> {
    if (!userPolicy.canFollow(actor, targetId)) throw badRequest('You cannot follow yourself');
    if (!(await exists(targetId))) throw notFound(USER_NOT_FOUND);
    const pair = { followerId: actor.id, followingId: targetId };

    let following: boolean;
    try {
      const id = await nextIdOfBlock('follows');
      await transaction(async () => {
        await Follow.create({ _id: id, ...pair });
        publish({ type: 'follow.created', ...pair });
        await notify('follow', targetId, { actorId: actor.id });
      });
      following = true;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      // Followed already: this toggle unfollows (and withdraws the notification with it). A
      // concurrent unfollow of the same pair that removed it first: the outcome is the same.
      await transaction(async () => {
        const removed = await Follow.deleteOne(pair);
        if (removed.deletedCount === 0) return;
        publish({ type: 'follow.removed', ...pair });
        await withdrawNotifications('follow', targetId, actor.id);
      });
      following = false;
    }
    const followersCount = await Follow.countDocuments({ followingId: targetId });
    return { following, followersCount };
  }

  /**
   * Who `userId` follows, or who follows `userId`, newest first, each with whether the viewer
   * follows them. Three queries whatever the length of the list.
   */
  async function listConnections(
    userId: number,
    direction: Direction,
    viewerId: number,
    publicUrl: string,
  ): Promise<UserInList[]> {
    if (!(await userExists(userId))) throw notFound(USER_NOT_FOUND);
    const filter = direction === 'following' ? { followerId: userId } : { followingId: userId };
    const follows = await Follow.find(filter).sort({ createdAt: -1, _id: -1 }).lean();
    const ids = follows.map((f) => (direction === 'following' ? f.followingId : f.followerId));
    if (ids.length === 0) return [];

    const [users, viewerFollows] = await Promise.all([
      publicUsersById(ids),
      Follow.find(
        { followerId: viewerId, followingId: trusted({ $in: ids }) },
        { followingId: 1 },
      ).lean(),
    ]);
    const followed = new Set(viewerFollows.map((f) => f.followingId));
    return ids.flatMap((id) => {
      const user = users.get(id);
      return user ? [toUserInList(user, followed.has(id), publicUrl)] : [];
    });
  }

  /** How many members `userId` follows and how many follow them, and whether the viewer does. */
  async function followSummary(
    userId: number,
    viewerId: number,
  ): Promise<{ followingCount: number; followersCount: number; isFollowing: boolean }> {
    const [followingCount, followersCount, viewerFollows] = await Promise.all([
      Follow.countDocuments({ followerId: userId }),
      Follow.countDocuments({ followingId: userId }),
      Follow.exists({ followerId: viewerId, followingId: userId }),
    ]);
    return { followingCount, followersCount, isFollowing: viewerFollows !== null };
  }

  /** The members `userId` follows (a Following page's authors). */
  async function followedIds(userId: number): Promise<number[]> {
    const follows = await Follow.find({ followerId: userId }, { _id: 0, followingId: 1 }).lean();
    return follows.map((f) => f.followingId);
  }

  function countAllFollows(): Promise<number> {
    return Follow.estimatedDocumentCount();
  }

  /**
   * Account deletion (in its transaction, told by `account.deleted`): the member's follows, both
   * ways (the counts are counted, not stored).
   */
  async function removeFollowsOf(userId: number): Promise<void> {
    await Follow.deleteMany({ $or: [{ followerId: userId }, { followingId: userId }] });
  }

  /** Which of `ids` `viewerId` follows. */
  async function followedAmong(viewerId: number, ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const follows = await Follow.find(
      { followerId: viewerId, followingId: trusted({ $in: ids }) },
      { followingId: 1 },
    ).lean();
    return new Set(follows.map((f) => f.followingId));
  }

  /**
   * The people `followerIds` follow, besides `excluded`, each with how many of `followerIds`
   * follow them: the `limit` followed by most (one aggregation).
   */
  async function followedByMost(
    followerIds: number[],
    excluded: number[],
    limit: number,
  ): Promise<Array<{ id: number; count: number }>> {
    if (!followerIds.length) return [];
    const rows = await Follow.aggregate<{ _id: number; count: number }>([
      { $match: { followerId: { $in: followerIds }, followingId: { $nin: excluded } } },
      { $group: { _id: '$followingId', count: { $sum: 1 } } },
      { $sort: { count: -1, _id: 1 } },
      { $limit: limit },
    ]);
    return rows.map((r) => ({ id: r._id, count: r.count }));
  }

  /** How many follow each of `ids` (one aggregation on the followingId index). */
  async function followerCounts(ids: number[]): Promise<Map<number, number>> {
    if (!ids.length) return new Map();
    const rows = await Follow.aggregate<{ _id: number; count: number }>([
      { $match: { followingId: { $in: ids } } },
      { $group: { _id: '$followingId', count: { $sum: 1 } } },
    ]);
    return new Map(rows.map((r) => [r._id, r.count]));
  }

  /** The `limit` most followed members besides `excluded`, with their follower counts. */
  async function mostFollowed(
    excluded: number[],
    limit: number,
  ): Promise<Array<{ id: number; count: number }>> {
    const rows = await Follow.aggregate<{ _id: number; count: number }>([
      { $match: { followingId: { $nin: excluded } } },
      { $group: { _id: '$followingId', count: { $sum: 1 } } },
      { $sort: { count: -1, _id: 1 } },
      { $limit: limit },
    ]);
    return rows.map((r) => ({ id: r._id, count: r.count }));
  }

  return {
    followedAmong,
    followedByMost,
    followerCounts,
    mostFollowed,
    toggleFollow,
    listConnections,
    followSummary,
    followedIds,
    countAllFollows,
    removeFollowsOf,
  };
}

export type FollowService = ReturnType<typeof createFollowService>;
