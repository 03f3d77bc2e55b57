import {
  callRoutes,
  type Comment,
  type ContentVersion,
  type DeleteCommentResponse,
  type DeletePostResponse,
  type Post,
} from '@campus/contracts';
import { callApi } from '@campus/kit/api';

/**
 * `PUT /api/posts/{id}`: the author replaces the post's text (a quote's comment). `mentions`
 * (issue 40): the members the new text mentions; absent, the API keeps the earlier mentions still
 * in it.
 */
export function editPost(
  postId: number,
  content: string,
  mentions?: readonly number[],
): Promise<Post> {
  return callApi(callRoutes.editPost, {
    params: { id: postId },
    body: { content: content.trim(), ...(mentions ? { mentions: [...mentions] } : {}) },
  });
}

/** `DELETE /api/posts/{id}`: the author only. */
export function deletePost(postId: number): Promise<DeletePostResponse> {
  return callApi(callRoutes.deletePost, { params: { id: postId } });
}

/** `PUT /api/comments/{id}`: the author replaces the comment's text (`mentions` as `editPost`'s). */
export function editComment(
  commentId: number,
  content: string,
  mentions?: readonly number[],
): Promise<Comment> {
  return callApi(callRoutes.editComment, {
    params: { id: commentId },
    body: { content: content.trim(), ...(mentions ? { mentions: [...mentions] } : {}) },
  });
}

/** `DELETE /api/comments/{id}`: the author only; one with replies stays as a placeholder. */
export function deleteComment(commentId: number): Promise<DeleteCommentResponse> {
  return callApi(callRoutes.deleteComment, { params: { id: commentId } });
}

/** Every version of a post's or comment's text, newest first (the current one first). */
export async function fetchVersions(
  kind: 'post' | 'comment',
  id: number,
): Promise<ContentVersion[]> {
  const route = kind === 'post' ? callRoutes.postVersions : callRoutes.commentVersions;
  const { versions } = await callApi(route, { params: { id } });
  return versions;
}
