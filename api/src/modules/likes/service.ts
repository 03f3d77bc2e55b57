import { trusted } from 'mongoose';
import { isDuplicateKey } from '../../platform/mongo-errors';
import type { CounterService } from '../counters/service';
import type { LikeModel } from './model';

export interface LikeResult {
  liked: boolean;
  likesCount: number;
}

export type LikeTarget = { kind: 'post'; id: number } | { kind: 'comment'; id: number };

/**
 * The liked document's `likesCount`. The document belongs to another module (posts, comments),
 * which moves its own count: this module only keeps who liked what.
 */
export interface LikeCounter {
  /** Moves the count by `delta` with `$inc`; returns the new count. */
  add(delta: 1 | -1): Promise<number>;
  current(): Promise<number>;
}

export interface LikeServiceDeps {
  models: { Like: LikeModel };
  counters: CounterService;
}

export function createLikeService({ models: { Like }, counters }: LikeServiceDeps) {
  const { nextId } = counters;

  function likeKey(userId: number, target: LikeTarget) {
    return target.kind === 'post'
      ? { userId, postId: target.id, commentId: null }
      : { userId, postId: null, commentId: target.id };
  }

  /**
   * Likes or unlikes. The like document's unique index decides races (a second like by the same
   * user loses with E11000 and changes nothing); the target's count moves with `$inc`, so it stays
   * exact under any number of concurrent toggles. `changed`: whether this call changed anything.
   */
  async function toggleLike(
    userId: number,
    target: LikeTarget,
    counter: LikeCounter,
  ): Promise<LikeResult & { changed: boolean }> {
    const key = likeKey(userId, target);
    const removed = await Like.deleteOne(key);
    if (removed.deletedCount === 1) {
      return { liked: false, likesCount: await counter.add(-1), changed: true };
    }
    try {
      await Like.create({ _id: await nextId('likes'), ...key });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      return { liked: true, likesCount: await counter.current(), changed: false };
    }
    return { liked: true, likesCount: await counter.add(1), changed: true };
  }

  /** Which of `postIds` the user has liked. */
  async function likedPosts(userId: number, postIds: number[]): Promise<Set<number>> {
    const likes = await Like.find(
      { userId, postId: trusted({ $in: postIds }), commentId: null },
      { postId: 1 },
    ).lean();
    return new Set(likes.map((l) => l.postId as number));
  }

  /** Which of `commentIds` the user has liked. */
  async function likedComments(userId: number, commentIds: number[]): Promise<Set<number>> {
    const likes = await Like.find(
      { userId, postId: null, commentId: trusted({ $in: commentIds }) },
      { commentId: 1 },
    ).lean();
    return new Set(likes.map((l) => l.commentId as number));
  }

  /** How many likes each post (or comment) has, counted from the likes themselves. */
  async function countLikesPer(kind: LikeTarget['kind']): Promise<Map<number, number>> {
    const [field, other] = kind === 'post' ? ['postId', 'commentId'] : ['commentId', 'postId'];
    const rows = await Like.aggregate<{ _id: number | null; n: number }>([
      { $match: { [other]: null } },
      { $group: { _id: `$${field}`, n: { $sum: 1 } } },
    ]);
    return new Map(rows.filter((r) => r._id !== null).map((r) => [r._id as number, r.n]));
  }

  /** All likes, of posts and comments (analytics). */
  function countAllLikes(): Promise<number> {
    return Like.estimatedDocumentCount();
  }

  /** How many likes each of these posts (or comments) has. */
  async function countLikesOn(
    kind: LikeTarget['kind'],
    ids: number[],
  ): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    const field = kind === 'post' ? 'postId' : 'commentId';
    const rows = await Like.aggregate<{ _id: number; n: number }>([
      { $match: { [field]: { $in: ids } } },
      { $group: { _id: `$${field}`, n: { $sum: 1 } } },
    ]);
    return new Map(rows.map((r) => [r._id, r.n]));
  }

  /**
   * Account deletion: removes the member's likes and every like of the given posts and comments
   * (theirs, going too). Answers what the member had liked, whose counts the caller recounts.
   */
  async function removeLikesOf(
    userId: number,
    targets: { postIds: number[]; commentIds: number[] },
  ): Promise<{ postIds: number[]; commentIds: number[] }> {
    const own = await Like.find({ userId }, { postId: 1, commentId: 1 }).lean();
    await Like.deleteMany({ userId });
    if (targets.postIds.length > 0) {
      await Like.deleteMany({ postId: trusted({ $in: targets.postIds }) });
    }
    if (targets.commentIds.length > 0) {
      await Like.deleteMany({ commentId: trusted({ $in: targets.commentIds }) });
    }
    return {
      postIds: own.flatMap((l) => (l.postId === null ? [] : [l.postId])),
      commentIds: own.flatMap((l) => (l.commentId === null ? [] : [l.commentId])),
    };
  }

  return {
    toggleLike,
    likedPosts,
    likedComments,
    countLikesPer,
    countLikesOn,
    countAllLikes,
    removeLikesOf,
  };
}

export type LikeService = ReturnType<typeof createLikeService>;
