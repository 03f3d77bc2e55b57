/**
 * The earlier texts of edited posts and comments: kept by the edit that replaced them (in its
 * transaction), listed for anyone who may read the post or comment, and erased with it.
 */
import { trusted } from 'mongoose';
import { MAX_EDITS, type ContentVersion } from '@campus/contracts';
import type { AppContext } from '../../context';
import { badRequest } from '../../platform/errors';
import { versionsOf, type VersionedKind } from './model';

/**
 * Keeps `previous` (written at `writtenAt`) as an earlier version of the post or comment, in the
 * caller's transaction; 400 once it has been edited `MAX_EDITS` times.
 */
export async function keepEarlierVersion(
  ctx: AppContext,
  kind: VersionedKind,
  targetId: number,
  previous: { content: string; writtenAt: Date },
): Promise<void> {
  const kept = await versionsOf(ctx).countDocuments({ kind, targetId });
  if (kept >= MAX_EDITS) {
    throw badRequest(`A ${kind} can be edited at most ${MAX_EDITS} times`);
  }
  await versionsOf(ctx).create({
    _id: await ctx.ids.nextIdOfBlock('content_versions'),
    kind,
    targetId,
    content: previous.content,
    writtenAt: previous.writtenAt,
  });
}

/** Every version of the text, newest first: `current` (as it is now), then the earlier ones. */
export async function listVersions(
  ctx: AppContext,
  kind: VersionedKind,
  targetId: number,
  current: { content: string; writtenAt: Date },
): Promise<ContentVersion[]> {
  const earlier = await versionsOf(ctx)
    .find({ kind, targetId }, { content: 1, writtenAt: 1 })
    .sort({ writtenAt: -1, _id: -1 })
    .lean();
  return [current, ...earlier].map((v) => ({
    content: v.content,
    writtenAt: v.writtenAt.toISOString(),
  }));
}

/** Erases the earlier versions of these posts or comments (deleted by their author or account). */
export async function eraseVersions(
  ctx: AppContext,
  kind: VersionedKind,
  targetIds: number[],
): Promise<void> {
  if (targetIds.length === 0) return;
  await versionsOf(ctx).deleteMany({ kind, targetId: trusted({ $in: targetIds }) });
}
