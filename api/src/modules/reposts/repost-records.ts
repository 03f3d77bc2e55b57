/**
 * Who reposted what: one record per member and post (a unique index), written in the
 * transaction of the posts module's repost, undo or delete (which tells the events).
 */
import { trusted } from 'mongoose';
import { conflict } from '../../platform/errors';
import { isDuplicateKey } from '../../platform/mongo-errors';
import type { AppContext } from '../../context';
import { findOneBatch } from '../../platform/one-batch';
import { repostsOf } from './model';

/**
 * Records that `userId` reposted `postId` through the post `repostPostId`. A member reposts a
 * post at most once: the unique index makes a second attempt a 409, even under races.
 */
export async function recordRepost(
  ctx: AppContext,
  userId: number,
  postId: number,
  repostPostId: number,
): Promise<void> {
  try {
    await repostsOf(ctx).create({
      _id: await ctx.ids.nextId('reposts'),
      userId,
      postId,
      repostPostId,
    });
  } catch (err) {
    if (isDuplicateKey(err)) throw conflict('You have already reposted this post');
    throw err;
  }
}

/** The member's repost of `postId`, if any. */
export function findRepost(ctx: AppContext, userId: number, postId: number) {
  return repostsOf(ctx).findOne({ userId, postId }, { repostPostId: 1 }).lean();
}

/** Whether the post `repostPostId` carries a recorded repost. */
export async function carriesRepost(ctx: AppContext, repostPostId: number): Promise<boolean> {
  return (await repostsOf(ctx).exists({ repostPostId })) !== null;
}

/** Forgets the repost carried by `repostPostId`; whether there was one. */
export async function withdrawRepost(ctx: AppContext, repostPostId: number): Promise<boolean> {
  const removed = await repostsOf(ctx).deleteOne({ repostPostId });
  return removed.deletedCount === 1;
}

/** Which of `postIds` the user has reposted: each post's id with its repost's `_id`. */
export async function repostedPosts(
  ctx: AppContext,
  userId: number,
  postIds: number[],
): Promise<Map<number, number>> {
  // Every feed page without its caches asks this: one command (a filter of numbers needs no
  // casting, and ids need no mongoose query or documents); at most one repost per post.
  const reposts = await findOneBatch<{ _id: number; postId: number }>(repostsOf(ctx), {
    filter: { userId, postId: { $in: postIds } },
    limit: postIds.length,
    projection: { _id: 1, postId: 1 },
  });
  return new Map(reposts.map((r) => [r.postId, r._id]));
}

/** How many members reposted each post, counted from the reposts themselves. */
export async function countRepostsPerPost(
  ctx: Pick<AppContext, 'models'>,
): Promise<Map<number, number>> {
  const rows = await repostsOf(ctx).aggregate<{ _id: number; n: number }>([
    { $group: { _id: '$postId', n: { $sum: 1 } } },
  ]);
  return new Map(rows.map((r) => [r._id, r.n]));
}

/** How many members reposted each of these posts. */
export async function countRepostsOn(
  ctx: AppContext,
  postIds: number[],
): Promise<Map<number, number>> {
  if (postIds.length === 0) return new Map();
  const rows = await repostsOf(ctx).aggregate<{ _id: number; n: number }>([
    { $match: { postId: { $in: postIds } } },
    { $group: { _id: '$postId', n: { $sum: 1 } } },
  ]);
  return new Map(rows.map((r) => [r._id, r.n]));
}

/**
 * Account deletion: removes the member's reposts and every repost of the given posts (theirs,
 * going too). Answers the posts the member had reposted, whose counts the caller recounts.
 */
export async function removeRepostsOf(
  ctx: AppContext,
  userId: number,
  postIds: number[],
): Promise<number[]> {
  const own = await repostsOf(ctx).find({ userId }, { postId: 1 }).lean();
  await repostsOf(ctx).deleteMany({ userId });
  if (postIds.length > 0) await repostsOf(ctx).deleteMany({ postId: trusted({ $in: postIds }) });
  return own.map((r) => r.postId);
}
