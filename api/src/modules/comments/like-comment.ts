import type { AppContext } from '../../context';
import { notFound } from '../../platform/errors';
import { countedLikes, toggleLike, type LikeResult } from '../likes/toggle-like';
import { isPostVisible } from '../posts/queries';
import { blockedEitherWay } from '../safety/relations';
import { commentsOf } from './model';
import { COMMENT_NOT_FOUND, liveComments } from './queries';

/**
 * Likes or unlikes a comment. A comment under a deleted post is "not found": whether a post is
 * visible is the posts module's to say.
 */
export async function toggleCommentLike(
  ctx: AppContext,
  userId: number,
  commentId: number,
): Promise<LikeResult> {
  const comment = await commentsOf(ctx)
    .findOne({ _id: commentId, ...liveComments() }, { postId: 1, authorId: 1 })
    .lean();
  if (!comment || !(await isPostVisible(ctx, comment.postId))) throw notFound(COMMENT_NOT_FOUND);
  // A comment by a member blocked either way reads as unavailable.
  if (await blockedEitherWay(ctx, userId, comment.authorId)) throw notFound(COMMENT_NOT_FOUND);
  const { postId } = comment;
  const counter = countedLikes(commentsOf(ctx), commentId, {
    event: (liked) => ({
      type: liked ? 'comment.liked' : 'comment.unliked',
      commentId,
      postId,
      userId,
    }),
  });
  const { liked, likesCount } = await toggleLike(
    ctx,
    userId,
    { kind: 'comment', id: commentId },
    counter,
  );
  return { liked, likesCount };
}
