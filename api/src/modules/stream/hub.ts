/**
 * The live streams of one app (`GET /api/stream`, api/README.md "Live stream"). The hub hears the
 * app's domain events (its own and, through the outbox's change stream, every other process's),
 * so an event written by any API process reaches the members connected to this one, and fans
 * each out to the streams it concerns: a notification created or read, a new post, a session that
 * ended, a stream superseded by another process.
 */
import { STREAM_HEARTBEAT_MS, STREAM_MAX_PER_MEMBER, type FeedTab } from '@campus/contracts';
import type { Notification } from '@campus/contracts';
import type { DomainEvent, DomainEventOf } from '../../domain-events';
import type { EventBus } from '../../platform/event-bus';
import { logFailure } from '../../platform/errors';
import { outsideRequest, type Logger } from '../../platform/logger';
import { MemberStream, type OpenStreamRequest } from './member-stream';
import { LIVE_STREAM_TTL_MS, type StreamRegistry } from './registry';

export type { OpenStreamRequest, StreamSink } from './member-stream';

export interface StreamHubDeps {
  /** The app's events; `ready()`: resolves once every later commit of any process reaches them. */
  events: EventBus<DomainEvent>;
  ready(): Promise<void>;
  /** Notifications by id and after an id, in their client shape; unread counts per member. */
  notificationsById(ids: number[]): Promise<Notification[]>;
  notificationsAfter(userId: number, afterId: number): Promise<Notification[]>;
  unreadCounts(userIds: number[]): Promise<Map<number, number>>;
  /** The ids of the posts by others `tab` has after `sinceId` (at most STREAM_POSTS_MAX_COUNT). */
  newPostIds(
    tab: FeedTab,
    sinceId: number,
    viewerId: number,
    followed: number[],
    followedTags?: string[],
  ): Promise<number[]>;
  followedIds(userId: number): Promise<number[]>;
  /** The tags the member follows (issue 40); none when absent. */
  followedTags?(userId: number): Promise<string[]>;
  /** What the member hides (modules/safety): whose new posts and which notifications. */
  safetyOf(userId: number): Promise<StreamSafety>;
  /** Whether a token of `userId` issued at `issuedAt` (epoch ms) is still accepted. */
  sessionValid(userId: number, issuedAt: number): Promise<boolean>;
  /** The open streams of every process: the per-member limit holds across processes. */
  registry?: StreamRegistry;
  logger: Logger;
  heartbeatMs?: number;
  maxPerMember?: number;
}

/** What a stream's member hides, as the hub checks each live event against it. */
export interface StreamSafety {
  hidesAuthor(userId: number): boolean;
  hidesNotification(view: Notification): boolean;
}

/** Every event that changes what a member hides: the streams of those members look again. */
const SAFETY_EVENTS = [
  'member.blocked',
  'member.unblocked',
  'member.muted',
  'member.unmuted',
  'word.muted',
  'word.unmuted',
] as const;

export class StreamHub {
  private readonly byMember = new Map<number, MemberStream[]>();
  private readonly byKey = new Map<string, MemberStream>();
  private lastRefresh = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly dirtyUnread = new Set<number>();
  private unreadFlush: Promise<void> | undefined;
  /** Notifications created since the last flush: id -> recipient. */
  private readonly newNotifications = new Map<number, number>();
  private notificationFlush: Promise<void> | undefined;
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: StreamHubDeps) {
    const { events } = deps;
    const stops = [
      events.on('notification.created', (e) => this.notificationCreated(e)),
      events.on(['notification.read', 'notification.withdrawn'], (e) => this.markUnread(e.userId)),
      events.on('post.created', (e) => this.newPost(e)),
      events.on([...SAFETY_EVENTS], (e) => {
        if ('blockerId' in e) this.refreshSafety([e.blockerId, e.blockedId]);
        else this.refreshSafety(['muterId' in e ? e.muterId : e.userId]);
      }),
      events.on(['session.revoked', 'account.suspended'], (e) => this.checkSessions(e.userId)),
      // One session signed out: its streams end (the device is told why when it reconnects).
      events.on('session.ended', (e) => {
        for (const stream of [...(this.byMember.get(e.userId) ?? [])]) {
          if (stream.request.sessionId === e.sessionId) stream.close();
        }
      }),
      events.on('account.deleted', (e) => {
        this.checkSessions(e.userId);
        // Notifications the member caused went with the account: every count may have moved.
        this.markAllUnread();
      }),
      events.on('stream.superseded', (e) => {
        for (const key of e.keys) this.byKey.get(key)?.close();
      }),
      // Events may have been missed: every connected member's count is counted again.
      events.onReset(() => this.markAllUnread()),
    ];
    this.unsubscribe = () => stops.forEach((stop) => stop());
  }

  /** How many streams are open. */
  get size(): number {
    let n = 0;
    for (const list of this.byMember.values()) n += list.length;
    return n;
  }

  /**
   * Opens a member's stream (closing their oldest past the limit): once the app's events are
   * followed, what the client missed is replayed from the database and the counts are sent;
   * live events that arrive meanwhile wait and follow in order.
   */
  async open(request: OpenStreamRequest): Promise<void> {
    if (this.closed) {
      request.sink.end();
      return;
    }
    const stream = new MemberStream(
      request,
      request.tabs.map((t) => ({ tab: t.tab, ids: new Set<number>() })),
      (s) => this.forget(s),
    );
    request.sink.once('close', () => stream.close());
    this.byKey.set(stream.key, stream);
    const list = this.byMember.get(request.userId) ?? [];
    list.push(stream);
    this.byMember.set(request.userId, list);
    const max = this.deps.maxPerMember ?? STREAM_MAX_PER_MEMBER;
    while (list.length > max) list[0]!.close(); // the oldest
    if (request.expiresAt !== undefined) {
      // A timer holds at most ~24.8 days; the token outlives any stream that long anyway.
      const left = Math.min(request.expiresAt - Date.now(), 2 ** 31 - 1);
      if (left <= 0) return stream.close();
      stream.expiry = setTimeout(() => stream.close(), left);
      stream.expiry.unref();
    }
    this.startHeartbeat();
    stream.write(': connected\n\n');
    try {
      await this.deps.ready();
      // Past the limit, the member's oldest streams close, on whichever process they are.
      const dropped = (await this.deps.registry?.register(stream.key, request.userId, max)) ?? [];
      for (const key of dropped) this.byKey.get(key)?.close();
      await this.prime(stream);
    } catch (err) {
      logFailure(this.deps.logger, err, 'live stream could not start');
      stream.close();
    }
  }

  /** Replays what the client missed, then sends the unread count and the tabs' new posts. */
  private async prime(stream: MemberStream): Promise<void> {
    const { userId, lastEventId, tabs } = stream.request;
    const following = tabs.some((t) => t.tab === 'following');
    const [missed, unread, followed, followedTags, safety] = await Promise.all([
      lastEventId !== undefined ? this.deps.notificationsAfter(userId, lastEventId) : [],
      this.deps.unreadCounts([userId]),
      following ? this.deps.followedIds(userId) : undefined,
      following && this.deps.followedTags ? this.deps.followedTags(userId) : undefined,
      this.deps.safetyOf(userId),
    ]);
    stream.followed = followed && new Set(followed);
    stream.followedTags = followedTags && new Set(followedTags);
    stream.safety = safety;
    const newPosts = await Promise.all(
      tabs.map((t) =>
        this.deps.newPostIds(t.tab, t.since, userId, followed ?? [], followedTags ?? []),
      ),
    );
    if (stream.closed) return;
    stream.replay(missed, unread.get(userId) ?? 0, newPosts);
  }

  private forget(stream: MemberStream): void {
    this.byKey.delete(stream.key);
    this.deps.registry
      ?.remove(stream.key)
      .catch((err: unknown) => logFailure(this.deps.logger, err, 'live stream record not removed'));
    const list = this.byMember.get(stream.request.userId);
    if (!list) return;
    const i = list.indexOf(stream);
    if (i >= 0) list.splice(i, 1);
    if (!list.length) this.byMember.delete(stream.request.userId);
    if (this.byMember.size === 0) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }

  /** One timer for all the app's streams. */
  private startHeartbeat(): void {
    if (this.heartbeat) return;
    // Started by the request that opened the first stream, it outlives it: not under its id.
    this.heartbeat = outsideRequest(() =>
      setInterval(() => {
        for (const list of this.byMember.values())
          for (const stream of list) stream.write('event: heartbeat\ndata: {}\n\n');
        this.refreshRecords();
      }, this.deps.heartbeatMs ?? STREAM_HEARTBEAT_MS),
    );
    this.heartbeat.unref();
  }

  /** Keeps this process's stream records alive, a few times per record lifetime. */
  private refreshRecords(): void {
    if (!this.deps.registry || Date.now() - this.lastRefresh < LIVE_STREAM_TTL_MS / 4) return;
    this.lastRefresh = Date.now();
    this.deps.registry
      .refresh([...this.byKey.keys()])
      .catch((err: unknown) =>
        logFailure(this.deps.logger, err, 'live stream records not refreshed'),
      );
  }

  private notificationCreated(e: DomainEventOf<'notification.created'>): void {
    if (!this.byMember.has(e.userId)) return;
    this.newNotifications.set(e.notificationId, e.userId);
    this.flushNotifications();
    this.markUnread(e.userId);
  }

  /** Presents the notifications created since the last flush in one batch, then sends them. */
  private flushNotifications(): void {
    if (this.notificationFlush) return;
    this.notificationFlush = (async () => {
      await Promise.resolve();
      while (this.newNotifications.size) {
        const batch = new Map(this.newNotifications);
        this.newNotifications.clear();
        try {
          const views = await this.deps.notificationsById([...batch.keys()]);
          for (const view of views) {
            const recipient = batch.get(view.id)!;
            const streams = this.byMember.get(recipient) ?? [];
            if (!streams.length) continue;
            // Looked at again now: what the member hides may have changed since the stream began.
            const safety = await this.deps.safetyOf(recipient);
            if (safety.hidesNotification(view)) continue;
            for (const stream of streams) stream.notification(view);
          }
        } catch (err) {
          logFailure(this.deps.logger, err, 'live updates: notifications could not be read');
        }
      }
    })().finally(() => {
      this.notificationFlush = undefined;
    });
  }

  private markUnread(userId: number): void {
    if (!this.byMember.has(userId)) return;
    this.dirtyUnread.add(userId);
    this.flushUnread();
  }

  private markAllUnread(): void {
    for (const userId of this.byMember.keys()) this.dirtyUnread.add(userId);
    this.flushUnread();
  }

  /** Recounts the unread notifications of every member marked since, in one aggregation. */
  private flushUnread(): void {
    if (this.unreadFlush) return;
    this.unreadFlush = (async () => {
      // After the notifications of the same events are sent: the count follows them.
      await Promise.resolve();
      await this.notificationFlush;
      while (this.dirtyUnread.size) {
        const userIds = [...this.dirtyUnread].filter((id) => this.byMember.has(id));
        this.dirtyUnread.clear();
        if (!userIds.length) break;
        try {
          const counts = await this.deps.unreadCounts(userIds);
          for (const userId of userIds)
            for (const stream of this.byMember.get(userId) ?? [])
              stream.unread(counts.get(userId) ?? 0);
        } catch (err) {
          logFailure(this.deps.logger, err, 'live updates: unread counts could not be read');
        }
      }
    })().finally(() => {
      this.unreadFlush = undefined;
    });
  }

  /** A new post: counted in the tabs that show it, for everyone but its author. */
  private newPost(post: DomainEventOf<'post.created'>): void {
    for (const list of this.byMember.values()) {
      for (const stream of list) {
        if (stream.request.userId === post.authorId) continue;
        // Never a new post of a member the stream's member blocked, was blocked by, or mutes
        // (before the stream has read what its member hides, its replay counts the posts).
        const { safety } = stream;
        if (!safety || safety.hidesAuthor(post.authorId)) continue;
        // Nor a repost or quote of one of them.
        if (post.originalAuthorId != null && safety.hidesAuthor(post.originalAuthorId)) continue;
        stream.tabs.forEach((t, i) => {
          if (post.postId > stream.request.tabs[i]!.since && showsIn(t.tab, post, stream))
            stream.newPost(i, post.postId);
        });
      }
    }
  }

  /** What these members hide changed: their streams read it again. */
  private refreshSafety(userIds: number[]): void {
    for (const userId of userIds) {
      const streams = this.byMember.get(userId);
      if (!streams?.length) continue;
      this.deps.safetyOf(userId).then(
        (safety) => {
          for (const stream of streams) stream.safety = safety;
        },
        (err: unknown) => logFailure(this.deps.logger, err, 'live updates: safety not read'),
      );
    }
  }

  /** A member's sessions changed: ends the streams whose session is no longer accepted. */
  private checkSessions(userId: number): void {
    for (const stream of [...(this.byMember.get(userId) ?? [])]) {
      this.deps.sessionValid(stream.request.userId, stream.request.issuedAt).then(
        (valid) => {
          if (!valid) stream.close();
        },
        (err: unknown) => logFailure(this.deps.logger, err, 'live updates: session check failed'),
      );
    }
  }

  /** Ends every stream. */
  closeAll(): void {
    for (const list of [...this.byMember.values()]) for (const s of [...list]) s.close();
  }

  /** The app is closing: ends every stream, refuses new ones and stops hearing events. */
  close(): void {
    this.closed = true;
    this.unsubscribe();
    this.closeAll();
  }
}

/** Whether a new post shows in `tab` for the stream's member. */
function showsIn(tab: FeedTab, post: DomainEventOf<'post.created'>, stream: MemberStream): boolean {
  if (tab === 'following') {
    if (stream.followed?.has(post.authorId)) return true;
    const tags = stream.followedTags;
    return !!tags && tags.size > 0 && (post.tags ?? []).some((t) => tags.has(t));
  }
  if (tab === 'jd') return post.isJdTagged;
  return true;
}
