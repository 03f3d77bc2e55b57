import type { Comment as CommentView, EditCommentRequest } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { forbidden, notFound } from '../../platform/errors';
import { presentComment } from '../comments/list-comments';
import { findLiveComment, rewriteComment } from '../comments/own-comments';
import { commentPolicy } from '../comments/policy';
import { COMMENT_NOT_FOUND } from '../comments/queries';
import { likedComments } from '../likes/queries';
import { toAuthor } from '../users/presenters';
import { keepEarlierVersion } from '../versions/versions';
import { postsOf } from './model';
import { isPostVisible } from './queries';

/**
 * Its author replaces a comment's (or reply's) text: the earlier text is kept as a version, the
 * comment is marked edited, its likes stay, and its copy shared to the author's timeline (if
 * any) shows the new text. The same text again changes nothing. Answers the comment without its
 * replies.
 */
export async function editOwnComment(
  ctx: AppContext,
  actor: AuthUser,
  id: number,
  input: EditCommentRequest,
): Promise<CommentView> {
  const comment = await findLiveComment(ctx, id);
  if (!comment || !(await isPostVisible(ctx, comment.postId))) throw notFound(COMMENT_NOT_FOUND);
  if (!commentPolicy.canChange(actor, comment)) {
    throw forbidden('You can only edit your own comments');
  }
  const content = input.content.trim();
  const edited =
    content === comment.content
      ? comment
      : await ctx.transaction(async () => {
          const stored = await findLiveComment(ctx, id);
          if (!stored) throw notFound(COMMENT_NOT_FOUND);
          const now = ctx.clock.now();
          await keepEarlierVersion(ctx, 'comment', id, {
            content: stored.content,
            writtenAt: stored.editedAt ?? stored.createdAt,
          });
          const updated = await rewriteComment(ctx, id, content, now);
          if (!updated) throw notFound(COMMENT_NOT_FOUND);
          const copy = await postsOf(ctx)
            .findOneAndUpdate(
              { sharedCommentId: id, deletedAt: null },
              { $set: { repostComment: content, editedAt: now } },
              { projection: { _id: 1 } },
            )
            .lean();
          if (copy) ctx.publish({ type: 'post.edited', postId: copy._id, authorId: actor.id });
          ctx.publish({
            type: 'comment.edited',
            commentId: id,
            postId: comment.postId,
            authorId: actor.id,
          });
          return updated;
        });
  const [authors, liked] = await Promise.all([
    ctx.caches.authors.byId([actor.id]),
    likedComments(ctx, actor.id, [id]),
  ]);
  const author = toAuthor(actor.id, authors.get(actor.id), ctx.config.publicUrl);
  return presentComment(edited, author, liked.has(id));
}
