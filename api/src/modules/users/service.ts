import type { Profile, ProfileUpdate, PublicUser } from '@campus/contracts';
import type { AuthUser } from '../../platform/auth';
import { forbidden, notFound } from '../../platform/errors';
import { toStoredFileUrl } from '../../platform/storage';
import { Follow } from '../follows/model';
import type { PostReads } from '../posts/presenters';
import { listProfilePosts } from '../posts/service';
import type { AccountCache } from './account-cache';
import { User } from './model';
import { userPolicy } from './policy';
import { PUBLIC_USER_FIELDS, toPublicUser } from './presenters';

export const USER_NOT_FOUND = 'User not found';

export async function getProfile(
  userId: number,
  viewerId: number,
  reads: PostReads,
): Promise<Profile> {
  const { publicUrl } = reads;
  const user = await User.findById(userId, PUBLIC_USER_FIELDS).lean();
  if (!user) throw notFound(USER_NOT_FOUND);
  const [followingCount, followersCount, viewerFollows, posts] = await Promise.all([
    Follow.countDocuments({ followerId: userId }),
    Follow.countDocuments({ followingId: userId }),
    Follow.exists({ followerId: viewerId, followingId: userId }),
    listProfilePosts(userId, viewerId, reads),
  ]);
  return {
    ...toPublicUser(user, publicUrl),
    followingCount,
    followersCount,
    isFollowing: viewerFollows !== null,
    posts,
  };
}

export async function updateProfile(
  actor: AuthUser,
  userId: number,
  update: ProfileUpdate,
  publicUrl: string,
): Promise<PublicUser> {
  if (!userPolicy.canEditProfile(actor, userId)) {
    throw forbidden('You can only edit your own profile');
  }
  const changes: { name: string; bio?: string; avatarUrl?: string | null } = {
    name: update.name,
  };
  if (update.bio !== undefined) changes.bio = update.bio;
  if (update.avatarUrl !== undefined) {
    changes.avatarUrl = update.avatarUrl ? toStoredFileUrl(update.avatarUrl, publicUrl) : null;
  }
  const user = await User.findByIdAndUpdate(
    userId,
    { $set: changes },
    {
      returnDocument: 'after',
      projection: PUBLIC_USER_FIELDS,
      runValidators: true,
    },
  ).lean();
  if (!user) throw notFound(USER_NOT_FOUND);
  return toPublicUser(user, publicUrl);
}

/**
 * The caller behind a token: only existing, verified accounts may act. Records the caller's
 * activity (for DAU/MAU) at most once per `activityThrottleMs`, so most requests write nothing.
 */
export async function authenticateUser(
  id: number,
  options: { adminUserId: number; activityThrottleMs: number; now?: Date },
): Promise<AuthUser | undefined> {
  const user = await User.findById(id, {
    name: 1,
    email: 1,
    isVerified: 1,
    lastActiveAt: 1,
  }).lean();
  if (!user || !user.isVerified) return undefined;
  const now = options.now ?? new Date();
  const lastActive = user.lastActiveAt?.getTime() ?? 0;
  if (now.getTime() - lastActive >= options.activityThrottleMs) {
    await User.updateOne({ _id: id }, { $set: { lastActiveAt: now } });
  }
  return {
    id: user._id,
    name: user.name,
    email: user.email,
    isAdmin: user._id === options.adminUserId,
  };
}

/**
 * `authenticateUser` behind the app's account cache: a caller seen recently skips the account
 * lookup, a database round trip on every request (see AccountCache for how long and what forgets).
 */
export function createAuthenticator(options: {
  adminUserId: number;
  activityThrottleMs: number;
  accounts: AccountCache;
}): (id: number) => Promise<AuthUser | undefined> {
  const { accounts } = options;
  return async (id) => {
    const hit = accounts.get(id);
    if (hit) return hit;
    const mark = accounts.mark();
    const user = await authenticateUser(id, options);
    if (user) accounts.set(user, mark);
    return user;
  };
}
