/** Which posts and comments members liked, and how many likes there are. */
import type { AppContext } from '../../context';
import { findOneBatch } from '../../platform/one-batch';
import { likesOf } from './model';
import type { LikeTarget } from './toggle-like';

/**
 * Which of `postIds` the user has liked: each liked post's id with its like's `_id` (a kept
 * flag names the like it depends on, so that an unlike known only by `_id` finds its member).
 */
export async function likedPosts(
  ctx: AppContext,
  userId: number,
  postIds: number[],
): Promise<Map<number, number>> {
  // Every feed page without its caches asks this: one command (a filter of numbers needs no
  // casting, and ids need no mongoose query or documents); at most one like per post.
  const likes = await findOneBatch<{ _id: number; postId: number }>(likesOf(ctx), {
    filter: { userId, postId: { $in: postIds }, commentId: null },
    limit: postIds.length,
    projection: { _id: 1, postId: 1 },
  });
  return new Map(likes.map((l) => [l.postId, l._id]));
}

/** Which of `commentIds` the user has liked: each liked comment's id with its like's `_id`. */
export async function likedComments(
  ctx: AppContext,
  userId: number,
  commentIds: number[],
): Promise<Map<number, number>> {
  // Every post detail and comment page without its caches asks this: one command, as
  // likedPosts; at most one like per comment.
  const likes = await findOneBatch<{ _id: number; commentId: number }>(likesOf(ctx), {
    filter: { userId, postId: null, commentId: { $in: commentIds } },
    limit: commentIds.length,
    projection: { _id: 1, commentId: 1 },
  });
  return new Map(likes.map((l) => [l.commentId, l._id]));
}

/** How many likes each post (or comment) has, counted from the likes themselves. */
export async function countLikesPer(
  ctx: Pick<AppContext, 'models'>,
  kind: LikeTarget['kind'],
): Promise<Map<number, number>> {
  const [field, other] = kind === 'post' ? ['postId', 'commentId'] : ['commentId', 'postId'];
  const rows = await likesOf(ctx).aggregate<{ _id: number | null; n: number }>([
    { $match: { [other]: null } },
    { $group: { _id: `$${field}`, n: { $sum: 1 } } },
  ]);
  return new Map(rows.filter((r) => r._id !== null).map((r) => [r._id as number, r.n]));
}

/** All likes, of posts and comments (analytics). */
export function countAllLikes(ctx: AppContext): Promise<number> {
  return likesOf(ctx).estimatedDocumentCount();
}

/** How many likes each of these posts (or comments) has. */
export async function countLikesOn(
  ctx: AppContext,
  kind: LikeTarget['kind'],
  ids: number[],
): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const field = kind === 'post' ? 'postId' : 'commentId';
  const rows = await likesOf(ctx).aggregate<{ _id: number; n: number }>([
    { $match: { [field]: { $in: ids } } },
    { $group: { _id: `$${field}`, n: { $sum: 1 } } },
  ]);
  return new Map(rows.map((r) => [r._id, r.n]));
}
