import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { forbidden, HttpError, notFound } from '../../platform/errors';
import { dropBookmarksOfPost } from '../bookmarks/queries';
import { withdrawPostMentions } from '../mentions/notify-mentions';
import { carriesRepost, withdrawRepost } from '../reposts/repost-records';
import { postsOf } from './model';
import { postPolicy } from './policy';
import { findVisiblePost, POST_NOT_FOUND } from './queries';

/**
 * Soft-deletes the actor's own post; deleting a plain or quoted repost withdraws it from the
 * original's count, in the same transaction, as are its bookmarks and the notifications of the
 * mentions in it and under it.
 */
export async function deletePost(ctx: AppContext, actor: AuthUser, id: number): Promise<void> {
  const post = await findVisiblePost(ctx, id, { includeHidden: true });
  if (!postPolicy.canDelete(actor, post)) throw forbidden('You can only delete your own posts');
  // A repost (plain or quoted) counts in its original's repostsCount while its record exists.
  const originalId =
    post.originalPostId !== null && post.sharedCommentId === null && (await carriesRepost(ctx, id))
      ? post.originalPostId
      : null;
  await ctx.transaction(
    async () => {
      // The original's count first: the document concurrent reposts contend for (likes/toggle-like.ts).
      if (originalId !== null) {
        await postsOf(ctx).updateOne({ _id: originalId }, { $inc: { repostsCount: -1 } });
      }
      const marked = await postsOf(ctx).updateOne(
        { _id: id, deletedAt: null },
        // Its images go (modules/media/janitor.ts deletes their files on `post.deleted`): a
        // post restored after an appeal comes back without them.
        { $set: { deletedAt: new Date() }, $unset: { images: 1 } },
      );
      if (marked.modifiedCount === 0) throw notFound(POST_NOT_FOUND); // deleted concurrently
      ctx.publish({ type: 'post.deleted', postId: id, authorId: post.authorId });
      // Nothing is left to keep or to be mentioned in (issue 40).
      await dropBookmarksOfPost(ctx, id);
      await withdrawPostMentions(ctx, id);
      // The record goes only with its post (here or undoRepost, which mark the post first).
      if (originalId !== null) {
        if (!(await withdrawRepost(ctx, id))) throw notFound(POST_NOT_FOUND);
        ctx.publish({
          type: 'post.unreposted',
          postId: originalId,
          userId: post.authorId,
          repostPostId: id,
        });
      }
    },
    originalId === null ? undefined : `posts:${originalId}`,
  );
}

/**
 * Moderation: soft-deletes a post the administrator removed after reports, through the author's
 * own delete path (the same counts move). False when it was already deleted.
 */
export async function removePostByModeration(ctx: AppContext, id: number): Promise<boolean> {
  const post = await postsOf(ctx).findOne({ _id: id, deletedAt: null }, { authorId: 1 }).lean();
  if (!post) return false;
  try {
    await deletePost(ctx, { id: post.authorId, name: '', email: '', roles: ['member'] }, id);
  } catch (err) {
    if (err instanceof HttpError && err.status === 404) return false; // deleted meanwhile
    throw err;
  }
  return true;
}
