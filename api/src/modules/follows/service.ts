import { trusted } from 'mongoose';
import type { FollowToggleResponse, UserInList } from '@campus/contracts';
import type { AuthUser } from '../../platform/auth';
import { badRequest, notFound } from '../../platform/errors';
import { nextId } from '../counters/model';
import { notify, withdrawNotifications } from '../notifications/service';
import { User } from '../users/model';
import { userPolicy } from '../users/policy';
import { PUBLIC_USER_FIELDS, toUserInList } from '../users/presenters';
import { USER_NOT_FOUND } from '../users/service';
import { Follow } from './model';
import { isDuplicateKey } from '../../platform/mongo-errors';

/** One action for follow and unfollow (spec §4). Following notifies the followed user. */
export async function toggleFollow(
  actor: AuthUser,
  targetId: number,
): Promise<FollowToggleResponse> {
  if (!userPolicy.canFollow(actor, targetId)) throw badRequest('You cannot follow yourself');
  if (!(await User.exists({ _id: targetId }))) throw notFound(USER_NOT_FOUND);

  const removed = await Follow.deleteOne({ followerId: actor.id, followingId: targetId });
  let following: boolean;
  if (removed.deletedCount > 0) {
    following = false;
    await withdrawNotifications({ userId: targetId, type: 'follow', actorId: actor.id });
  } else {
    following = true;
    try {
      await Follow.create({
        _id: await nextId('follows'),
        followerId: actor.id,
        followingId: targetId,
      });
      await notify({ userId: targetId, type: 'follow', actorId: actor.id });
    } catch (err) {
      // A concurrent request of the same user created the pair first: the outcome is the same.
      if (!isDuplicateKey(err)) throw err;
    }
  }
  const followersCount = await Follow.countDocuments({ followingId: targetId });
  return { following, followersCount };
}

type Direction = 'following' | 'followers';

/**
 * Who `userId` follows, or who follows `userId`, newest first, each with whether the viewer
 * follows them. Three queries whatever the length of the list.
 */
export async function listConnections(
  userId: number,
  direction: Direction,
  viewerId: number,
  publicUrl: string,
): Promise<UserInList[]> {
  if (!(await User.exists({ _id: userId }))) throw notFound(USER_NOT_FOUND);
  const filter = direction === 'following' ? { followerId: userId } : { followingId: userId };
  const follows = await Follow.find(filter).sort({ createdAt: -1, _id: -1 }).lean();
  const ids = follows.map((f) => (direction === 'following' ? f.followingId : f.followerId));
  if (ids.length === 0) return [];

  const [users, viewerFollows] = await Promise.all([
    User.find({ _id: trusted({ $in: ids }) }, PUBLIC_USER_FIELDS).lean(),
    Follow.find(
      { followerId: viewerId, followingId: trusted({ $in: ids }) },
      { followingId: 1 },
    ).lean(),
  ]);
  const byId = new Map(users.map((u) => [u._id, u]));
  const followed = new Set(viewerFollows.map((f) => f.followingId));
  return ids.flatMap((id) => {
    const user = byId.get(id);
    return user ? [toUserInList(user, followed.has(id), publicUrl)] : [];
  });
}
