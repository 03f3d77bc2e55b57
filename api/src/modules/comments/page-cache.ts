/**
 * Pages of a post's comments (the detail's first page, `GET /api/posts/:id/comments?cursor=`),
 * kept per post for `READ_CACHE_MS` as stored comments (the viewer's likes and the authors are
 * added per request), and each viewer's likes of comments. Forgotten by the events that change
 * them (`subscribe`), from this process and every other:
 *
 * - a comment created, liked, unliked, edited, deleted or removed under a post forgets that
 *   post's pages (a like moves the comment's count), and a like or unlike the liker's
 *   remembered likes;
 * - an account suspended, reactivated or deleted forgets every page (its comments are hidden,
 *   shown again or gone).
 *
 * A page read while an event that forgets it arrived is not kept, and concurrent misses of one
 * page are read once (OwnedPages).
 */
import type { DomainEvent } from '../../domain-events';
import type { EventBus } from '../../platform/event-bus';
import { OwnedPages } from '../../platform/owned-pages';
import { ReadCache, type CacheCounts } from '../../platform/read-cache';
import type { CommentDoc } from './model';

/** Posts whose pages are kept at most. */
const MAX_POSTS = 5_000;
const MAX_PAGES_PER_POST = 50;
const MAX_VIEWERS = 10_000;
/** A viewer's remembered likes are started afresh past this many comments. */
const MAX_FLAGS_PER_VIEWER = 5_000;

/** One page as stored: the top-level comments and their replies (visible ones, oldest first). */
export interface StoredCommentPage {
  top: CommentDoc[];
  replies: CommentDoc[];
  nextCursor: string | null;
}

interface ViewerLikes {
  /** Comments whose like by the viewer is known. */
  known: Set<number>;
  liked: Set<number>;
}

export class CommentPageCache {
  private readonly pages: OwnedPages<StoredCommentPage>;
  private readonly viewers: ReadCache<number, ViewerLikes>;

  constructor(ttlMs: number) {
    this.pages = new OwnedPages(ttlMs, MAX_POSTS, MAX_PAGES_PER_POST);
    this.viewers = new ReadCache(ttlMs, MAX_VIEWERS);
  }

  /** Lookups of pages and of viewers' likes (the metrics' hit ratios). */
  counts(): Record<string, CacheCounts> {
    return { 'comment-pages': this.pages.counts, 'comment-likes': this.viewers.counts };
  }

  /**
   * The page of `postId`'s comments after `cursor` ('' for the first): kept, or `load` run (once
   * for concurrent callers) and kept.
   */
  page(postId: number, cursor: string, load: () => Promise<StoredCommentPage>) {
    return this.pages.page(postId, cursor, load);
  }

  /** Which of `commentIds` the viewer has liked: remembered, or the unknown ones read. */
  async likedComments(
    viewerId: number,
    commentIds: number[],
    /** The liked ones among `ids` (the keys). */
    read: (ids: number[]) => Promise<Map<number, number>>,
  ): Promise<ReadonlySet<number>> {
    if (commentIds.length === 0) return new Set();
    const kept = this.viewers.get(viewerId);
    const unknown = kept ? commentIds.filter((id) => !kept.known.has(id)) : commentIds;
    if (kept && unknown.length === 0) return kept.liked;
    const base =
      kept && kept.known.size + unknown.length <= MAX_FLAGS_PER_VIEWER ? kept : undefined;
    const missing = base ? unknown : commentIds;
    const mark = this.viewers.mark();
    const liked = await read(missing);
    const flags: ViewerLikes = {
      known: new Set([...(base?.known ?? []), ...missing]),
      liked: new Set([...(base?.liked ?? []), ...liked.keys()]),
    };
    this.viewers.set(viewerId, flags, mark);
    return flags.liked;
  }

  clear(): void {
    this.pages.clear();
    this.viewers.clear();
  }

  /** Posts with pages kept. */
  get size(): number {
    return this.pages.size;
  }

  /** Forgets what each event may change; returns the unsubscribe function. */
  subscribe(events: EventBus<DomainEvent>): () => void {
    const stops = [
      events.on(
        [
          'comment.created',
          'comment.removed',
          'comment.restored',
          'comment.edited',
          'comment.deleted',
        ],
        (e) => this.pages.forgetOwner(e.postId),
      ),
      events.on(['comment.liked', 'comment.unliked'], (e) => {
        this.pages.forgetOwner(e.postId);
        this.viewers.delete(e.userId);
      }),
      events.on(['account.suspended', 'account.reactivated', 'account.deleted'], () =>
        this.clear(),
      ),
      events.onReset(() => this.clear()),
    ];
    return () => stops.forEach((stop) => stop());
  }
}
