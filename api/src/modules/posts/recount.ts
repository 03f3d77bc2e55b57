import { Comment } from '../comments/model';
import { Like } from '../likes/model';
import { Repost } from '../reposts/model';
import { Post } from './model';

export interface CountMismatch {
  collection: 'posts' | 'comments';
  id: number;
  field: 'likesCount' | 'commentsCount' | 'repostsCount';
  stored: number;
  actual: number;
}

async function grouped(
  rows: Promise<Array<{ _id: number | null; n: number }>>,
): Promise<Map<number, number>> {
  return new Map((await rows).filter((r) => r._id !== null).map((r) => [r._id as number, r.n]));
}

/**
 * Recounts every denormalized counter from the source collections (with aggregations in the
 * database) and lists the documents whose stored count differs. Used by tests and benchmarks.
 */
export async function findCountMismatches(): Promise<CountMismatch[]> {
  const count = { $group: { _id: '$key', n: { $sum: 1 } } };
  const [postLikes, comments, reposts, commentLikes] = await Promise.all([
    grouped(
      Like.aggregate([{ $match: { commentId: null } }, { $project: { key: '$postId' } }, count]),
    ),
    grouped(Comment.aggregate([{ $project: { key: '$postId' } }, count])),
    grouped(Repost.aggregate([{ $project: { key: '$postId' } }, count])),
    grouped(
      Like.aggregate([{ $match: { postId: null } }, { $project: { key: '$commentId' } }, count]),
    ),
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
  for await (const c of Comment.find({}, { likesCount: 1 }).lean().cursor()) {
    check('comments', c._id, 'likesCount', c.likesCount, commentLikes.get(c._id) ?? 0);
  }
  return mismatches;
}
