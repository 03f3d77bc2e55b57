import type { Profile } from '@campus/contracts';
import type { AppContext } from '../../context';
import { followSummary } from '../follows/queries';
import { listProfilePosts } from '../posts/post-detail';
import { toPublicUser } from '../users/presenters';
import { blockedEitherWay } from '../safety/relations';
import { findPublicUser, USER_NOT_FOUND } from '../users/queries';
import { notFound } from '../../platform/errors';

/**
 * A profile (spec §3): the user, their follow counts, whether the viewer follows them and their
 * profile posts. It sits above users, follows and posts, so none of those depends on another.
 */
export async function getProfile(
  ctx: AppContext,
  userId: number,
  viewerId: number,
): Promise<Profile> {
  // Blocked either way: the profile reads as unavailable, to both (the blocked is not told).
  if (await blockedEitherWay(ctx, viewerId, userId)) throw notFound(USER_NOT_FOUND);
  const user = await findPublicUser(ctx, userId);
  const [follows, posts] = await Promise.all([
    followSummary(ctx, userId, viewerId),
    listProfilePosts(ctx, userId, viewerId),
  ]);
  return { ...toPublicUser(user, ctx.config.publicUrl), ...follows, posts };
}
