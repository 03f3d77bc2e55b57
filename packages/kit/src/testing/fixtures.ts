import type { Post } from '@campus/contracts';
import type { SessionUser } from '@campus/kit/api';

export const ADA: SessionUser = {
  id: 1,
  name: 'Ada Okafor',
  email: 'ada.okafor@campus.edu',
  avatarUrl: null,
};
export const BEN: SessionUser = {
  id: 2,
  name: 'Ben Larsen',
  email: 'ben.larsen@campus.edu',
  avatarUrl: null,
};

let nextPostId = 1000;

/** A post by Ben with no engagement, not deletable by the viewer; every call gets a new id unless `overrides.id` is given. */
export function makePost(overrides: Partial<Post> = {}): Post {
  const id = overrides.id ?? nextPostId++;
  return {
    id,
    content: `Post number ${id}`,
    createdAt: new Date().toISOString(),
    isJdTagged: false,
    likesCount: 0,
    repostsCount: 0,
    commentsCount: 0,
    isLiked: false,
    isReposted: false,
    canDelete: false,
    author: BEN,
    originalPostId: null,
    repostComment: null,
    originalPost: null,
    ...overrides,
  };
}

/** `count` distinct posts. */
export const makePosts = (count: number) => Array.from({ length: count }, () => makePost());

/** The `GET /api/users/{id}` profile of `user` (joined 90 days ago, no follows, no posts). */
export function profileOf(user: SessionUser, extra: Record<string, unknown> = {}) {
  return {
    ...user,
    bio: '',
    createdAt: new Date(Date.now() - 90 * 24 * 3600 * 1000).toISOString(),
    followingCount: 0,
    followersCount: 0,
    isFollowing: false,
    posts: [],
    ...extra,
  };
}
