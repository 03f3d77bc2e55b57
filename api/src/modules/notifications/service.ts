import type { Notification as NotificationView, NotificationType } from '@campus/contracts';
import { notFound } from '../../platform/errors';
import { isDuplicateKey } from '../../platform/mongo-errors';
import type { CounterService } from '../counters/service';
import type { NotificationDoc, NotificationModel } from './model';
import { notificationKinds, presentNotification, type NotificationInputs } from './registry';

/** How many notifications the list returns (the newest). */
const NOTIFICATIONS_LIMIT = 100;

type ById<T> = (ids: number[]) => Promise<Map<number, T>>;

/**
 * Where the things notifications point at are read from. Those modules create notifications, so
 * this one cannot import them: the app hands their services in (notification-sources.ts).
 */
export interface NotificationSources {
  /** Members as notifications show them (absolute avatar URLs). */
  actors: ById<{ id: number; name: string; avatarUrl: string | null }>;
  /** Previews of visible posts only. */
  posts: ById<{ id: number; content: string }>;
  feedback: ById<{ message: string }>;
  applications: ById<{ name: string; contactInfo: string; message: string }>;
}

export interface NotificationServiceDeps {
  models: { Notification: NotificationModel };
  counters: CounterService;
}

export function createNotificationService({
  models: { Notification },
  counters,
}: NotificationServiceDeps) {
  const { nextId } = counters;

  /**
   * Notifies `userId` (see the registry for what each type is made of); returns the new id, or null
   * when a notification that exists at most once already exists.
   */
  async function notify<T extends NotificationType>(
    type: T,
    userId: number,
    input: NotificationInputs[T],
  ): Promise<number | null> {
    const references = notificationKinds[type].store(input);
    const id = await nextId('notifications');
    try {
      await Notification.create({ _id: id, userId, type, ...references });
    } catch (err) {
      if (references.dedupeKey && isDuplicateKey(err)) return null;
      throw err;
    }
    return id;
  }

  /** Withdraws the notifications of one type that `actorId` caused `userId` (e.g. an unfollow). */
  async function withdrawNotifications(
    type: NotificationType,
    userId: number,
    actorId: number,
  ): Promise<void> {
    await Notification.deleteMany({ userId, type, actorId });
  }

  function ids(docs: NotificationDoc[], pick: (d: NotificationDoc) => number | null): number[] {
    return [...new Set(docs.map(pick).filter((v): v is number => v !== null))];
  }

  async function load<T>(byId: ById<T>, wanted: number[]): Promise<Map<number, T>> {
    return wanted.length ? byId(wanted) : new Map();
  }

  /**
   * The recipient's newest notifications, in two round trips: the notifications, then their
   * actors, posts, feedback and applications in parallel.
   */
  async function listNotifications(
    userId: number,
    sources: NotificationSources,
  ): Promise<NotificationView[]> {
    const items = await Notification.find({ userId })
      .sort({ createdAt: -1, _id: -1 })
      .limit(NOTIFICATIONS_LIMIT)
      .lean<NotificationDoc[]>();
    const [actors, posts, feedback, applications] = await Promise.all([
      load(
        sources.actors,
        ids(items, (n) => n.actorId),
      ),
      load(
        sources.posts,
        ids(items, (n) => n.postId),
      ),
      load(
        sources.feedback,
        ids(items, (n) => n.feedbackId),
      ),
      load(
        sources.applications,
        ids(items, (n) => n.applicationId),
      ),
    ]);
    const from =
      <T>(map: Map<number, T>) =>
      (id: number | null): T | null =>
        (id === null ? undefined : map.get(id)) ?? null;
    const refs = {
      actor: from(actors),
      post: from(posts),
      feedback: from(feedback),
      application: from(applications),
    };
    return items.flatMap((n) => presentNotification(n, refs) ?? []);
  }

  /** Marks one of the recipient's own notifications read; anyone else's is "not found". */
  async function markRead(userId: number, id: number): Promise<void> {
    const result = await Notification.updateOne({ _id: id, userId }, { $set: { isRead: true } });
    if (result.matchedCount === 0) throw notFound('Notification not found');
  }

  async function markAllRead(userId: number): Promise<number> {
    const result = await Notification.updateMany(
      { userId, isRead: false },
      { $set: { isRead: true } },
    );
    return result.modifiedCount;
  }

  /** Account deletion: every notification to the member and every one they caused. */
  async function removeNotificationsOf(userId: number): Promise<void> {
    await Notification.deleteMany({ $or: [{ userId }, { actorId: userId }] });
  }

  return {
    notify,
    withdrawNotifications,
    listNotifications,
    markRead,
    markAllRead,
    removeNotificationsOf,
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
