/** Comments hidden, removed or recounted by moderation and account deletion. */
import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import { countLikesOn } from '../likes/queries';
import { commentsOf } from './model';

/**
 * Moderation: hides every comment of a suspended author, or shows them again on reactivation
 * (in the suspension's transaction, told by its event). Counts stay: the comments are hidden,
 * not removed.
 */
export async function setAuthorHidden(
  ctx: AppContext,
  authorId: number,
  hidden: boolean,
): Promise<void> {
  await commentsOf(ctx).updateMany(
    { authorId },
    hidden ? { $set: { authorSuspended: true } } : { $unset: { authorSuspended: 1 } },
  );
}

/**
 * Moderation: soft-deletes a comment the administrator removed after reports, with its replies
 * (shown under it only). The caller recounts the post's comments (counted without removed ones)
 * in the same transaction. Null when the comment does not exist or was already removed.
 */
export async function removeCommentByModeration(
  ctx: AppContext,
  id: number,
  now: Date,
): Promise<{ postId: number; commentIds: number[] } | null> {
  const comment = await commentsOf(ctx)
    .findOneAndUpdate(
      { _id: id, deletedAt: null },
      { $set: { deletedAt: now } },
      { projection: { postId: 1 } },
    )
    .lean();
  if (!comment) return null;
  const replies = await commentsOf(ctx).find({ parentId: id, deletedAt: null }, { _id: 1 }).lean();
  const replyIds = replies.map((r) => r._id);
  if (replyIds.length > 0) {
    await commentsOf(ctx).updateMany(
      { _id: trusted({ $in: replyIds }) },
      { $set: { deletedAt: now } },
    );
  }
  const commentIds = [id, ...replyIds];
  ctx.publish({ type: 'comment.removed', commentIds, postId: comment.postId });
  return { postId: comment.postId, commentIds };
}

/**
 * Moderation (issue 38): brings back comments the administrator removed (a comment and the
 * replies removed with it), once the author's appeal was lifted. The caller recounts the post's
 * comments in the same transaction. Null when none of them was removed.
 */
export async function restoreCommentsByModeration(
  ctx: AppContext,
  commentIds: number[],
): Promise<{ postId: number; commentIds: number[] } | null> {
  const ids = [...new Set(commentIds)];
  if (ids.length === 0) return null;
  const removed = await commentsOf(ctx)
    .find({ _id: trusted({ $in: ids }), deletedAt: trusted({ $ne: null }) }, { postId: 1 })
    .lean();
  if (removed.length === 0) return null;
  const restoredIds = removed.map((c) => c._id);
  await commentsOf(ctx).updateMany(
    { _id: trusted({ $in: restoredIds }) },
    { $set: { deletedAt: null } },
  );
  const postId = removed[0]!.postId;
  ctx.publish({ type: 'comment.restored', commentIds: restoredIds, postId });
  return { postId, commentIds: restoredIds };
}

/**
 * Account deletion: removes the member's comments, every comment on the given posts (theirs,
 * going too) and the replies to all of these. Answers the removed comments and the posts they
 * were on (whose counts the caller recounts).
 */
export async function removeCommentsOf(
  ctx: AppContext,
  userId: number,
  postIds: number[],
): Promise<{ commentIds: number[]; postIds: number[] }> {
  const direct = await commentsOf(ctx)
    .find(
      postIds.length > 0
        ? { $or: [{ authorId: userId }, { postId: trusted({ $in: postIds }) }] }
        : { authorId: userId },
      { postId: 1 },
    )
    .lean();
  const replies =
    direct.length > 0
      ? await commentsOf(ctx)
          .find({ parentId: trusted({ $in: direct.map((c) => c._id) }) }, { postId: 1 })
          .lean()
      : [];
  const removed = [...direct, ...replies];
  const commentIds = [...new Set(removed.map((c) => c._id))];
  if (commentIds.length > 0)
    await commentsOf(ctx).deleteMany({ _id: trusted({ $in: commentIds }) });
  return { commentIds, postIds: [...new Set(removed.map((c) => c.postId))] };
}

/** Sets these comments' likesCount to their likes, counted. */
export async function recountCommentLikes(ctx: AppContext, commentIds: number[]): Promise<void> {
  const ids = [...new Set(commentIds)];
  if (ids.length === 0) return;
  const counts = await countLikesOn(ctx, 'comment', ids);
  await commentsOf(ctx).bulkWrite(
    ids.map((id) => ({
      updateOne: { filter: { _id: id }, update: { $set: { likesCount: counts.get(id) ?? 0 } } },
    })),
  );
}
