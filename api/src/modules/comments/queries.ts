/** Comments as other modules read them: counts, texts, the moderation queue's view. */
import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import { commentsOf } from './model';

export const COMMENT_NOT_FOUND = 'Comment not found';

/**
 * Comments every reader may see in a post's thread: not removed, and not by a suspended author.
 * A "deleted" placeholder (`withdrawnAt`) is among them, shown without its text.
 */
export function visibleComments() {
  return { deletedAt: null, authorSuspended: trusted({ $ne: true }) };
}

/**
 * Visible comments with their text: not a "deleted" placeholder either. What can be liked,
 * replied to, edited, deleted or quoted, and what a post's comments count counts.
 */
export function liveComments() {
  return { ...visibleComments(), withdrawnAt: null };
}

/** How many comments each post has, counted from the comments themselves. */
export async function countCommentsPerPost(
  ctx: Pick<AppContext, 'models'>,
): Promise<Map<number, number>> {
  const rows = await commentsOf(ctx).aggregate<{ _id: number; n: number }>([
    { $match: { deletedAt: null, withdrawnAt: null } },
    { $group: { _id: '$postId', n: { $sum: 1 } } },
  ]);
  return new Map(rows.map((r) => [r._id, r.n]));
}

/** Every comment's stored likesCount (to check it against the likes). */
export async function storedCommentLikeCounts(
  ctx: Pick<AppContext, 'models'>,
): Promise<Map<number, number>> {
  const rows = await commentsOf(ctx).find({}, { likesCount: 1 }).lean();
  return new Map(rows.map((c) => [c._id, c.likesCount]));
}

export function countAllComments(ctx: AppContext): Promise<number> {
  return commentsOf(ctx).estimatedDocumentCount();
}

/** How many comments each of these posts has. */
export async function countCommentsOn(
  ctx: AppContext,
  postIds: number[],
): Promise<Map<number, number>> {
  if (postIds.length === 0) return new Map();
  const rows = await commentsOf(ctx).aggregate<{ _id: number; n: number }>([
    { $match: { postId: { $in: postIds }, deletedAt: null, withdrawnAt: null } },
    { $group: { _id: '$postId', n: { $sum: 1 } } },
  ]);
  return new Map(rows.map((r) => [r._id, r.n]));
}

/** Comments as the administrator's report queue shows them (removed ones included). */
export async function commentsForModeration(
  ctx: AppContext,
  ids: number[],
): Promise<Map<number, { authorId: number; postId: number; content: string; deleted: boolean }>> {
  if (ids.length === 0) return new Map();
  const found = await commentsOf(ctx)
    .find({ _id: trusted({ $in: ids }) }, { authorId: 1, postId: 1, content: 1, deletedAt: 1 })
    .lean();
  return new Map(
    found.map((c) => [
      c._id,
      { authorId: c.authorId, postId: c.postId, content: c.content, deleted: !!c.deletedAt },
    ]),
  );
}

/** The text of the visible comments among `ids` (notifications quote what was said). */
export async function commentTexts(
  ctx: AppContext,
  ids: number[],
): Promise<Map<number, { content: string }>> {
  const found = await commentsOf(ctx)
    .find({ _id: trusted({ $in: ids }), ...liveComments() }, { content: 1 })
    .lean();
  return new Map(found.map((c) => [c._id, { content: c.content }]));
}
