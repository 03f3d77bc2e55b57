import type { Profile } from '@campus/contracts';
import { followSummary } from '../follows/service';
import type { PostReads } from '../posts/presenters';
import { listProfilePosts } from '../posts/service';
import { toPublicUser } from '../users/presenters';
import { findPublicUser } from '../users/service';

/**
 * A profile (spec §3): the user, their follow counts, whether the viewer follows them and their
 * profile posts. It sits above users, follows and posts, so none of those depends on another.
 */
export async function getProfile(
  userId: number,
  viewerId: number,
  reads: PostReads,
): Promise<Profile> {
  const user = await findPublicUser(userId);
  const [follows, posts] = await Promise.all([
    followSummary(userId, viewerId),
    listProfilePosts(userId, viewerId, reads),
  ]);
  return { ...toPublicUser(user, reads.publicUrl), ...follows, posts };
}
