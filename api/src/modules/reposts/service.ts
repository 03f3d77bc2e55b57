import { trusted } from 'mongoose';
import { conflict } from '../../platform/errors';
import { isDuplicateKey } from '../../platform/mongo-errors';
import type { CounterService } from '../counters/service';
import { findOneBatch } from '../../platform/one-batch';
import type { RepostModel } from './model';

export interface RepostServiceDeps {
  models: { Repost: RepostModel };
  counters: CounterService;
}

export function createRepostService({ models: { Repost }, counters }: RepostServiceDeps) {
  const { nextId } = counters;

  /**
   * Records that `userId` reposted `postId` through the post `repostPostId`. A member reposts a
   * post at most once: the unique index makes a second attempt a 409, even under races.
   */
  async function recordRepost(userId: number, postId: number, repostPostId: number): Promise<void> {
    try {
      await Repost.create({ _id: await nextId('reposts'), userId, postId, repostPostId });
    } catch (err) {
      if (isDuplicateKey(err)) throw conflict('You have already reposted this post');
      throw err;
    }
  }

  /** The member's repost of `postId`, if any. */
  function findRepost(userId: number, postId: number) {
    return Repost.findOne({ userId, postId }, { repostPostId: 1 }).lean();
  }

  /** Whether the post `repostPostId` carries a recorded repost. */
  async function carriesRepost(repostPostId: number): Promise<boolean> {
    return (await Repost.exists({ repostPostId })) !== null;
  }

  /** Forgets the repost carried by `repostPostId`; whether there was one. */
  async function withdrawRepost(repostPostId: number): Promise<boolean> {
    const removed = await Repost.deleteOne({ repostPostId });
    return removed.deletedCount === 1;
  }

  /** Which of `postIds` the user has reposted: each post's id with its repost's `_id`. */
  async function repostedPosts(userId: number, postIds: number[]): Promise<Map<number, number>> {
    // Every feed page without its caches asks this: one command (a filter of numbers needs no
    // casting, and ids need no mongoose query or documents); at most one repost per post.
    const reposts = await findOneBatch<{ _id: number; postId: number }>(Repost, {
      filter: { userId, postId: { $in: postIds } },
      limit: postIds.length,
      projection: { _id: 1, postId: 1 },
    });
    return new Map(reposts.map((r) => [r.postId, r._id]));
  }

  /** How many members reposted each post, counted from the reposts themselves. */
  async function countRepostsPerPost(): Promise<Map<number, number>> {
    const rows = await Repost.aggregate<{ _id: number; n: number }>([
      { $group: { _id: '$postId', n: { $sum: 1 } } },
    ]);
    return new Map(rows.map((r) => [r._id, r.n]));
  }

  /** How many members reposted each of these posts. */
  async function countRepostsOn(postIds: number[]): Promise<Map<number, number>> {
    if (postIds.length === 0) return new Map();
    const rows = await Repost.aggregate<{ _id: number; n: number }>([
      { $match: { postId: { $in: postIds } } },
      { $group: { _id: '$postId', n: { $sum: 1 } } },
    ]);
    return new Map(rows.map((r) => [r._id, r.n]));
  }

  /**
   * Account deletion: removes the member's reposts and every repost of the given posts (theirs,
   * going too). Answers the posts the member had reposted, whose counts the caller recounts.
   */
  async function removeRepostsOf(userId: number, postIds: number[]): Promise<number[]> {
    const own = await Repost.find({ userId }, { postId: 1 }).lean();
    await Repost.deleteMany({ userId });
    if (postIds.length > 0) await Repost.deleteMany({ postId: trusted({ $in: postIds }) });
    return own.map((r) => r.postId);
  }

  return {
    findRepost,
    carriesRepost,
    recordRepost,
    withdrawRepost,
    repostedPosts,
    countRepostsPerPost,
    countRepostsOn,
    removeRepostsOf,
  };
}

export type RepostService = ReturnType<typeof createRepostService>;
