/**
 * Notification pages as their recipient last read them (`GET /api/notifications`, flat and
 * grouped), kept as the JSON sent, per recipient, for `READ_CACHE_MS`. A page depends on the
 * recipient's notifications and on what they show (actors' names and avatars, post previews,
 * comment texts, feedback and applications), so every write that may change one is forgotten
 * (`forget`, on the app's one invalidation path in read-caches.ts, and for other API processes
 * through the change stream):
 *
 * - a notification written for a member forgets that member's pages only (most writes: a like,
 *   a comment or a follow notifies one member); one named only by id (a change from another
 *   process) forgets its recipient's pages when a kept page holds it, and every page when it
 *   could make a notification appear on or vanish from a page (a delete, an unknown change);
 * - an edit of what pages show (a name, an avatar, a post or comment deleted or hidden, feedback
 *   or an application changed) forgets every page; counts moving (likesCount...), activity
 *   timestamps and new posts or comments change no page and forget nothing.
 *
 * A page read while a write that forgets it ran is not kept (generations, as in ReadCache), and
 * concurrent misses of one page are read once (single flight).
 */
import { pinned, updatedFields, type WriteEvent } from '../../platform/write-events';
import { OwnedPages } from '../../platform/owned-pages';

/** The collections whose writes may change a notification page. */
export const NOTIFICATION_PAGE_SOURCES = [
  'notifications',
  'users',
  'posts',
  'comments',
  'feedback',
  'account_applications',
] as const;

/** Members whose pages are kept at most (the least recently stored go first). */
const MAX_MEMBERS = 10_000;
/** Pages kept per member at most (grouped pages by cursor, the flat list). */
const MAX_PAGES_PER_MEMBER = 20;

/** Fields of shown documents whose change no page shows. */
const UNSHOWN_FIELDS: Record<string, ReadonlySet<string>> = {
  posts: new Set(['likesCount', 'commentsCount', 'repostsCount']),
  comments: new Set(['likesCount']),
};
/** Of the users' fields, those pages show (actors); any other may change freely. */
const SHOWN_USER_FIELDS = new Set(['name', 'avatarUrl']);

export class NotificationPageCache {
  private readonly pages: OwnedPages<string>;

  constructor(ttlMs: number) {
    this.pages = new OwnedPages(ttlMs, MAX_MEMBERS, MAX_PAGES_PER_MEMBER);
  }

  /**
   * The page `key` of `userId`'s notifications as JSON: kept, or `load` run (once for concurrent
   * callers) and kept unless a write concerning it ran meanwhile. `load` answers the page and the
   * ids of the notifications it holds.
   */
  page(
    userId: number,
    key: string,
    load: () => Promise<{ json: string; ids: number[] }>,
  ): Promise<string> {
    return this.pages.page(userId, key, async () => {
      const { json, ids } = await load();
      return { value: json, items: ids };
    });
  }

  forgetMember(userId: number): void {
    this.pages.forgetOwner(userId);
  }

  clear(): void {
    this.pages.clear();
  }

  /** Members with pages kept. */
  get size(): number {
    return this.pages.size;
  }

  /** A write announced on one of NOTIFICATION_PAGE_SOURCES: forgets what it may change. */
  forget(collection: string, event: WriteEvent): void {
    if (collection === 'notifications') this.forgetNotifications(event);
    else if ((NOTIFICATION_PAGE_SOURCES as readonly string[]).includes(collection))
      this.forgetShown(collection, event);
  }

  private forgetNotifications(event: WriteEvent): void {
    if (event.unknown) return this.clear();
    if (event.documents) {
      for (const doc of event.documents) {
        if (typeof doc.userId === 'number') this.forgetMember(doc.userId);
        else return this.clear();
      }
      return;
    }
    const userId = pinned(event.filter, 'userId');
    if (userId !== undefined) return this.forgetMember(userId);
    const id = pinned(event.filter, '_id');
    const owner = id === undefined ? undefined : this.pages.ownerOf(id);
    if (owner !== undefined) return this.forgetMember(owner);
    // A notification on no kept page, by id: marking it read changes no kept page (a page holds
    // every notification whose state it shows); anything else (a delete) may move pages.
    const fields = updatedFields(event.update);
    if (id !== undefined && event.update !== undefined && fields && fields.size > 0) {
      if ([...fields].every((f) => f === 'isRead')) return;
    }
    this.clear();
  }

  private forgetShown(collection: string, event: WriteEvent): void {
    // New posts, comments, accounts, feedback or applications change no page already kept: a
    // notification about them arrives as a write to `notifications`.
    if (event.documents && !event.unknown) return;
    const fields = updatedFields(event.update);
    if (event.update !== undefined && fields && fields.size > 0) {
      if (collection === 'users' && ![...fields].some((f) => SHOWN_USER_FIELDS.has(f))) return;
      const unshown = UNSHOWN_FIELDS[collection];
      if (unshown && [...fields].every((f) => unshown.has(f))) return;
    }
    this.clear();
  }
}
