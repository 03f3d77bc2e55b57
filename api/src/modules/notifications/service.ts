import { trusted } from 'mongoose';
import type { Notification as NotificationView, NotificationType } from '@campus/contracts';
import { notFound } from '../../platform/errors';
import { toPublicFileUrl } from '../../platform/storage';
import { isDuplicateKey } from '../../platform/mongo-errors';
import { AccountApplication } from '../account-applications/model';
import { nextId } from '../counters/model';
import { Feedback } from '../feedback/model';
import { Post } from '../posts/model';
import { User } from '../users/model';
import { Notification, type NotificationDoc } from './model';

/** How many notifications the list returns (the newest). */
export const NOTIFICATIONS_LIMIT = 100;

export interface NewNotification {
  userId: number;
  type: NotificationType;
  actorId?: number | null;
  postId?: number | null;
  feedbackId?: number | null;
  applicationId?: number | null;
  /** Makes the notification unique: a second one with the same key is not created. */
  dedupeKey?: string;
}

/** Creates a notification; returns its id, or null when its dedupeKey already exists. */
export async function notify(input: NewNotification): Promise<number | null> {
  const id = await nextId('notifications');
  try {
    await Notification.create({ _id: id, ...input });
  } catch (err) {
    if (input.dedupeKey && isDuplicateKey(err)) return null;
    throw err;
  }
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

function ids<T>(docs: T[], pick: (d: T) => number | null | undefined): number[] {
  return [...new Set(docs.map(pick).filter((v): v is number => typeof v === 'number'))];
}

/**
 * The recipient's newest notifications with actor, post and feedback, in two round trips: the
 * notifications, then users, posts, feedback and applications in parallel.
 */
export async function listNotifications(
  userId: number,
  publicUrl: string,
): Promise<NotificationView[]> {
  const items = await Notification.find({ userId })
    .sort({ createdAt: -1, _id: -1 })
    .limit(NOTIFICATIONS_LIMIT)
    .lean<NotificationDoc[]>();
  const actorIds = ids(items, (n) => n.actorId);
  const postIds = ids(items, (n) => n.postId);
  const feedbackIds = ids(items, (n) => n.feedbackId);
  const applicationIds = ids(items, (n) => n.applicationId);
  const [actors, posts, feedback, applications] = await Promise.all([
    actorIds.length
      ? User.find({ _id: trusted({ $in: actorIds }) }, { name: 1, avatarUrl: 1 }).lean()
      : [],
    postIds.length
      ? Post.find(
          { _id: trusted({ $in: postIds }), deletedAt: null },
          { content: 1, repostComment: 1 },
        ).lean()
      : [],
    feedbackIds.length
      ? Feedback.find({ _id: trusted({ $in: feedbackIds }) }, { message: 1 }).lean()
      : [],
    applicationIds.length
      ? AccountApplication.find(
          { _id: trusted({ $in: applicationIds }) },
          { name: 1, contactInfo: 1, message: 1 },
        ).lean()
      : [],
  ]);
  const actorById = new Map(actors.map((a) => [a._id, a]));
  const postById = new Map(posts.map((p) => [p._id, p]));
  const feedbackById = new Map(feedback.map((f) => [f._id, f]));
  const applicationById = new Map(applications.map((a) => [a._id, a]));
  return items.map((n) => {
    const actor = n.actorId === null ? undefined : actorById.get(n.actorId);
    const post = n.postId === null ? undefined : postById.get(n.postId);
    const fb = n.feedbackId === null ? undefined : feedbackById.get(n.feedbackId);
    const app = n.applicationId === null ? undefined : applicationById.get(n.applicationId);
    return {
      id: n._id,
      type: n.type,
      isRead: n.isRead,
      createdAt: n.createdAt.toISOString(),
      actor: actor
        ? {
            id: actor._id,
            name: actor.name,
            avatarUrl: actor.avatarUrl ? toPublicFileUrl(actor.avatarUrl, publicUrl) : null,
          }
        : null,
      post: post ? { id: post._id, content: post.content || post.repostComment || '' } : null,
      feedback: fb ? { message: fb.message } : null,
      application: app
        ? { name: app.name, contactInfo: app.contactInfo, message: app.message }
        : null,
    };
  });
}

/** Marks one of the recipient's own notifications read; anyone else's is "not found". */
export async function markRead(userId: number, id: number): Promise<void> {
  const result = await Notification.updateOne({ _id: id, userId }, { $set: { isRead: true } });
  if (result.matchedCount === 0) throw notFound('Notification not found');
}

export async function markAllRead(userId: number): Promise<number> {
  const result = await Notification.updateMany(
    { userId, isRead: false },
    { $set: { isRead: true } },
  );
  return result.modifiedCount;
}
