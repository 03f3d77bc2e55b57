import type { LikeResponse, Post, RepostRequest } from '@campus/contracts';
import { apiRequest } from '@campus/kit/api';

/** `POST /api/posts/{id}/like`: toggles the viewer's like; the server answers the new state. */
export function togglePostLike(postId: number): Promise<LikeResponse> {
  return apiRequest<LikeResponse>(`/api/posts/${postId}/like`, { method: 'POST' });
}

/**
 * `POST /api/posts/{id}/repost`. Spec §5: the comment is optional, trimmed, and sent absent when
 * it is empty. Resolves with the new repost.
 */
export function repostPost(postId: number, comment?: string): Promise<Post> {
  const trimmed = comment?.trim();
  const body: RepostRequest = trimmed ? { comment: trimmed } : {};
  return apiRequest<Post>(`/api/posts/${postId}/repost`, { method: 'POST', body });
}

/** A repost (or a comment shared to a timeline) quotes another post and cannot be reposted. */
export function isRepost(post: Pick<Post, 'originalPostId'>): boolean {
  return post.originalPostId !== null && post.originalPostId !== undefined;
}
