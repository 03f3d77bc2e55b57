/**
 * Notification pages as their recipient last read them (`GET /api/notifications`, flat and
 * grouped), kept as the JSON sent, per recipient, for `READ_CACHE_MS`. A page depends on the
 * recipient's notifications and on what they show (actors' names and avatars, post previews,
 * comment texts), so it is forgotten by the events that change either (`subscribe`):
 *
 * - a notification created for a member, or read, or withdrawn, forgets that member's pages only
 *   (most events: a like, a comment or a follow notifies one member);
 * - a change of what pages show (a name or an avatar, a post or comment edited, deleted or
 *   hidden, an account deleted) forgets every page; counts moving, new posts or comments, a feedback's
 *   status or an application's decision change no page (what pages quote of them stays).
 *
 * A page read while an event that forgets it arrived is not kept, and concurrent misses of one
 * page are read once (OwnedPages).
 */
import type { DomainEvent } from '../../domain-events';
import type { EventBus } from '../../platform/event-bus';
import { OwnedPages } from '../../platform/owned-pages';
import type { CacheCounts } from '../../platform/read-cache';

/** Members whose pages are kept at most (the least recently stored go first). */
const MAX_MEMBERS = 10_000;
/** Pages kept per member at most (grouped pages by cursor, the flat list). */
const MAX_PAGES_PER_MEMBER = 20;

export class NotificationPageCache {
  private readonly pages: OwnedPages<string>;

  constructor(ttlMs: number) {
    this.pages = new OwnedPages(ttlMs, MAX_MEMBERS, MAX_PAGES_PER_MEMBER);
  }

  /**
   * The page `key` of `userId`'s notifications as JSON: kept, or `load` run (once for concurrent
   * callers) and kept unless an event concerning it arrived meanwhile.
   */
  page(userId: number, key: string, load: () => Promise<string>): Promise<string> {
    return this.pages.page(userId, key, load);
  }

  clear(): void {
    this.pages.clear();
  }

  /** Pages asked for (the metrics' hit ratios). */
  get counts(): CacheCounts {
    return this.pages.counts;
  }

  /** Members with pages kept. */
  get size(): number {
    return this.pages.size;
  }

  /** Forgets what each event may change; returns the unsubscribe function. */
  subscribe(events: EventBus<DomainEvent>): () => void {
    const stops = [
      events.on(['notification.created', 'notification.read', 'notification.withdrawn'], (e) =>
        this.pages.forgetOwner(e.userId),
      ),
      // What the member hides changed (modules/safety): their pages, and a block's other side.
      events.on(['member.blocked', 'member.unblocked'], (e) => {
        this.pages.forgetOwner(e.blockerId);
        this.pages.forgetOwner(e.blockedId);
      }),
      events.on(['member.muted', 'member.unmuted'], (e) => this.pages.forgetOwner(e.muterId)),
      events.on(['word.muted', 'word.unmuted'], (e) => this.pages.forgetOwner(e.userId)),
      // A removal's notification now reads as appealed.
      events.on('appeal.filed', (e) => this.pages.forgetOwner(e.memberId)),
      events.on(
        [
          'profile.updated',
          'post.deleted',
          'post.edited',
          'post.restored',
          'comment.removed',
          'comment.restored',
          'comment.edited',
          'comment.deleted',
          'account.suspended',
          'account.reactivated',
          'account.deleted',
        ],
        () => this.clear(),
      ),
      events.onReset(() => this.clear()),
    ];
    return () => stops.forEach((stop) => stop());
  }
}
