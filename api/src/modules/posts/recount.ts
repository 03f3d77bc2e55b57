import type { AppContext } from '../../context';
import { countCommentsPerPost, storedCommentLikeCounts } from '../comments/queries';
import { countLikesPer } from '../likes/queries';
import { countRepostsPerPost } from '../reposts/repost-records';
import { postsOf } from './model';

export interface CountMismatch {
  collection: 'posts' | 'comments';
  id: number;
  field: 'likesCount' | 'commentsCount' | 'repostsCount';
  stored: number;
  actual: number;
}

/**
 * Recounts every denormalized counter from the source collections (with aggregations in the
 * database) and lists the documents whose stored count differs. Used by tests and benchmarks.
 */
export async function findCountMismatches(
  ctx: Pick<AppContext, 'models'>,
): Promise<CountMismatch[]> {
  const [postLikes, comments, reposts, commentLikes, storedCommentLikes] = await Promise.all([
    countLikesPer(ctx, 'post'),
    countCommentsPerPost(ctx),
    countRepostsPerPost(ctx),
    countLikesPer(ctx, 'comment'),
    storedCommentLikeCounts(ctx),
  ]);
  const mismatches: CountMismatch[] = [];
  const check = (
    collection: CountMismatch['collection'],
    id: number,
    field: CountMismatch['field'],
    stored: number,
    actual: number,
  ) => {
    if (stored !== actual) mismatches.push({ collection, id, field, stored, actual });
  };
  for await (const p of postsOf(ctx)
    .find({}, { likesCount: 1, commentsCount: 1, repostsCount: 1 })
    .lean()
    .cursor()) {
    check('posts', p._id, 'likesCount', p.likesCount, postLikes.get(p._id) ?? 0);
    check('posts', p._id, 'commentsCount', p.commentsCount, comments.get(p._id) ?? 0);
    check('posts', p._id, 'repostsCount', p.repostsCount, reposts.get(p._id) ?? 0);
  }
  for (const [id, stored] of storedCommentLikes) {
    check('comments', id, 'likesCount', stored, commentLikes.get(id) ?? 0);
  }
  return mismatches;
}
