import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import { findRepost, recordRepost } from '../reposts/repost-records';
import { postsOf } from './model';

/**
 * Moderation (issue 38): brings back a post the administrator removed, once its author's appeal
 * was lifted: visible again, and a repost counted in its original again. In the caller's
 * transaction when there is one (`post.restored`). False when there is nothing to restore: the
 * post is not removed, or it is a repost of a post its author has reposted again since.
 */
export async function restorePostByModeration(ctx: AppContext, id: number): Promise<boolean> {
  const post = await postsOf(ctx)
    .findOne(
      { _id: id, deletedAt: trusted({ $ne: null }) },
      { authorId: 1, originalPostId: 1, sharedCommentId: 1 },
    )
    .lean();
  if (!post) return false;
  const originalId =
    post.originalPostId !== null && post.sharedCommentId === null ? post.originalPostId : null;
  if (originalId !== null && (await findRepost(ctx, post.authorId, originalId))) return false;
  return ctx.transaction(
    async () => {
      const restored = await postsOf(ctx).updateOne(
        { _id: id, deletedAt: trusted({ $ne: null }) },
        { $set: { deletedAt: null } },
      );
      if (restored.modifiedCount === 0) return false;
      ctx.publish({ type: 'post.restored', postId: id, authorId: post.authorId });
      if (originalId !== null) {
        await recordRepost(ctx, post.authorId, originalId, id);
        await postsOf(ctx).updateOne({ _id: originalId }, { $inc: { repostsCount: 1 } });
        ctx.publish({
          type: 'post.reposted',
          postId: originalId,
          userId: post.authorId,
          repostPostId: id,
        });
      }
      return true;
    },
    originalId === null ? undefined : `posts:${originalId}`,
  );
}
