import type { Comment as CommentView, EditCommentRequest } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { forbidden, notFound } from '../../platform/errors';
import { presentComment } from '../comments/list-comments';
import { findLiveComment, rewriteComment } from '../comments/own-comments';
import { commentPolicy } from '../comments/policy';
import { COMMENT_NOT_FOUND } from '../comments/queries';
import { likedComments } from '../likes/queries';
import { notifyMentions } from '../mentions/notify-mentions';
import { resolveMentions, sameMentions } from '../mentions/resolve-mentions';
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
  // The mentions of the new text (modules/mentions): those picked, or the earlier ones still there.
  const mentions = await resolveMentions(ctx, actor.id, content, input.mentions, {
    text: comment.content,
    mentions: comment.mentions,
  });
  const edited =
    content === comment.content && sameMentions(mentions, comment.mentions)
      ? comment
      : await ctx.transaction(async () => {
          const stored = await findLiveComment(ctx, id);
          if (!stored) throw notFound(COMMENT_NOT_FOUND);
          // A new text is an edit, with a version; the same text with mentions picked again is not.
          const newText = stored.content !== content;
          const edit = newText ? { editedAt: ctx.clock.now() } : {};
          if (newText) {
            await keepEarlierVersion(ctx, 'comment', id, {
              content: stored.content,
              writtenAt: stored.editedAt ?? stored.createdAt,
            });
          }
          const updated = await rewriteComment(ctx, id, content, edit.editedAt, mentions);
          if (!updated) throw notFound(COMMENT_NOT_FOUND);
          const copy = await postsOf(ctx)
            .findOneAndUpdate(
              { sharedCommentId: id, deletedAt: null },
              mentions.length
                ? { $set: { repostComment: content, ...edit, mentions } }
                : { $set: { repostComment: content, ...edit }, $unset: { mentions: 1 } },
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
          // Only members not notified for this comment before (the registry's key).
          if (mentions.length) {
            const post = (await ctx.caches.feed.postsById([comment.postId])).get(comment.postId);
            await notifyMentions(ctx, {
              writerId: actor.id,
              postId: comment.postId,
              commentId: id,
              mentions,
              shownWith: [post?.authorId, await originalAuthorOf(ctx, post?.originalPostId)],
            });
          }
          return updated;
        });
  const [authors, liked] = await Promise.all([
    ctx.caches.authors.byId([actor.id]),
    likedComments(ctx, actor.id, [id]),
  ]);
  const author = toAuthor(actor.id, authors.get(actor.id), ctx.config.publicUrl);
  return presentComment(edited, author, liked.has(id));
}

/** The author of the post `originalPostId` names, if any. */
async function originalAuthorOf(
  ctx: AppContext,
  originalPostId: number | null | undefined,
): Promise<number | null> {
  if (!originalPostId) return null;
  const found = await ctx.caches.feed.postsById([originalPostId]);
  return found.get(originalPostId)?.authorId ?? null;
}
