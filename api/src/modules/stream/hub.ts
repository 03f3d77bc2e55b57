/**
 * The live streams of one app (`GET /api/stream`, api/README.md "Live stream"). The hub follows
 * ONE change stream on the database (notifications, new posts, account changes) for all of the
 * app's open streams, so an event written by any API process reaches the members connected to
 * this one, and fans each change out to the streams it concerns. It is opened with the first
 * stream and closed with the last one (or with the app).
 */
import { randomUUID } from 'node:crypto';
import type { Connection, mongo } from 'mongoose';
import {
  STREAM_HEARTBEAT_MS,
  STREAM_MAX_PER_MEMBER,
  STREAM_POSTS_MAX_COUNT,
  type FeedTab,
  type Notification,
  type StreamEventName,
} from '@campus/contracts';
import type { Logger } from '../../platform/logger';
import { LIVE_STREAM_TTL_MS, type StreamRegistry } from './registry';

/** What a new post looks like to the hub (the fields of the stored post it reads). */
export interface NewPost {
  _id: number;
  authorId: number;
  isJdTagged?: boolean;
  deletedAt?: Date | null;
  authorSuspended?: boolean;
}

export interface StreamHubDeps {
  /** The app's database connection: the one change stream is opened on its database. */
  connection: Connection;
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
  ): Promise<number[]>;
  followedIds(userId: number): Promise<number[]>;
  /** Whether a token of `userId` issued at `issuedAt` (epoch ms) is still accepted. */
  sessionValid(userId: number, issuedAt: number): Promise<boolean>;
  /** The open streams of every process: the per-member limit holds across processes. */
  registry?: StreamRegistry;
  logger: Logger;
  heartbeatMs?: number;
  maxPerMember?: number;
}

/** Where a stream's events go: the response body (a PassThrough the route hands to Koa). */
export interface StreamSink {
  write(chunk: string): boolean;
  end(): void;
  readonly writableLength: number;
  /** Koa destroys the body when the client hangs up: the stream then goes. */
  once(event: 'close', listener: () => void): unknown;
}

export interface OpenStreamRequest {
  userId: number;
  issuedAt: number;
  /** Epoch ms when the token expires; the stream ends then. */
  expiresAt: number | undefined;
  tabs: Array<{ tab: FeedTab; since: number }>;
  /** The `Last-Event-ID` sent by a reconnecting client. */
  lastEventId: number | undefined;
  sink: StreamSink;
}

/** A stream whose client reads more slowly than events come is closed past this backlog. */
const MAX_BACKLOG_BYTES = 1 << 20;
/** How long the hub waits before reopening a change stream that failed. */
const REOPEN_MS = 1_000;

interface TabCount {
  tab: FeedTab;
  /** The new posts counted (at most STREAM_POSTS_MAX_COUNT): a set, so nothing counts twice. */
  ids: Set<number>;
}

/** One open stream of one member. */
class MemberStream {
  /** How the stream is known in the registry of every process's streams. */
  readonly key = randomUUID();
  /** While the stream replays what the client missed, live events wait here, in order. */
  private pending: Array<() => void> | null = [];
  /** Notifications the replay sent: the same notification arriving live is not sent again. */
  private replayed = new Set<number>();
  expiry: NodeJS.Timeout | undefined;
  lastUnread = -1;
  followed: Set<number> | undefined;
  closed = false;

  constructor(
    readonly request: OpenStreamRequest,
    readonly tabs: TabCount[],
    private readonly onClose: (stream: MemberStream) => void,
  ) {}

  /** Runs `deliver` now, or after the replay while the stream is still replaying. */
  private later(deliver: () => void): void {
    if (this.pending) this.pending.push(deliver);
    else deliver();
  }

  /** Ends the replay: `replayed` notifications are not sent again; waiting events follow. */
  primed(replayed: number[]): void {
    this.replayed = new Set(replayed);
    const waiting = this.pending ?? [];
    this.pending = null;
    for (const deliver of waiting) deliver();
  }

  notification(view: Notification): void {
    this.later(() => {
      if (!this.replayed.has(view.id)) this.send('notification', view, view.id);
    });
  }

  unread(count: number): void {
    this.later(() => {
      if (count === this.lastUnread) return;
      this.lastUnread = count;
      this.send('unread', { count });
    });
  }

  /** A new post in the tab at `index`: counted once, and the count sent when it grew. */
  newPost(index: number, postId: number): void {
    const tab = this.tabs[index]!;
    if (tab.ids.has(postId) || tab.ids.size >= STREAM_POSTS_MAX_COUNT) return;
    tab.ids.add(postId);
    this.later(() => this.send('posts', { tab: tab.tab, count: tab.ids.size }));
  }

  send(event: StreamEventName, data: unknown, id?: number): void {
    const idLine = id !== undefined ? `id: ${id}\n` : '';
    this.write(`event: ${event}\n${idLine}data: ${JSON.stringify(data)}\n\n`);
  }

  write(chunk: string): void {
    if (this.closed) return;
    this.request.sink.write(chunk);
    if (this.request.sink.writableLength > MAX_BACKLOG_BYTES) this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.expiry);
    this.request.sink.end();
    this.onClose(this);
  }
}

type Change = mongo.ChangeStreamDocument<Record<string, unknown> & { _id: number }>;

const WATCHED: mongo.Document[] = [
  {
    $match: {
      $or: [
        { 'ns.coll': { $in: ['notifications', 'users'] } },
        { 'ns.coll': 'posts', operationType: 'insert' },
        { 'ns.coll': 'live_streams', operationType: 'delete' },
        { operationType: { $in: ['drop', 'dropDatabase', 'invalidate'] } },
      ],
    },
  },
];

export class StreamHub {
  private readonly byMember = new Map<number, MemberStream[]>();
  private readonly byKey = new Map<string, MemberStream>();
  private lastRefresh = 0;
  private changes: mongo.ChangeStream | undefined;
  /** Resolves once the change stream is established (every later write reaches it). */
  private ready: Promise<void> | undefined;
  private resumeToken: unknown;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly dirtyUnread = new Set<number>();
  private unreadFlush: Promise<void> | undefined;
  /** Notifications inserted since the last flush: id -> recipient. */
  private readonly newNotifications = new Map<number, number>();
  private notificationFlush: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly deps: StreamHubDeps) {}

  /** How many streams are open. */
  get size(): number {
    let n = 0;
    for (const list of this.byMember.values()) n += list.length;
    return n;
  }

  /** Whether the hub's one change stream is open. */
  get following(): boolean {
    return this.changes !== undefined;
  }

  /**
   * Opens a member's stream (closing their oldest past the limit): the change stream is
   * established first, then what the client missed is replayed from the database and the
   * counts are sent; live events that arrive meanwhile wait and follow in order.
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
      await this.follow();
      // Past the limit, the member's oldest streams close, on whichever process they are.
      const dropped = (await this.deps.registry?.register(stream.key, request.userId, max)) ?? [];
      for (const key of dropped) this.byKey.get(key)?.close();
      await this.prime(stream);
    } catch (err) {
      this.deps.logger.warn({ err }, 'live stream could not start');
      stream.close();
    }
  }

  /** Replays what the client missed, then sends the unread count and the tabs' new posts. */
  private async prime(stream: MemberStream): Promise<void> {
    const { userId, lastEventId, tabs } = stream.request;
    const [missed, unread, followed] = await Promise.all([
      lastEventId !== undefined ? this.deps.notificationsAfter(userId, lastEventId) : [],
      this.deps.unreadCounts([userId]),
      tabs.some((t) => t.tab === 'following') ? this.deps.followedIds(userId) : undefined,
    ]);
    stream.followed = followed && new Set(followed);
    const newPosts = await Promise.all(
      tabs.map((t) => this.deps.newPostIds(t.tab, t.since, userId, followed ?? [])),
    );
    if (stream.closed) return;
    for (const n of missed) stream.send('notification', n, n.id);
    stream.lastUnread = unread.get(userId) ?? 0;
    stream.send('unread', { count: stream.lastUnread });
    tabs.forEach((t, i) => {
      const counted = stream.tabs[i]!.ids;
      for (const id of newPosts[i]!) if (counted.size < STREAM_POSTS_MAX_COUNT) counted.add(id);
      stream.send('posts', { tab: t.tab, count: counted.size });
    });
    stream.primed(missed.map((n) => n.id));
  }

  private forget(stream: MemberStream): void {
    this.byKey.delete(stream.key);
    this.deps.registry
      ?.remove(stream.key)
      .catch((err: unknown) => this.deps.logger.warn({ err }, 'live stream record not removed'));
    const list = this.byMember.get(stream.request.userId);
    if (!list) return;
    const i = list.indexOf(stream);
    if (i >= 0) list.splice(i, 1);
    if (!list.length) this.byMember.delete(stream.request.userId);
    if (this.byMember.size === 0) this.stopFollowing();
  }

  /** One timer for all the app's streams. */
  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      for (const list of this.byMember.values())
        for (const stream of list) stream.write(': heartbeat\n\n');
      this.refreshRecords();
    }, this.deps.heartbeatMs ?? STREAM_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Keeps this process's stream records alive, a few times per record lifetime. */
  private refreshRecords(): void {
    if (!this.deps.registry || Date.now() - this.lastRefresh < LIVE_STREAM_TTL_MS / 4) return;
    this.lastRefresh = Date.now();
    this.deps.registry
      .refresh([...this.byKey.keys()])
      .catch((err: unknown) => this.deps.logger.warn({ err }, 'live stream records not refreshed'));
  }

  /** Opens the change stream unless it is open; resolves once it is established. */
  private follow(): Promise<void> {
    if (this.ready) return this.ready;
    const db = this.deps.connection.db;
    if (!db) return Promise.reject(new Error('The database is not connected'));
    const changes = db.watch(WATCHED, {
      fullDocument: 'updateLookup',
      ...(this.resumeToken ? { resumeAfter: this.resumeToken } : {}),
    });
    this.changes = changes;
    const ready = (async () => {
      // The first round trip establishes the cursor: from then on no write is missed.
      const first = await changes.tryNext();
      if (first) this.onChange(first as Change);
      void this.pump(changes);
    })();
    this.ready = ready;
    ready.catch(() => {
      if (this.changes === changes) {
        this.changes = undefined;
        this.ready = undefined;
      }
      changes.close().catch(() => undefined);
    });
    return ready;
  }

  private async pump(changes: mongo.ChangeStream): Promise<void> {
    try {
      while (this.changes === changes) this.onChange((await changes.next()) as Change);
    } catch (err) {
      if (this.changes !== changes) return; // closed on purpose
      this.deps.logger.warn({ err }, 'live updates: the change stream failed; reopening it');
      this.changes = undefined;
      this.ready = undefined;
      changes.close().catch(() => undefined);
      setTimeout(() => void this.reopen(), REOPEN_MS).unref();
    }
  }

  /** Follows again from where the failed stream stopped, else afresh; counts are recounted. */
  private async reopen(): Promise<void> {
    if (this.byMember.size === 0 || this.closed) return;
    try {
      await this.follow();
    } catch {
      this.resumeToken = undefined; // history lost
      try {
        await this.follow();
      } catch (err) {
        this.deps.logger.warn({ err }, 'live updates: cannot follow changes; ending the streams');
        this.closeAll();
        return;
      }
    }
    this.markAllUnread();
  }

  private stopFollowing(): void {
    const changes = this.changes;
    this.changes = undefined;
    this.ready = undefined;
    this.resumeToken = undefined;
    changes?.close().catch(() => undefined);
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  private onChange(change: Change): void {
    this.resumeToken = change._id;
    const type = change.operationType;
    if (type === 'drop' || type === 'dropDatabase' || type === 'invalidate') {
      this.markAllUnread();
      return;
    }
    if (!('ns' in change)) return;
    const coll = change.ns.coll;
    if (coll === 'notifications') this.onNotificationChange(change);
    else if (coll === 'posts' && type === 'insert')
      this.onNewPost(change.fullDocument as unknown as NewPost);
    else if (coll === 'users') this.onAccountChange(change);
    else if (coll === 'live_streams' && 'documentKey' in change)
      // Another process opened one stream too many for this member: this one was the oldest.
      this.byKey.get(String(change.documentKey._id))?.close();
  }

  private onNotificationChange(change: Change): void {
    if (change.operationType === 'delete') {
      // Whose it was went with it: recount every connected member (one aggregation).
      this.markAllUnread();
      return;
    }
    const doc = 'fullDocument' in change ? change.fullDocument : undefined;
    const userId = doc?.userId;
    if (typeof userId !== 'number' || !this.byMember.has(userId)) return;
    if (change.operationType === 'insert') {
      this.newNotifications.set(doc!._id, userId);
      this.flushNotifications();
    }
    this.markUnread(userId);
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
          for (const view of views)
            for (const stream of this.byMember.get(batch.get(view.id)!) ?? [])
              stream.notification(view);
        } catch (err) {
          this.deps.logger.warn({ err }, 'live updates: notifications could not be read');
        }
      }
    })().finally(() => {
      this.notificationFlush = undefined;
    });
  }

  private markUnread(userId: number): void {
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
      // After the notifications of the same changes are sent: the count follows them.
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
          this.deps.logger.warn({ err }, 'live updates: unread counts could not be read');
        }
      }
    })().finally(() => {
      this.unreadFlush = undefined;
    });
  }

  private onNewPost(post: NewPost | undefined): void {
    if (!post || post.deletedAt || post.authorSuspended) return;
    for (const list of this.byMember.values()) {
      for (const stream of list) {
        if (stream.request.userId === post.authorId) continue;
        stream.tabs.forEach((t, i) => {
          if (post._id > stream.request.tabs[i]!.since && showsIn(t.tab, post, stream))
            stream.newPost(i, post._id);
        });
      }
    }
  }

  /** A member's account changed: ends the streams whose session it no longer accepts. */
  private onAccountChange(change: Change): void {
    const userId = 'documentKey' in change ? change.documentKey._id : undefined;
    const list = typeof userId === 'number' ? this.byMember.get(userId) : undefined;
    if (!list) return;
    if (change.operationType === 'update') {
      const { updatedFields = {}, removedFields = [] } = change.updateDescription;
      const fields = [...Object.keys(updatedFields), ...removedFields];
      // Activity timestamps and search terms change nothing about a session.
      if (fields.every((f) => f.startsWith('lastActiveAt') || f.startsWith('searchTerms'))) return;
    }
    for (const stream of [...list]) {
      this.deps.sessionValid(stream.request.userId, stream.request.issuedAt).then(
        (valid) => {
          if (!valid) stream.close();
        },
        (err: unknown) => this.deps.logger.warn({ err }, 'live updates: session check failed'),
      );
    }
  }

  /** Ends every stream and stops following changes. */
  closeAll(): void {
    for (const list of [...this.byMember.values()]) for (const s of [...list]) s.close();
    this.stopFollowing();
  }

  /** The app is closing: ends every stream and refuses new ones. */
  close(): void {
    this.closed = true;
    this.closeAll();
  }
}

/** Whether a new post shows in `tab` for the stream's member. */
function showsIn(tab: FeedTab, post: NewPost, stream: MemberStream): boolean {
  if (tab === 'following') return stream.followed?.has(post.authorId) ?? false;
  if (tab === 'jd') return post.isJdTagged === true;
  return true;
}
