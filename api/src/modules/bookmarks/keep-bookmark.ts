/**
 * Bookmarking a post and dropping the bookmark (issue 40): idempotent, private to the member.
 * A post the member cannot see (deleted, removed, hidden, or by a member blocked either way) is a
 * 404, as it is everywhere; at most `MAX_BOOKMARKS` per member.
 */
import { MAX_BOOKMARKS, type BookmarkResponse } from '@campus/contracts';
import type { AppContext } from '../../context';
import { badRequest } from '../../platform/errors';
import { postForWriteBy } from '../posts/screen';
import { bookmarksOf } from './model';

export const TOO_MANY_BOOKMARKS = `You can keep at most ${MAX_BOOKMARKS.toLocaleString('en-US')} bookmarks: remove some first`;

export async function bookmarkPost(
  ctx: AppContext,
  userId: number,
  postId: number,
): Promise<BookmarkResponse> {
  await postForWriteBy(ctx, postId, userId);
  const Bookmark = bookmarksOf(ctx);
  if (await Bookmark.exists({ userId, postId })) return { postId, bookmarked: true };
  const id = await ctx.ids.nextId('bookmarks');
  // The member's bookmarks queue up in this process: the count and the insert stay together.
  await ctx.transaction(async () => {
    if ((await Bookmark.countDocuments({ userId })) >= MAX_BOOKMARKS)
      throw badRequest(TOO_MANY_BOOKMARKS);
    const written = await Bookmark.updateOne(
      { userId, postId },
      { $setOnInsert: { _id: id, userId, postId, createdAt: ctx.clock.now() } },
      { upsert: true },
    );
    if (written.upsertedCount > 0) ctx.publish({ type: 'post.bookmarked', postId, userId });
  }, `bookmarks:${userId}`);
  return { postId, bookmarked: true };
}

/** Drops the member's bookmark of a post; a post they never kept and cannot see is a 404. */
export async function unbookmarkPost(
  ctx: AppContext,
  userId: number,
  postId: number,
): Promise<BookmarkResponse> {
  const removed = await ctx.transaction(async () => {
    const gone = await bookmarksOf(ctx).deleteOne({ userId, postId });
    if (gone.deletedCount > 0) ctx.publish({ type: 'post.unbookmarked', postId, userId });
    return gone.deletedCount > 0;
  }, `bookmarks:${userId}`);
  // Nothing was kept: answer as for any post, a 404 when the member cannot see it.
  if (!removed) await postForWriteBy(ctx, postId, userId);
  return { postId, bookmarked: false };
}
