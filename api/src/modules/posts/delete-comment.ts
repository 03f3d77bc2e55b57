import type { DeleteCommentResponse } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { forbidden, notFound } from '../../platform/errors';
import { dropBookmarksOfPost } from '../bookmarks/queries';
import { deleteCommentForAuthor, findLiveComment } from '../comments/own-comments';
import { commentPolicy } from '../comments/policy';
import { COMMENT_NOT_FOUND } from '../comments/queries';
import { withdrawCommentNotifications } from '../notifications/withdraw-for-comments';
import { eraseVersions } from '../versions/versions';
import { postsOf } from './model';
import { isPostVisible, POST_NOT_FOUND } from './queries';

/**
 * Its author deletes a comment or reply. In one transaction: the post's comments count moves
 * down by one; a top-level comment with replies stays as a "deleted" placeholder (the replies
 * keep their place), any other goes; its earlier versions are erased; its copy shared to the
 * author's timeline is deleted; the notifications about it are withdrawn.
 */
export async function deleteOwnComment(
  ctx: AppContext,
  actor: AuthUser,
  id: number,
): Promise<DeleteCommentResponse> {
  const comment = await findLiveComment(ctx, id);
  if (!comment || !(await isPostVisible(ctx, comment.postId))) throw notFound(COMMENT_NOT_FOUND);
  if (!commentPolicy.canChange(actor, comment)) {
    throw forbidden('You can only delete your own comments');
  }
  const { postId } = comment;
  return ctx.transaction(async () => {
    // The count first: the document concurrent comments contend for (likes/toggle-like.ts).
    const post = await postsOf(ctx)
      .findOneAndUpdate(
        { _id: postId, deletedAt: null },
        { $inc: { commentsCount: -1 } },
        { returnDocument: 'after', projection: { commentsCount: 1 } },
      )
      .lean();
    if (!post) throw notFound(POST_NOT_FOUND);
    const now = ctx.clock.now();
    // A 404 here (deleted concurrently) rolls the count back.
    const deleted = await deleteCommentForAuthor(ctx, comment, now);
    if (!deleted) throw notFound(COMMENT_NOT_FOUND);
    await eraseVersions(ctx, 'comment', [id]);
    const copy = await postsOf(ctx)
      .findOneAndUpdate(
        { sharedCommentId: id, deletedAt: null },
        { $set: { deletedAt: now } },
        { projection: { _id: 1 } },
      )
      .lean();
    if (copy) {
      ctx.publish({ type: 'post.deleted', postId: copy._id, authorId: actor.id });
      await dropBookmarksOfPost(ctx, copy._id);
    }
    await withdrawCommentNotifications(ctx, [id]);
    ctx.publish({
      type: 'comment.deleted',
      commentId: id,
      postId,
      authorId: actor.id,
      parentId: comment.parentId,
      placeholder: deleted.placeholder,
      alsoGone: deleted.alsoGone,
    });
    return {
      id,
      postId,
      deleted: true as const,
      placeholder: deleted.placeholder,
      commentsCount: post.commentsCount,
    };
  }, `posts:${postId}`);
}
