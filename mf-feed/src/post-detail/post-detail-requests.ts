import type { Comment, CreateCommentRequest, LikeResponse } from '@campus/contracts';
import { apiRequest } from '@campus/kit/api';

/** `POST /api/posts/{id}/comments`; spec §5: content trimmed, replies never go to the timeline. */
export function createComment(postId: number, payload: CreateCommentRequest): Promise<Comment> {
  return apiRequest<Comment>(`/api/posts/${postId}/comments`, {
    method: 'POST',
    body: { ...payload, content: payload.content.trim() },
  });
}

/** `POST /api/comments/{id}/like`: a toggle, answered with `{ liked, likesCount }`. */
export function toggleCommentLike(commentId: number): Promise<LikeResponse> {
  return apiRequest<LikeResponse>(`/api/comments/${commentId}/like`, { method: 'POST' });
}

/** `DELETE /api/posts/{id}`: the author only. */
export function deletePost(postId: number): Promise<unknown> {
  return apiRequest(`/api/posts/${postId}`, { method: 'DELETE' });
}
