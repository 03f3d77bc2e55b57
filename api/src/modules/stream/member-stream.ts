/**
 * One member's open live stream (`GET /api/stream`) as the hub (hub.ts) holds it: it replays what
 * the client missed before live events, counts new posts per tab once, and closes itself when
 * its client reads too slowly.
 */
import { randomUUID } from 'node:crypto';
import {
  STREAM_POSTS_MAX_COUNT,
  type FeedTab,
  type Notification,
  type StreamEventName,
} from '@campus/contracts';

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
  /** The session the stream's token belongs to: signing it out ends the stream. */
  sessionId?: string;
  /** Epoch ms when the token expires; the stream ends then. */
  expiresAt: number | undefined;
  tabs: Array<{ tab: FeedTab; since: number }>;
  /** The `Last-Event-ID` sent by a reconnecting client. */
  lastEventId: number | undefined;
  sink: StreamSink;
}

/** A stream whose client reads more slowly than events come is closed past this backlog. */
const MAX_BACKLOG_BYTES = 1 << 20;
export interface TabCount {
  tab: FeedTab;
  /** The new posts counted (at most STREAM_POSTS_MAX_COUNT): a set, so nothing counts twice. */
  ids: Set<number>;
}

/** One open stream of one member. */
export class MemberStream {
  /** How the stream is known in the registry of every process's streams. */
  readonly key = randomUUID();
  /** While the stream replays what the client missed, live events wait here, in order. */
  private pending: Array<() => void> | null = [];
  /** Notifications the replay sent: the same notification arriving live is not sent again. */
  private replayed = new Set<number>();
  expiry: NodeJS.Timeout | undefined;
  lastUnread = -1;
  followed: Set<number> | undefined;
  /** The tags the member follows (issue 40): their posts count in Following too. */
  followedTags: Set<string> | undefined;
  /** What the member hides (read when the stream starts, again when it changes). */
  safety: { hidesAuthor(userId: number): boolean } | undefined;
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

  /**
   * The replay of what the client missed: the notifications after its last event, the unread
   * count and each tab's new posts; then the live events that waited follow, in order.
   */
  replay(missed: Notification[], unread: number, newPosts: number[][]): void {
    for (const n of missed) this.send('notification', n, n.id);
    this.lastUnread = unread;
    this.send('unread', { count: unread });
    this.tabs.forEach((t, i) => {
      for (const id of newPosts[i]!) if (t.ids.size < STREAM_POSTS_MAX_COUNT) t.ids.add(id);
      this.send('posts', { tab: t.tab, count: t.ids.size });
    });
    this.primed(missed.map((n) => n.id));
  }

  /** Ends the replay: `replayed` notifications are not sent again; waiting events follow. */
  private primed(replayed: number[]): void {
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
