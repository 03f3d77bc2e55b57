import { trusted } from 'mongoose';
import type { MarkNotificationsReadRequest } from '@campus/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../platform/errors';
import { membersFilter } from './groups';
import { notificationsOf } from './model';

/**
 * Marks read the recipient's own notifications among `ids` and every member of the groups
 * `keys`; anyone else's change nothing. Returns how many were unread.
 */
export async function markManyRead(
  ctx: AppContext,
  userId: number,
  { ids: wanted = [], keys = [] }: MarkNotificationsReadRequest,
): Promise<number> {
  const { timezone } = ctx.config;
  const filters = [
    ...(wanted.length ? [{ _id: trusted({ $in: wanted }) }] : []),
    ...keys.flatMap((key) => membersFilter(key, timezone) ?? []),
  ];
  if (!filters.length) return 0;
  return ctx.transaction(async () => {
    const result = await notificationsOf(ctx).updateMany(
      { userId, isRead: false, $or: filters },
      { $set: { isRead: true } },
    );
    if (result.modifiedCount > 0) ctx.publish({ type: 'notification.read', userId });
    return result.modifiedCount;
  });
}

/** How many of each member's notifications are unread (members with none are left out). */
export async function unreadCounts(
  ctx: AppContext,
  userIds: number[],
): Promise<Map<number, number>> {
  if (!userIds.length) return new Map();
  const rows = await notificationsOf(ctx).aggregate<{ _id: number; count: number }>([
    { $match: { userId: { $in: userIds }, isRead: false } },
    { $group: { _id: '$userId', count: { $sum: 1 } } },
  ]);
  return new Map(rows.map((r) => [r._id, r.count]));
}

/** Marks one of the recipient's own notifications read; anyone else's is "not found". */
export async function markRead(ctx: AppContext, userId: number, id: number): Promise<void> {
  await ctx.transaction(async () => {
    const result = await notificationsOf(ctx).updateOne(
      { _id: id, userId },
      { $set: { isRead: true } },
    );
    if (result.matchedCount === 0) throw notFound('Notification not found');
    if (result.modifiedCount > 0) ctx.publish({ type: 'notification.read', userId });
  });
}

export async function markAllRead(ctx: AppContext, userId: number): Promise<number> {
  return ctx.transaction(async () => {
    const result = await notificationsOf(ctx).updateMany(
      { userId, isRead: false },
      { $set: { isRead: true } },
    );
    if (result.modifiedCount > 0) ctx.publish({ type: 'notification.read', userId });
    return result.modifiedCount;
  });
}

/**
 * Marks read the unread notifications `actorId` caused `userId` (a block or a mute, in its
 * transaction: hidden from the member's lists, they must not keep their unread count up).
 */
export async function markReadFrom(
  ctx: AppContext,
  userId: number,
  actorId: number,
): Promise<void> {
  await ctx.transaction(async () => {
    const result = await notificationsOf(ctx).updateMany(
      { userId, actorId, isRead: false },
      { $set: { isRead: true } },
    );
    if (result.modifiedCount > 0) ctx.publish({ type: 'notification.read', userId });
  });
}

/**
 * Marks the member's notification of a decision as appealed (in the appeal's transaction), so that
 * it offers no second appeal after a reload; the page cache forgets their pages on `appeal.filed`.
 */
export async function markDecisionAppealed(
  ctx: AppContext,
  userId: number,
  decisionId: number,
): Promise<void> {
  await notificationsOf(ctx).updateMany(
    { userId, type: 'content_removed', decisionId },
    { $set: { appealed: true } },
  );
}
