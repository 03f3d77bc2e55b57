import { trusted, type Model } from 'mongoose';
import type { DomainEvent } from '../../domain-events';
import { isDuplicateKey } from '../../platform/mongo-errors';
import type { Transactions } from '../../platform/transactions';
import type { CounterService } from '../counters/service';
import { findOneBatch } from '../../platform/one-batch';
import type { LikeModel } from './model';

export interface LikeResult {
  liked: boolean;
  likesCount: number;
}

/** The same member's concurrent unlike got there first (the toggle is rolled back). */
class AlreadyUnliked extends Error {}

export type LikeTarget = { kind: 'post'; id: number } | { kind: 'comment'; id: number };

/**
 * The liked document's `likesCount` and what a like of it tells. The document belongs to another
 * module (posts, comments), which says what its likes mean: this module only keeps who liked what.
 */
export interface LikeCounter {
  /** Moves the count by `delta` with `$inc` (in the caller's transaction); returns the new count. */
  add(delta: 1 | -1): Promise<number>;
  current(): Promise<number>;
  /** The event of a like (`true`) or an unlike of the document. */
  event(liked: boolean): DomainEvent;
  /** Runs in a like's transaction once it is recorded (e.g. notifying the author). */
  afterLike?(): Promise<void>;
}

/**
 * The LikeCounter of document `id` of `model` (the owning module's model, handed in: this module
 * never imports it), moving its `likesCount` and telling `event`.
 */
export function countedLikes<D extends { _id: number; likesCount: number }>(
  model: Model<D>,
  id: number,
  tells: Pick<LikeCounter, 'event' | 'afterLike'>,
): LikeCounter {
  // Any model with a numeric `_id` and `likesCount`: only those two fields are read or written.
  const liked = model as unknown as Model<{ _id: number; likesCount: number }>;
  return {
    ...tells,
    async add(delta) {
      const after = await liked
        .findOneAndUpdate(
          { _id: id },
          { $inc: { likesCount: delta } },
          { returnDocument: 'after', projection: { likesCount: 1 } },
        )
        .lean();
      return after?.likesCount ?? 0;
    },
    current: async () => (await liked.findById(id, { likesCount: 1 }).lean())?.likesCount ?? 0,
  };
}

export interface LikeServiceDeps {
  models: { Like: LikeModel };
  counters: CounterService;
  writes: Transactions<DomainEvent>;
}

export function createLikeService({
  models: { Like },
  counters,
  writes: { transaction, publish },
}: LikeServiceDeps) {
  const { nextIdOfBlock } = counters;

  function likeKey(userId: number, target: LikeTarget) {
    return target.kind === 'post'
      ? { userId, postId: target.id, commentId: null }
      : { userId, postId: null, commentId: target.id };
  }

  /**
   * Likes or unlikes. The like (or its removal) and the target's count move in one transaction
   * (counters/atomic.ts), so a crash never leaves one without the other.
   *
   * The count is the transaction's first write: the target's document is what concurrent toggles
   * contend for, and a transaction that writes it first either holds it to its commit or meets
   * the conflict at once and is retried after it (toggles of one target are serialized), where
   * one that wrote it last would be aborted by every commit made since it started.
   *
   * Most toggles are likes, so the like is tried first, without reading whether there is one: the
   * unique index on (member, target) answers that, and a like that exists already (E11000) rolls
   * the attempt back and the toggle becomes an unlike. An unlike that finds the like removed
   * meanwhile (the same member's concurrent unlike) rolls everything back and the call answers
   * the state it found, `changed: false`. So two concurrent toggles of one member are a like and
   * an unlike, or one like: never two likes, never a count without its like.
   */
  async function toggleLike(
    userId: number,
    target: LikeTarget,
    counter: LikeCounter,
  ): Promise<LikeResult & { changed: boolean }> {
    const key = likeKey(userId, target);
    const hot = `${target.kind}s:${target.id}`;
    try {
      return await transaction(async () => {
        const likesCount = await counter.add(1);
        await Like.create({ _id: await nextIdOfBlock('likes'), ...key });
        publish(counter.event(true));
        await counter.afterLike?.();
        return { liked: true, likesCount, changed: true };
      }, hot);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    try {
      return await transaction(async () => {
        const likesCount = await counter.add(-1);
        const removed = await Like.deleteOne(key);
        if (removed.deletedCount !== 1) throw new AlreadyUnliked();
        publish(counter.event(false));
        return { liked: false, likesCount, changed: true };
      }, hot);
    } catch (err) {
      if (!(err instanceof AlreadyUnliked)) throw err;
      return { liked: false, likesCount: await counter.current(), changed: false };
    }
  }

  /**
   * Which of `postIds` the user has liked: each liked post's id with its like's `_id` (a kept
   * flag names the like it depends on, so that an unlike known only by `_id` finds its member).
   */
  async function likedPosts(userId: number, postIds: number[]): Promise<Map<number, number>> {
    // Every feed page without its caches asks this: one command (a filter of numbers needs no
    // casting, and ids need no mongoose query or documents); at most one like per post.
    const likes = await findOneBatch<{ _id: number; postId: number }>(Like, {
      filter: { userId, postId: { $in: postIds }, commentId: null },
      limit: postIds.length,
      projection: { _id: 1, postId: 1 },
    });
    return new Map(likes.map((l) => [l.postId, l._id]));
  }

  /** Which of `commentIds` the user has liked: each liked comment's id with its like's `_id`. */
  async function likedComments(userId: number, commentIds: number[]): Promise<Map<number, number>> {
    // Every post detail and comment page without its caches asks this: one command, as
    // likedPosts; at most one like per comment.
    const likes = await findOneBatch<{ _id: number; commentId: number }>(Like, {
      filter: { userId, postId: null, commentId: { $in: commentIds } },
      limit: commentIds.length,
      projection: { _id: 1, commentId: 1 },
    });
    return new Map(likes.map((l) => [l.commentId, l._id]));
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
