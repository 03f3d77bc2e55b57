import { trusted } from 'mongoose';
import {
  MAX_MUTES,
  MUTE_DURATION_MS,
  type MuteDuration,
  type MuteResponse,
} from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { badRequest } from '../../platform/errors';
import { markReadFrom } from '../notifications/mark-read';
import { assertMember } from './block-member';
import { mutesOf } from './model';

export const MUTE_LIMIT_MESSAGE = `You can mute at most ${MAX_MUTES.toLocaleString('en-US')} members`;

/** When a mute of `duration` made now ends (null: never). */
export function muteEnd(ctx: AppContext, duration: MuteDuration): Date | null {
  const ms = MUTE_DURATION_MS[duration];
  return ms === null ? null : new Date(ctx.clock.now().getTime() + ms);
}

/**
 * Mutes a member for `duration`: their posts, reposts and notifications are hidden from the
 * caller only, silently. Muting again sets the new duration from now. Mutes that ran out do
 * not count against the limit.
 */
export async function muteMember(
  ctx: AppContext,
  actor: AuthUser,
  targetId: number,
  duration: MuteDuration,
): Promise<MuteResponse> {
  if (actor.id === targetId) throw badRequest('You cannot mute yourself');
  await assertMember(ctx, targetId);
  const Mute = mutesOf(ctx);
  const now = ctx.clock.now();
  const until = muteEnd(ctx, duration);
  const existing = await Mute.exists({ muterId: actor.id, mutedId: targetId });
  if (!existing) {
    const inForce = await Mute.countDocuments({
      muterId: actor.id,
      $or: [{ until: null }, { until: trusted({ $gt: now }) }],
    });
    if (inForce >= MAX_MUTES) throw badRequest(MUTE_LIMIT_MESSAGE);
  }
  const id = await ctx.ids.nextIdOfBlock('mutes');
  await ctx.transaction(async () => {
    await Mute.updateOne(
      { muterId: actor.id, mutedId: targetId },
      { $set: { until, createdAt: now }, $setOnInsert: { _id: id } },
      { upsert: true },
    );
    // Hidden from the muter's lists from now on: no longer counted as unread either.
    await markReadFrom(ctx, actor.id, targetId);
    ctx.publish({ type: 'member.muted', muterId: actor.id, mutedId: targetId });
  });
  return { userId: targetId, muted: true, until: until ? until.toISOString() : null };
}

/** Unmutes a member (not muted: nothing changes). */
export async function unmuteMember(
  ctx: AppContext,
  actor: AuthUser,
  targetId: number,
): Promise<MuteResponse> {
  if (actor.id === targetId) throw badRequest('You cannot unmute yourself');
  await assertMember(ctx, targetId);
  await ctx.transaction(async () => {
    const removed = await mutesOf(ctx).deleteOne({ muterId: actor.id, mutedId: targetId });
    if (removed.deletedCount > 0)
      ctx.publish({ type: 'member.unmuted', muterId: actor.id, mutedId: targetId });
  });
  return { userId: targetId, muted: false, until: null };
}
