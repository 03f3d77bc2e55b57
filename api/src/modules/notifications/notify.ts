import type { NotificationType } from '@campus/contracts';
import type { AppContext } from '../../context';
import { notificationsOf } from './model';
import { viewerSafety } from '../safety/relations';
import { notificationKinds, type NotificationInputs } from './registry';
import { hidesActor } from './screen';

/**
 * Notifies `userId` (see the registry for what each type is made of), in the caller's
 * transaction when there is one (the like, the comment... that it is about); returns the new
 * id, or null when a notification that exists at most once already exists. One that exists at
 * most once is an upsert: a duplicate key would abort the caller's whole transaction.
 */
export async function notify<T extends NotificationType>(
  ctx: AppContext,
  type: T,
  userId: number,
  input: NotificationInputs[T],
): Promise<number | null> {
  const { dedupeKey, ...references } = notificationKinds[type].store(input, userId);
  // From a member the recipient blocked or mutes: kept, but read already (hidden from their
  // lists and live stream, it must not raise their unread count either).
  const hidden = hidesActor(await viewerSafety(ctx, userId), {
    type,
    actorId: references.actorId ?? null,
  });
  const id = await ctx.ids.nextId('notifications');
  const Notification = notificationsOf(ctx);
  return ctx.transaction(async () => {
    if (dedupeKey) {
      const written = await Notification.updateOne(
        { dedupeKey },
        {
          $setOnInsert: {
            _id: id,
            userId,
            type,
            ...references,
            ...(hidden ? { isRead: true } : {}),
          },
        },
        { upsert: true, setDefaultsOnInsert: true },
      );
      if (written.upsertedCount === 0) return null;
    } else {
      await Notification.create({
        _id: id,
        userId,
        type,
        ...references,
        ...(hidden ? { isRead: true } : {}),
      });
    }
    ctx.publish({ type: 'notification.created', notificationId: id, userId });
    return id;
  });
}

/**
 * Withdraws the notifications of one type that `actorId` caused `userId` (e.g. an unfollow), in
 * the caller's transaction.
 */
export async function withdrawNotifications(
  ctx: AppContext,
  type: NotificationType,
  userId: number,
  actorId: number,
): Promise<void> {
  await ctx.transaction(async () => {
    const removed = await notificationsOf(ctx).deleteMany({ userId, type, actorId });
    if (removed.deletedCount > 0) ctx.publish({ type: 'notification.withdrawn', userId });
  });
}

/**
 * Account deletion (in its transaction, told by `account.deleted`): every notification to the
 * member and every one they caused.
 */
export async function removeNotificationsOf(ctx: AppContext, userId: number): Promise<void> {
  await notificationsOf(ctx).deleteMany({ $or: [{ userId }, { actorId: userId }] });
}
