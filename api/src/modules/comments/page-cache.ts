/**
 * Pages of a post's comments (the detail's first page, `GET /api/posts/:id/comments?cursor=`),
 * kept per post for `READ_CACHE_MS` as stored comments (the viewer's likes and the authors are
 * added per request), and each viewer's likes of comments. Forgotten on the app's one
 * invalidation path (read-caches.ts), which also carries other API processes' writes:
 *
 * - a comment written under a post (a new comment or reply, a like count moving, a removal)
 *   forgets that post's pages; a comment known only by id (another process's change) forgets
 *   its post's pages when a kept page holds it, nothing when only its like count moved, and
 *   every page otherwise (it may be one that appears: a suspended author reactivated);
 * - a like or unlike by a member forgets that member's remembered likes; an unlike known only by
 *   the like's `_id` (another process's, or the echo of this one's) forgets the member whose
 *   remembered likes hold it (MemberDocuments), nobody else's.
 *
 * A page read while a write that forgets it ran is not kept, and concurrent misses of one page
 * are read once (OwnedPages).
 */
import { forgetMembersOf, MemberDocuments, ReadCache } from '../../platform/read-cache';
import { pinned, updatedFields, type WriteEvent } from '../../platform/write-events';
import { OwnedPages } from '../../platform/owned-pages';
import type { CommentDoc } from './model';

/** The collections whose writes may change a kept page or a viewer's likes. */
export const COMMENT_PAGE_SOURCES = ['comments', 'likes'] as const;

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
  /** The member of each like the viewers' remembered likes were read from. */
  private readonly likeOwners = new MemberDocuments();

  constructor(ttlMs: number) {
    this.pages = new OwnedPages(ttlMs, MAX_POSTS, MAX_PAGES_PER_POST);
    this.viewers = new ReadCache(ttlMs, MAX_VIEWERS);
  }

  /**
   * The page of `postId`'s comments after `cursor` ('' for the first): kept, or `load` run (once
   * for concurrent callers) and kept. `load` also names every comment the page depends on (the
   * one read past its end too, which decides `nextCursor`).
   */
  page(
    postId: number,
    cursor: string,
    load: () => Promise<{ page: StoredCommentPage; ids: number[] }>,
  ): Promise<StoredCommentPage> {
    return this.pages.page(postId, cursor, async () => {
      const { page, ids } = await load();
      return { value: page, items: ids };
    });
  }

  /** Which of `commentIds` the viewer has liked: remembered, or the unknown ones read. */
  async likedComments(
    viewerId: number,
    commentIds: number[],
    /** The liked ones among `ids`, each with its like's `_id`. */
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
    if (!this.likeOwners.add(viewerId, liked.values())) this.viewers.clear();
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
    this.likeOwners.clear();
  }

  /** Posts with pages kept. */
  get size(): number {
    return this.pages.size;
  }

  /** A write announced on `collection`: forgets what it may change. */
  forget(collection: string, event: WriteEvent): void {
    if (collection === 'comments') this.forgetComments(event);
    else if (collection === 'likes') forgetMembersOf(this.viewers, event, this.likeOwners);
  }

  private forgetComments(event: WriteEvent): void {
    if (event.unknown) return this.pages.clear();
    if (event.documents) {
      for (const doc of event.documents) {
        if (typeof doc.postId === 'number') this.pages.forgetOwner(doc.postId);
        else return this.pages.clear();
      }
      return;
    }
    const postId = pinned(event.filter, 'postId');
    if (postId !== undefined) return this.pages.forgetOwner(postId);
    const id = pinned(event.filter, '_id');
    const owner = id === undefined ? undefined : this.pages.ownerOf(id);
    if (owner !== undefined) return this.pages.forgetOwner(owner);
    // A comment on no kept page whose like count moved changes no kept page.
    const fields = updatedFields(event.update);
    if (
      id !== undefined &&
      fields &&
      fields.size > 0 &&
      [...fields].every((f) => f === 'likesCount')
    )
      return;
    this.pages.clear();
  }
}
