import { trusted } from 'mongoose';
import type { Notification as NotificationView } from '@campus/contracts';
import type { AppContext } from '../../context';
import { notificationsOf, type NotificationDoc } from './model';
import { presentAll } from './present';
import { withoutHiddenActors, withoutHiddenViews } from './screen';
import { viewerSafety } from '../safety/relations';

/** How many notifications the list returns (the newest). */
const NOTIFICATIONS_LIMIT = 100;
/** How many notifications a replay after a reconnect sends at most (the oldest missed first). */
const REPLAY_LIMIT = 100;

/**
 * The recipient's newest notifications, in two round trips: the notifications, then their
 * actors, posts, feedback, applications and comments in parallel.
 */
export async function listNotifications(
  ctx: AppContext,
  userId: number,
): Promise<NotificationView[]> {
  const items = await notificationsOf(ctx)
    .find({ userId })
    .sort({ createdAt: -1, _id: -1 })
    .limit(NOTIFICATIONS_LIMIT)
    .lean<NotificationDoc[]>();
  const safety = await viewerSafety(ctx, userId);
  return withoutHiddenViews(safety, await presentAll(ctx, withoutHiddenActors(safety, items)));
}

/** Notifications by id, each in its client shape, for whoever they are addressed to. */
export async function notificationsById(
  ctx: AppContext,
  notificationIds: number[],
): Promise<NotificationView[]> {
  if (!notificationIds.length) return [];
  const items = await notificationsOf(ctx)
    .find({ _id: trusted({ $in: notificationIds }) })
    .sort({ _id: 1 })
    .lean<NotificationDoc[]>();
  return presentAll(ctx, items);
}

/** The recipient's notifications created after `afterId` (a reconnecting stream), oldest first. */
export async function notificationsAfter(
  ctx: AppContext,
  userId: number,
  afterId: number,
): Promise<NotificationView[]> {
  const items = await notificationsOf(ctx)
    .find({ userId, _id: trusted({ $gt: afterId }) })
    .sort({ _id: 1 })
    .limit(REPLAY_LIMIT)
    .lean<NotificationDoc[]>();
  const safety = await viewerSafety(ctx, userId);
  return withoutHiddenViews(safety, await presentAll(ctx, withoutHiddenActors(safety, items)));
}
