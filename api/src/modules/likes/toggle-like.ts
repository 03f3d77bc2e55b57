/** Likes of posts and comments: who liked what; the liked module moves its own count. */
import { trusted, type Model } from 'mongoose';
import type { DomainEvent } from '../../domain-events';
import { isDuplicateKey } from '../../platform/mongo-errors';
import type { AppContext } from '../../context';
import { likesOf } from './model';

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

function likeKey(userId: number, target: LikeTarget) {
  return target.kind === 'post'
    ? { userId, postId: target.id, commentId: null }
    : { userId, postId: null, commentId: target.id };
}

/**
 * Likes or unlikes. The like (or its removal) and the target's count move in one transaction
 * (platform/transactions.ts), so a crash never leaves one without the other.
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
export async function toggleLike(
  ctx: AppContext,
  userId: number,
  target: LikeTarget,
  counter: LikeCounter,
): Promise<LikeResult & { changed: boolean }> {
  const key = likeKey(userId, target);
  const hot = `${target.kind}s:${target.id}`;
  try {
    return await ctx.transaction(async () => {
      const likesCount = await counter.add(1);
      await likesOf(ctx).create({ _id: await ctx.ids.nextIdOfBlock('likes'), ...key });
      ctx.publish(counter.event(true));
      await counter.afterLike?.();
      return { liked: true, likesCount, changed: true };
    }, hot);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  try {
    return await ctx.transaction(async () => {
      const likesCount = await counter.add(-1);
      const removed = await likesOf(ctx).deleteOne(key);
      if (removed.deletedCount !== 1) throw new AlreadyUnliked();
      ctx.publish(counter.event(false));
      return { liked: false, likesCount, changed: true };
    }, hot);
  } catch (err) {
    if (!(err instanceof AlreadyUnliked)) throw err;
    return { liked: false, likesCount: await counter.current(), changed: false };
  }
}

/**
 * Account deletion: removes the member's likes and every like of the given posts and comments
 * (theirs, going too). Answers what the member had liked, whose counts the caller recounts.
 */
export async function removeLikesOf(
  ctx: AppContext,
  userId: number,
  targets: { postIds: number[]; commentIds: number[] },
): Promise<{ postIds: number[]; commentIds: number[] }> {
  const own = await likesOf(ctx).find({ userId }, { postId: 1, commentId: 1 }).lean();
  await likesOf(ctx).deleteMany({ userId });
  if (targets.postIds.length > 0) {
    await likesOf(ctx).deleteMany({ postId: trusted({ $in: targets.postIds }) });
  }
  if (targets.commentIds.length > 0) {
    await likesOf(ctx).deleteMany({ commentId: trusted({ $in: targets.commentIds }) });
  }
  return {
    postIds: own.flatMap((l) => (l.postId === null ? [] : [l.postId])),
    commentIds: own.flatMap((l) => (l.commentId === null ? [] : [l.commentId])),
  };
}
