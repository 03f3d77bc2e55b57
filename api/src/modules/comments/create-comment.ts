import type { Comment as CommentView } from '@campus/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../platform/errors';
import { presentMentions, type StoredMention } from '../mentions/stored';
import { toAuthor } from '../users/presenters';
import { commentsOf, type CommentDoc } from './model';
import { COMMENT_NOT_FOUND, liveComments } from './queries';

/**
 * Stores a comment or a reply under `postId` (which the caller has checked is visible), in the
 * caller's transaction (which moves the post's count). A reply to a reply attaches to the
 * top-level comment (one level). `mentions`: where its @mentions stand (modules/mentions). Returns the comment as clients see it and, for a reply, the
 * author of the comment replied to.
 */
export async function createComment(
  ctx: AppContext,
  authorId: number,
  postId: number,
  input: { content: string; parentId?: number; mentions?: StoredMention[] },
): Promise<{ comment: CommentView; repliedToAuthorId: number | null }> {
  let parent: Pick<CommentDoc, '_id' | 'parentId' | 'authorId'> | null = null;
  if (input.parentId !== undefined) {
    parent = await commentsOf(ctx)
      .findOne({ _id: input.parentId, postId, ...liveComments() }, { parentId: 1, authorId: 1 })
      .lean();
    if (!parent) throw notFound(COMMENT_NOT_FOUND);
    if (parent.parentId !== null) {
      // A reply under a "deleted" placeholder joins the others there.
      parent = await commentsOf(ctx).findById(parent.parentId, { parentId: 1, authorId: 1 }).lean();
      if (!parent) throw notFound(COMMENT_NOT_FOUND);
    }
  }
  const comment = await commentsOf(ctx).create({
    _id: await ctx.ids.nextIdOfBlock('comments'),
    postId,
    authorId,
    parentId: parent?._id ?? null,
    content: input.content,
    ...(input.mentions?.length ? { mentions: input.mentions } : {}),
  });
  ctx.publish({
    type: 'comment.created',
    commentId: comment._id,
    postId,
    authorId,
    parentId: comment.parentId,
  });
  const authors = await ctx.caches.authors.byId([authorId]);
  return {
    comment: {
      id: comment._id,
      content: comment.content,
      createdAt: comment.createdAt.toISOString(),
      author: toAuthor(authorId, authors.get(authorId), ctx.config.publicUrl),
      likesCount: 0,
      isLiked: false,
      ...(input.mentions?.length ? { mentions: presentMentions(input.mentions) } : {}),
      replies: [],
    },
    repliedToAuthorId: parent?.authorId ?? null,
  };
}
