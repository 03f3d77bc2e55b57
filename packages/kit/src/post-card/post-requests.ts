import {
  callRoutes,
  type AttachImageRequest,
  type BookmarkResponse,
  type LikeResponse,
  type Post,
  type RepostRequest,
  type UndoRepostResponse,
} from '@campus/contracts';
import { callApi } from '@campus/kit/api';

/** `POST /api/posts/{id}/like`: toggles the viewer's like; the server answers the new state. */
export function togglePostLike(postId: number): Promise<LikeResponse> {
  return callApi(callRoutes.likePost, { params: { id: postId } });
}

/**
 * `POST /api/posts/{id}/repost`. Spec §5: the comment is optional, trimmed, and sent absent when
 * it is empty; a quote's images (issue 39) and the members it mentions (issue 40) likewise.
 * Resolves with the new repost.
 */
export function repostPost(
  postId: number,
  comment?: string,
  images: readonly AttachImageRequest[] = [],
  mentions: readonly number[] = [],
): Promise<Post> {
  const trimmed = comment?.trim();
  const body: RepostRequest = trimmed ? { comment: trimmed } : {};
  if (images.length > 0) body.images = images.map(({ id, alt = '' }) => ({ id, alt }));
  if (trimmed && mentions.length > 0) body.mentions = [...mentions];
  return callApi(callRoutes.repost, { params: { id: postId }, body });
}

/** A repost (or a comment shared to a timeline) quotes another post and cannot be reposted. */
export function isRepost(post: Pick<Post, 'originalPostId'>): boolean {
  return post.originalPostId !== null && post.originalPostId !== undefined;
}

/**
 * What the kit reads of the `DELETE /api/posts/{id}/repost` answer (contracts'
 * UndoRepostResponse): the withdrawn repost and the original's repost count afterwards. An undo
 * request given to the post card or `usePostRepost` answers at least this.
 */
export type UndoneRepost = Pick<UndoRepostResponse, 'repostPostId' | 'repostsCount'>;

/**
 * `DELETE /api/posts/{id}/repost`: withdraws the viewer's plain repost of post `id` (a 404 with
 * the API's message when they have none, e.g. when their repost carries a quote).
 */
export function undoRepost(postId: number): Promise<UndoRepostResponse> {
  return callApi(callRoutes.undoRepost, { params: { id: postId } });
}

/** A comment its author also shared to their timeline: it reads as a comment on the post. */
export function isSharedComment(post: Pick<Post, 'sharedCommentId'>): boolean {
  return post.sharedCommentId !== null && post.sharedCommentId !== undefined;
}

/** A repost without a quote of its own. */
export function isPlainRepost(
  post: Pick<Post, 'originalPostId' | 'repostComment' | 'sharedCommentId'>,
): boolean {
  return isRepost(post) && !isSharedComment(post) && !post.repostComment;
}

/**
 * The post a card's like, comment, repost and opening act on. A plain repost and a shared comment
 * credit their original, so its counts and its thread stay whole; a quote (a repost with a
 * comment of its own) is a post of its own; a repost whose original is gone acts on itself.
 */
export function creditedPost(post: Post): Omit<Post, 'originalPost'> {
  if ((isPlainRepost(post) || isSharedComment(post)) && post.originalPost) return post.originalPost;
  return post;
}

/**
 * `POST` (keep) or `DELETE` (drop) `/api/posts/{id}/bookmark` (issue 40): idempotent, private to
 * the viewer; the server answers the state it now has.
 */
export function setPostBookmark(postId: number, bookmarked: boolean): Promise<BookmarkResponse> {
  return bookmarked
    ? callApi(callRoutes.bookmarkPost, { params: { id: postId } })
    : callApi(callRoutes.unbookmarkPost, { params: { id: postId } });
}
