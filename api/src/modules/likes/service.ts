import type { Model } from 'mongoose';
import { notFound } from '../../platform/errors';
import { isDuplicateKey } from '../../platform/mongo-errors';
import { Comment } from '../comments/model';
import { nextId } from '../counters/model';
import { notify } from '../notifications/service';
import { Post } from '../posts/model';
import { POST_NOT_FOUND } from '../posts/service';
import { Like } from './model';

export interface LikeResult {
  liked: boolean;
  likesCount: number;
}

type Target = { kind: 'post'; id: number } | { kind: 'comment'; id: number };

function likeKey(userId: number, target: Target) {
  return target.kind === 'post'
    ? { userId, postId: target.id, commentId: null }
    : { userId, postId: null, commentId: target.id };
}

/**
 * Likes or unlikes. The like document's unique index decides races (a second like by the same
 * user loses with E11000 and changes nothing); the target's likesCount moves with `$inc`, so it
 * stays exact under any number of concurrent toggles.
 */
async function toggle(
  userId: number,
  target: Target,
  counter: Model<{ _id: number; likesCount: number }>,
): Promise<{ liked: boolean; likesCount: number; changed: boolean }> {
  const key = likeKey(userId, target);
  const removed = await Like.deleteOne(key);
  if (removed.deletedCount === 1) {
    const after = await counter
      .findOneAndUpdate(
        { _id: target.id },
        { $inc: { likesCount: -1 } },
        { returnDocument: 'after', projection: { likesCount: 1 } },
      )
      .lean();
    return { liked: false, likesCount: after?.likesCount ?? 0, changed: true };
  }
  try {
    await Like.create({ _id: await nextId('likes'), ...key });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const current = await counter.findById(target.id, { likesCount: 1 }).lean();
    return { liked: true, likesCount: current?.likesCount ?? 0, changed: false };
  }
  const after = await counter
    .findOneAndUpdate(
      { _id: target.id },
      { $inc: { likesCount: 1 } },
      { returnDocument: 'after', projection: { likesCount: 1 } },
    )
    .lean();
  return { liked: true, likesCount: after?.likesCount ?? 0, changed: true };
}

export async function togglePostLike(userId: number, postId: number): Promise<LikeResult> {
  const post = await Post.findOne({ _id: postId, deletedAt: null }, { authorId: 1 }).lean();
  if (!post) throw notFound(POST_NOT_FOUND);
  const result = await toggle(userId, { kind: 'post', id: postId }, Post as never);
  if (result.liked && result.changed && post.authorId !== userId) {
    // One notification per liker and post, however often they unlike and like again.
    await notify({
      userId: post.authorId,
      type: 'like',
      actorId: userId,
      postId,
      dedupeKey: `like:${postId}:${userId}`,
    });
  }
  return { liked: result.liked, likesCount: result.likesCount };
}

export async function toggleCommentLike(userId: number, commentId: number): Promise<LikeResult> {
  const comment = await Comment.findById(commentId, { postId: 1 }).lean();
  if (!comment) throw notFound('Comment not found');
  const post = await Post.exists({ _id: comment.postId, deletedAt: null });
  if (!post) throw notFound('Comment not found');
  const result = await toggle(userId, { kind: 'comment', id: commentId }, Comment as never);
  return { liked: result.liked, likesCount: result.likesCount };
}
