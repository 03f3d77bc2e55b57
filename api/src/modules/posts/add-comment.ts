import type { Comment as CommentView, CreateCommentRequest } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { createComment } from '../comments/create-comment';
import { COMMENT_NOT_FOUND } from '../comments/queries';
import { blockedEitherWay } from '../safety/relations';
import { notFound } from '../../platform/errors';
import { notifyMentions } from '../mentions/notify-mentions';
import { resolveMentions } from '../mentions/resolve-mentions';
import { notify } from '../notifications/notify';
import { postsOf, type PostDoc } from './model';
import { postCreated } from './post-events';
import { postForWriteBy } from './screen';

/**
 * Comments on a visible post (or replies under it). With `syncToTimeline` the comment is also
 * published on the commenter's timeline as a quote of the post: a post with `originalPostId` (the
 * post, or its original when the post is a repost) and the comment as `repostComment`. Notifies
 * the author of the comment replied to and the post's author, each once and never the commenter.
 */
export async function addComment(
  ctx: AppContext,
  actor: AuthUser,
  postId: number,
  input: CreateCommentRequest,
): Promise<CommentView> {
  const post = await postForWriteBy(ctx, postId, actor.id);
  const mentions = await resolveMentions(ctx, actor.id, input.content, input.mentions);
  // The comment, the post's count and the shared copy: all or nothing.
  // The comment, the post's count, the shared copy and the notifications: all or nothing.
  const { comment } = await ctx.transaction(async () => {
    // The count first: the document concurrent comments contend for (likes/toggle-like.ts); a
    // missing parent comment (404) rolls it back.
    await postsOf(ctx).updateOne({ _id: postId }, { $inc: { commentsCount: 1 } });
    const created = await createComment(ctx, actor.id, postId, { ...input, mentions });
    const originalPostId = post.originalPostId ?? postId;
    if (input.syncToTimeline) {
      const shared = (
        await postsOf(ctx).create({
          _id: await ctx.ids.nextId('posts'),
          authorId: actor.id,
          content: '',
          originalPostId,
          repostComment: created.comment.content,
          sharedCommentId: created.comment.id,
          // The same text: the same mentions (notified once, for the comment).
          ...(mentions.length ? { mentions } : {}),
        })
      ).toObject();
      ctx.publish(postCreated(shared, await authorOf(ctx, shared.originalPostId, post)));
    }
    const commentId = created.comment.id;
    const notified = new Set<number>([actor.id]);
    const { repliedToAuthorId } = created;
    // A reply to a member blocked either way: their comment reads as unavailable (rolled back).
    if (repliedToAuthorId !== null && (await blockedEitherWay(ctx, actor.id, repliedToAuthorId)))
      throw notFound(COMMENT_NOT_FOUND);
    if (repliedToAuthorId !== null && !notified.has(repliedToAuthorId)) {
      notified.add(repliedToAuthorId);
      await notify(ctx, 'reply', repliedToAuthorId, { actorId: actor.id, postId, commentId });
    }
    if (!notified.has(post.authorId)) {
      notified.add(post.authorId);
      await notify(ctx, 'comment', post.authorId, { actorId: actor.id, postId, commentId });
    }
    // Members notified above already know of the comment: no mention notification as well.
    await notifyMentions(ctx, {
      writerId: actor.id,
      postId,
      commentId,
      mentions,
      shownWith: [post.authorId, await authorOf(ctx, originalPostId, post)],
      notified,
    });
    return created;
  }, `posts:${postId}`);
  return comment;
}

/** The author of `originalId`: `post`'s own when it is `post`, else read from the feed cache. */
async function authorOf(
  ctx: AppContext,
  originalId: number | null | undefined,
  post: PostDoc,
): Promise<number | null> {
  if (!originalId) return null;
  if (originalId === post._id) return post.authorId;
  return (await ctx.caches.feed.postsById([originalId])).get(originalId)?.authorId ?? null;
}
