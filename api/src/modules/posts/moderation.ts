/** Posts hidden, recounted or removed for good by moderation and account deletion. */
import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import { countCommentsOn } from '../comments/queries';
import { countLikesOn } from '../likes/queries';
import { countRepostsOn } from '../reposts/repost-records';
import { postsOf } from './model';

/**
 * Moderation (admin module): hides every post of a suspended author from every reader, or shows
 * them again on reactivation; in the suspension's transaction, told by `account.suspended` and
 * `account.reactivated`.
 */
export async function setAuthorHidden(
  ctx: AppContext,
  authorId: number,
  hidden: boolean,
): Promise<void> {
  await postsOf(ctx).updateMany(
    { authorId },
    hidden ? { $set: { authorSuspended: true } } : { $unset: { authorSuspended: 1 } },
  );
}

/** Removes posts for good (account deletion; a member's own delete is the soft `deletePost`). */
export async function removePosts(ctx: AppContext, ids: number[]): Promise<void> {
  if (ids.length > 0) await postsOf(ctx).deleteMany({ _id: trusted({ $in: ids }) });
}

/**
 * Sets these posts' likes, comments and reposts counts to what their sources hold, in the
 * caller's transaction (`post.recounted`).
 */
export async function recountPosts(ctx: AppContext, postIds: number[]): Promise<void> {
  const ids = [...new Set(postIds)];
  if (ids.length === 0) return;
  ctx.publish({ type: 'post.recounted', postIds: ids });
  const [likeCounts, commentCounts, repostCounts] = await Promise.all([
    countLikesOn(ctx, 'post', ids),
    countCommentsOn(ctx, ids),
    countRepostsOn(ctx, ids),
  ]);
  await postsOf(ctx).bulkWrite(
    ids.map((id) => ({
      updateOne: {
        filter: { _id: id },
        update: {
          $set: {
            likesCount: likeCounts.get(id) ?? 0,
            commentsCount: commentCounts.get(id) ?? 0,
            repostsCount: repostCounts.get(id) ?? 0,
          },
        },
      },
    })),
  );
}
