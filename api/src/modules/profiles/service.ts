import type { Profile } from '@campus/contracts';
import type { FollowService } from '../follows/service';
import type { PostReads } from '../posts/presenters';
import type { PostService } from '../posts/service';
import { toPublicUser } from '../users/presenters';
import type { UserService } from '../users/service';

export interface ProfileServiceDeps {
  follows: FollowService;
  posts: PostService;
  users: UserService;
}

export function createProfileService({ follows, posts, users }: ProfileServiceDeps) {
  const { followSummary } = follows;
  const { listProfilePosts } = posts;
  const { findPublicUser } = users;

  /**
   * A profile (spec §3): the user, their follow counts, whether the viewer follows them and their
   * profile posts. It sits above users, follows and posts, so none of those depends on another.
   */
  async function getProfile(userId: number, viewerId: number, reads: PostReads): Promise<Profile> {
    const user = await findPublicUser(userId);
    const [follows, posts] = await Promise.all([
      followSummary(userId, viewerId),
      listProfilePosts(userId, viewerId, reads),
    ]);
    return { ...toPublicUser(user, reads.publicUrl), ...follows, posts };
  }

  return { getProfile };
}

export type ProfileService = ReturnType<typeof createProfileService>;
