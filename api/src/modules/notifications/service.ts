import type { NotificationType } from '@campus/contracts';
import { nextId } from '../counters/model';
import { Notification } from './model';

export interface NewNotification {
  userId: number;
  type: NotificationType;
  actorId?: number | null;
  postId?: number | null;
  feedbackId?: number | null;
  applicationId?: number | null;
}

export async function notify(input: NewNotification): Promise<number> {
  const id = await nextId('notifications');
  await Notification.create({ _id: id, ...input });
  return id;
}

/** Withdraws unread-or-read notifications of one kind from one actor (e.g. after an unfollow). */
export async function withdrawNotifications(filter: {
  userId: number;
  type: NotificationType;
  actorId: number;
}): Promise<void> {
  await Notification.deleteMany(filter);
}
