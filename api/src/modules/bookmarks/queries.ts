/** Bookmarks as other modules ask about them: the viewer's flags, and the cascades of deletions. */
import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import { findOneBatch } from '../../platform/one-batch';
import { bookmarksOf } from './model';

/** Which of `postIds` the member bookmarked (one command; the viewer flags of posts). */
export async function bookmarkedPosts(
  ctx: AppContext,
  userId: number,
  postIds: number[],
): Promise<Set<number>> {
  if (postIds.length === 0) return new Set();
  const found = await findOneBatch<{ _id: number; postId: number }>(bookmarksOf(ctx), {
    filter: { userId, postId: { $in: postIds } },
    limit: postIds.length,
    projection: { _id: 1, postId: 1 },
  });
  return new Set(found.map((b) => b.postId));
}

/** A post was deleted (by its author, or removed): its bookmarks go, in the caller's transaction. */
export async function dropBookmarksOfPost(ctx: AppContext, postId: number): Promise<void> {
  await bookmarksOf(ctx).deleteMany({ postId });
}

/**
 * Account deletion (in its transaction): the member's bookmarks, and everyone's bookmarks of the
 * member's posts (`postIds`, which go too).
 */
export async function removeBookmarksOf(
  ctx: AppContext,
  userId: number,
  postIds: number[],
): Promise<void> {
  await bookmarksOf(ctx).deleteMany({ userId });
  if (postIds.length > 0) await bookmarksOf(ctx).deleteMany({ postId: trusted({ $in: postIds }) });
}
