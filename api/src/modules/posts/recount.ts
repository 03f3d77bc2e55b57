import type { CommentService } from '../comments/service';
import type { LikeService } from '../likes/service';
import type { RepostService } from '../reposts/service';
import type { PostModel } from './model';

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
export async function findCountMismatches({
  models: { Post },
  comments: { countCommentsPerPost, storedCommentLikeCounts },
  likes: { countLikesPer },
  reposts: { countRepostsPerPost },
}: {
  models: { Post: PostModel };
  comments: Pick<CommentService, 'countCommentsPerPost' | 'storedCommentLikeCounts'>;
  likes: Pick<LikeService, 'countLikesPer'>;
  reposts: Pick<RepostService, 'countRepostsPerPost'>;
}): Promise<CountMismatch[]> {
  const [postLikes, comments, reposts, commentLikes, storedCommentLikes] = await Promise.all([
    countLikesPer('post'),
    countCommentsPerPost(),
    countRepostsPerPost(),
    countLikesPer('comment'),
    storedCommentLikeCounts(),
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
  for await (const p of Post.find({}, { likesCount: 1, commentsCount: 1, repostsCount: 1 })
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
