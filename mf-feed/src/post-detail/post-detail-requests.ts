import {
  callRoutes,
  type Comment,
  type CreateCommentRequest,
  type DeletePostResponse,
  type LikeResponse,
} from '@campus/contracts';
import { callApi } from '@campus/kit/api';

/** `POST /api/posts/{id}/comments`; spec §5: content trimmed, replies never go to the timeline. */
export function createComment(postId: number, payload: CreateCommentRequest): Promise<Comment> {
  return callApi(callRoutes.addComment, {
    params: { id: postId },
    body: { ...payload, content: payload.content.trim() },
  });
}

/** `POST /api/comments/{id}/like`: a toggle, answered with `{ liked, likesCount }`. */
export function toggleCommentLike(commentId: number): Promise<LikeResponse> {
  return callApi(callRoutes.likeComment, { params: { id: commentId } });
}

/** `DELETE /api/posts/{id}`: the author only. */
export function deletePost(postId: number): Promise<DeletePostResponse> {
  return callApi(callRoutes.deletePost, { params: { id: postId } });
}
