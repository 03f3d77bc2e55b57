import { trusted } from 'mongoose';
import {
  NOTIFICATION_GROUP_ACTORS,
  type MarkNotificationsReadRequest,
  type Notification as NotificationView,
  type NotificationGroup,
  type NotificationGroupPage,
  type NotificationType,
} from '@campus/contracts';
import type { DomainEvent } from '../../domain-events';
import { notFound } from '../../platform/errors';
import type { Transactions } from '../../platform/transactions';
import type { CounterService } from '../counters/service';
import type { NotificationDoc, NotificationModel } from './model';
import { groupKeyOf, isSharedKey, membersFilter } from './groups';
import {
  notificationKinds,
  presentNotification,
  type LoadedReferences,
  type NotificationInputs,
} from './registry';

/** How many notifications the list returns (the newest). */
const NOTIFICATIONS_LIMIT = 100;
/** How many notifications a replay after a reconnect sends at most (the oldest missed first). */
const REPLAY_LIMIT = 100;
/** Grouped paging reads the recipient's notifications in batches of this many... */
const GROUP_SCAN_BATCH = 200;
/** ...and at most this many per page (a page may then end early, its cursor still exact). */
const GROUP_SCAN_LIMIT = 2_000;

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
  /** The text of comments and replies that still exist. */
  comments: ById<{ content: string }>;
}

export interface NotificationServiceDeps {
  models: { Notification: NotificationModel };
  counters: CounterService;
  writes: Transactions<DomainEvent>;
}

export function createNotificationService({
  models: { Notification },
  counters,
  writes: { transaction, publish },
}: NotificationServiceDeps) {
  const { nextId } = counters;

  /**
   * Notifies `userId` (see the registry for what each type is made of), in the caller's
   * transaction when there is one (the like, the comment... that it is about); returns the new
   * id, or null when a notification that exists at most once already exists. One that exists at
   * most once is an upsert: a duplicate key would abort the caller's whole transaction.
   */
  async function notify<T extends NotificationType>(
    type: T,
    userId: number,
    input: NotificationInputs[T],
  ): Promise<number | null> {
    const { dedupeKey, ...references } = notificationKinds[type].store(input);
    const id = await nextId('notifications');
    return transaction(async () => {
      if (dedupeKey) {
        const written = await Notification.updateOne(
          { dedupeKey },
          { $setOnInsert: { _id: id, userId, type, ...references } },
          { upsert: true, setDefaultsOnInsert: true },
        );
        if (written.upsertedCount === 0) return null;
      } else {
        await Notification.create({ _id: id, userId, type, ...references });
      }
      publish({ type: 'notification.created', notificationId: id, userId });
      return id;
    });
  }

  /**
   * Withdraws the notifications of one type that `actorId` caused `userId` (e.g. an unfollow), in
   * the caller's transaction.
   */
  async function withdrawNotifications(
    type: NotificationType,
    userId: number,
    actorId: number,
  ): Promise<void> {
    await transaction(async () => {
      const removed = await Notification.deleteMany({ userId, type, actorId });
      if (removed.deletedCount > 0) publish({ type: 'notification.withdrawn', userId });
    });
  }

  function ids(docs: NotificationDoc[], pick: (d: NotificationDoc) => number | null): number[] {
    return [...new Set(docs.map(pick).filter((v): v is number => v !== null))];
  }

  async function load<T>(byId: ById<T>, wanted: number[]): Promise<Map<number, T>> {
    return wanted.length ? byId(wanted) : new Map();
  }

  /**
   * What `items` point at (and the actors in `moreActors`), loaded in one round trip: actors,
   * posts, feedback, applications and comments in parallel.
   */
  async function loadReferences(
    items: NotificationDoc[],
    sources: NotificationSources,
    moreActors: number[] = [],
  ): Promise<LoadedReferences> {
    const [actors, posts, feedback, applications, comments] = await Promise.all([
      load(sources.actors, [...new Set([...ids(items, (n) => n.actorId), ...moreActors])]),
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
      load(
        sources.comments,
        ids(items, (n) => n.commentId ?? null),
      ),
    ]);
    const from =
      <T>(map: Map<number, T>) =>
      (id: number | null): T | null =>
        (id === null ? undefined : map.get(id)) ?? null;
    return {
      actor: from(actors),
      post: from(posts),
      feedback: from(feedback),
      application: from(applications),
      comment: from(comments),
    };
  }

  /** Stored notifications in their client shape (types no longer known are left out). */
  async function presentAll(
    items: NotificationDoc[],
    sources: NotificationSources,
  ): Promise<NotificationView[]> {
    const refs = await loadReferences(items, sources);
    return items.flatMap((n) => presentNotification(n, refs) ?? []);
  }

  /**
   * The recipient's newest notifications, in two round trips: the notifications, then their
   * actors, posts, feedback, applications and comments in parallel.
   */
  async function listNotifications(
    userId: number,
    sources: NotificationSources,
  ): Promise<NotificationView[]> {
    const items = await Notification.find({ userId })
      .sort({ createdAt: -1, _id: -1 })
      .limit(NOTIFICATIONS_LIMIT)
      .lean<NotificationDoc[]>();
    return presentAll(items, sources);
  }

  /** Notifications by id, each in its client shape, for whoever they are addressed to. */
  async function notificationsById(
    notificationIds: number[],
    sources: NotificationSources,
  ): Promise<NotificationView[]> {
    if (!notificationIds.length) return [];
    const items = await Notification.find({ _id: trusted({ $in: notificationIds }) })
      .sort({ _id: 1 })
      .lean<NotificationDoc[]>();
    return presentAll(items, sources);
  }

  /** The recipient's notifications created after `afterId` (a reconnecting stream), oldest first. */
  async function notificationsAfter(
    userId: number,
    afterId: number,
    sources: NotificationSources,
  ): Promise<NotificationView[]> {
    const items = await Notification.find({ userId, _id: trusted({ $gt: afterId }) })
      .sort({ _id: 1 })
      .limit(REPLAY_LIMIT)
      .lean<NotificationDoc[]>();
    return presentAll(items, sources);
  }

  /**
   * One page of the recipient's notifications in groups (groups.ts), newest group first. A group
   * belongs to the page where its newest member falls: the page walks the notifications below
   * `before` newest first, and a key met for the first time starts a group unless the group has
   * a member at or above `before` (it was on an earlier page). So pages never repeat or skip a
   * group, however groups grow meanwhile (a group that gains a member moves to the top, which the
   * live stream shows). Round trips: the walk (usually one batch), one check of earlier pages,
   * the members of the page's groups, then what they point at.
   */
  async function listNotificationGroups(
    userId: number,
    page: { before?: number; limit: number },
    sources: NotificationSources,
    timezone: string,
  ): Promise<NotificationGroupPage> {
    const keyOf = (n: NotificationDoc) => groupKeyOf(n, timezone);
    const heads: Array<{ key: string; head: NotificationDoc }> = [];
    const seen = new Set<string>();
    let below = page.before;
    let scanned = 0;
    let exhausted = false;
    while (heads.length <= page.limit && scanned < GROUP_SCAN_LIMIT) {
      const batch = await Notification.find({
        userId,
        ...(below !== undefined ? { _id: trusted({ $lt: below }) } : {}),
      })
        .sort({ _id: -1 })
        .limit(GROUP_SCAN_BATCH)
        .lean<NotificationDoc[]>();
      scanned += batch.length;
      const firsts: Array<{ key: string; head: NotificationDoc }> = [];
      for (const n of batch) {
        const key = keyOf(n);
        if (seen.has(key)) continue;
        seen.add(key);
        firsts.push({ key, head: n });
      }
      const shown = await keysWithMembersFrom(userId, page.before, firsts, timezone);
      for (const first of firsts) if (!shown.has(first.key)) heads.push(first);
      if (batch.length < GROUP_SCAN_BATCH) {
        exhausted = true;
        break;
      }
      below = batch.at(-1)!._id;
    }
    const pageHeads = heads.slice(0, page.limit);
    const nextCursor =
      heads.length > page.limit
        ? pageHeads.at(-1)!.head._id
        : exhausted || below === undefined
          ? null
          : // The walk stopped early: continue below the last notification it read.
            below;
    const members = await membersOf(userId, pageHeads, timezone);
    const actorIds = new Map<string, number[]>();
    for (const { key } of pageHeads) {
      const distinct = [
        ...new Set(members.get(key)!.flatMap((m) => (m.actorId === null ? [] : [m.actorId]))),
      ];
      actorIds.set(key, distinct);
    }
    const refs = await loadReferences(
      pageHeads.map((h) => h.head),
      sources,
      [...actorIds.values()].flatMap((a) => a.slice(0, NOTIFICATION_GROUP_ACTORS)),
    );
    const groups = pageHeads.flatMap(({ key, head }): NotificationGroup[] => {
      const latest = presentNotification(head, refs);
      if (!latest) return [];
      const group = members.get(key)!;
      const actors = actorIds.get(key)!;
      return [
        {
          key,
          type: head.type,
          latest,
          actors: actors.slice(0, NOTIFICATION_GROUP_ACTORS).flatMap((id) => refs.actor(id) ?? []),
          actorsCount: actors.length,
          ids: group.map((m) => m._id),
          isRead: group.every((m) => m.isRead),
          createdAt: head.createdAt.toISOString(),
        },
      ];
    });
    return { groups, nextCursor };
  }

  /** The keys among `firsts` whose group has a member at or above `before` (an earlier page's). */
  async function keysWithMembersFrom(
    userId: number,
    before: number | undefined,
    firsts: Array<{ key: string }>,
    timezone: string,
  ): Promise<Set<string>> {
    if (before === undefined) return new Set();
    const earlier = await findMembers(
      userId,
      firsts.map((f) => f.key),
      timezone,
      { _id: 1, type: 1, postId: 1, createdAt: 1 },
      before,
    );
    return new Set(earlier.map((n) => groupKeyOf(n, timezone)));
  }

  /**
   * The members of the shared groups `keys` (at or above `from`), in at most two queries run
   * together, each one the index `{ userId, type, postId, createdAt }` answers by reading only
   * those groups' members: likes and reposts by post, follows by their days' time range. (One
   * query with an `$or` of the groups' filters read every notification of the recipient.)
   */
  async function findMembers(
    userId: number,
    keys: string[],
    timezone: string,
    projection: Record<string, 1>,
    from?: number,
  ): Promise<NotificationDoc[]> {
    const wanted = new Set<string>();
    const types = new Set<NotificationType>();
    const postIds = new Set<number>();
    let days: { low: Date; high: Date } | undefined;
    for (const key of keys) {
      if (!isSharedKey(key)) continue;
      const filter = membersFilter(key, timezone);
      if (!filter) continue;
      wanted.add(key);
      if (filter.type === 'follow') {
        const range = filter.createdAt as { $gte: Date; $lt: Date };
        days = {
          low: days && days.low < range.$gte ? days.low : range.$gte,
          high: days && days.high > range.$lt ? days.high : range.$lt,
        };
      } else {
        types.add(filter.type as NotificationType);
        postIds.add(filter.postId as number);
      }
    }
    const above = from === undefined ? {} : { _id: trusted({ $gte: from }) };
    const [onPosts, follows] = await Promise.all([
      postIds.size
        ? Notification.find(
            {
              userId,
              type: trusted({ $in: [...types] }),
              postId: trusted({ $in: [...postIds] }),
              ...above,
            },
            projection,
          ).lean<NotificationDoc[]>()
        : [],
      days
        ? Notification.find(
            {
              userId,
              type: 'follow',
              postId: null,
              createdAt: trusted({ $gte: days.low, $lt: days.high }),
              ...above,
            },
            projection,
          ).lean<NotificationDoc[]>()
        : [],
    ]);
    return [...onPosts, ...follows].filter((n) => wanted.has(groupKeyOf(n, timezone)));
  }

  /** Every member of each group of the page (newest first), by key. */
  async function membersOf(
    userId: number,
    heads: Array<{ key: string; head: NotificationDoc }>,
    timezone: string,
  ): Promise<Map<string, NotificationDoc[]>> {
    const members = new Map<string, NotificationDoc[]>(heads.map((h) => [h.key, []]));
    const found = await findMembers(
      userId,
      heads.map((h) => h.key),
      timezone,
      { _id: 1, type: 1, postId: 1, actorId: 1, isRead: 1, createdAt: 1 },
    );
    found.sort((a, b) => b._id - a._id);
    for (const n of found) members.get(groupKeyOf(n, timezone))?.push(n);
    for (const { key, head } of heads) if (!isSharedKey(key)) members.get(key)!.push(head);
    return members;
  }

  /**
   * Marks read the recipient's own notifications among `ids` and every member of the groups
   * `keys`; anyone else's change nothing. Returns how many were unread.
   */
  async function markManyRead(
    userId: number,
    { ids: wanted = [], keys = [] }: MarkNotificationsReadRequest,
    timezone: string,
  ): Promise<number> {
    const filters = [
      ...(wanted.length ? [{ _id: trusted({ $in: wanted }) }] : []),
      ...keys.flatMap((key) => membersFilter(key, timezone) ?? []),
    ];
    if (!filters.length) return 0;
    return transaction(async () => {
      const result = await Notification.updateMany(
        { userId, isRead: false, $or: filters },
        { $set: { isRead: true } },
      );
      if (result.modifiedCount > 0) publish({ type: 'notification.read', userId });
      return result.modifiedCount;
    });
  }

  /** How many of each member's notifications are unread (members with none are left out). */
  async function unreadCounts(userIds: number[]): Promise<Map<number, number>> {
    if (!userIds.length) return new Map();
    const rows = await Notification.aggregate<{ _id: number; count: number }>([
      { $match: { userId: { $in: userIds }, isRead: false } },
      { $group: { _id: '$userId', count: { $sum: 1 } } },
    ]);
    return new Map(rows.map((r) => [r._id, r.count]));
  }

  /** Marks one of the recipient's own notifications read; anyone else's is "not found". */
  async function markRead(userId: number, id: number): Promise<void> {
    await transaction(async () => {
      const result = await Notification.updateOne({ _id: id, userId }, { $set: { isRead: true } });
      if (result.matchedCount === 0) throw notFound('Notification not found');
      if (result.modifiedCount > 0) publish({ type: 'notification.read', userId });
    });
  }

  async function markAllRead(userId: number): Promise<number> {
    return transaction(async () => {
      const result = await Notification.updateMany(
        { userId, isRead: false },
        { $set: { isRead: true } },
      );
      if (result.modifiedCount > 0) publish({ type: 'notification.read', userId });
      return result.modifiedCount;
    });
  }

  /**
   * Account deletion (in its transaction, told by `account.deleted`): every notification to the
   * member and every one they caused.
   */
  async function removeNotificationsOf(userId: number): Promise<void> {
    await Notification.deleteMany({ $or: [{ userId }, { actorId: userId }] });
  }

  return {
    notify,
    withdrawNotifications,
    listNotifications,
    listNotificationGroups,
    notificationsById,
    notificationsAfter,
    unreadCounts,
    markManyRead,
    markRead,
    markAllRead,
    removeNotificationsOf,
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
