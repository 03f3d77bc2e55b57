/**
 * What feed pages read again and again, kept by one app for `READ_CACHE_MS`:
 *
 * - the post ids of a page: For You and JD pages (shared by every viewer), Following pages (per
 *   viewer) and Top Posts (top-posts.ts, apart, since every like or comment reorders it);
 * - stored posts by id, the originals of reposts included;
 * - which of those posts a viewer has liked, reposted and bookmarked;
 * - the newest HEAD_SIZE posts of For You and of JD (feed-heads.ts): a new post is added to them
 *   by reading only the posts newer than the ones held.
 *
 * The cache forgets exactly what each domain event may change (`subscribe`): a like forgets its
 * post (its count) and the liker's flags, an edit its post (its text), a follow the follower's Following pages, a new post the
 * pages it joins. Events arrive after their commit, from this process and from every other, and a
 * read that overlapped the forgetting of what it read is not stored (see ReadCache), so the app
 * never keeps what a committed write changed.
 */
import type { DomainEvent } from '../../domain-events';
import type { EventBus } from '../../platform/event-bus';
import { singleFlight } from '../../platform/in-flight';
import { findOneBatch } from '../../platform/one-batch';
import { addCounts, ReadCache, type CacheCounts } from '../../platform/read-cache';
import { FeedHeads, HEAD_SIZE, type HeadQuery } from './feed-heads';
import type { PostDoc, PostModel } from './model';
import { TopPosts } from './top-posts';
import { ViewerFlagsCache } from './viewer-flags';

export type PageKind = 'shared' | 'following';

/** Where the cache reads what it does not hold: the app's posts, and its members' likes and reposts. */
export interface FeedSources {
  Post: PostModel;
  /** Which of `postIds` the viewer liked (the keys). */
  likedPosts(viewerId: number, postIds: number[]): Promise<Map<number, number>>;
  /** Which of `postIds` the viewer reposted (the keys). */
  repostedPosts(viewerId: number, postIds: number[]): Promise<Map<number, number>>;
  /** Which of `postIds` the viewer bookmarked (issue 40). */
  bookmarkedPosts(viewerId: number, postIds: number[]): Promise<Set<number>>;
}

export class FeedCache {
  /** Post ids of pages: For You and JD (every viewer's), Following (per viewer). */
  private readonly pages: Record<PageKind, ReadCache<string, number[]>>;
  /** null: no such post. */
  readonly posts: ReadCache<number, PostDoc | null>;
  /** Which posts each viewer has liked, reposted and bookmarked. */
  private readonly flags: ViewerFlagsCache;
  private readonly pagesOnce = singleFlight<string, { posts: PostDoc[]; ids: number[] }>();
  private readonly postsOnce = singleFlight<string, PostDoc[]>();
  /** For You and JD's newest posts. */
  readonly heads: FeedHeads;
  /** Today's posts for Top Posts. */
  readonly top: TopPosts;
  /** The standing posts of cached pages' id lists (`standingPosts`). */
  private readonly standing = new WeakMap<
    readonly number[],
    { mark: number; until: number; posts: PostDoc[] }
  >();
  /** Whose posts each viewer's cached Following pages show (forgotten with their pages). */
  private readonly followingAuthors = new Map<number, Set<number>>();
  /** Whom each viewer follows, with themself (forgotten by their follows and unfollows). */
  private readonly followLists: ReadCache<number, ReadonlySet<number>>;
  /**
   * Counts of shared lists (a tag's posts, issue 40), forgotten with the shared pages: by any new,
   * deleted, restored or edited post.
   */
  private readonly sharedCounts: ReadCache<string, number>;
  /** The tags each viewer follows (issue 40; forgotten by their tag follows and unfollows). */
  private readonly tagLists: ReadCache<number, readonly string[]>;

  constructor(
    private readonly ttlMs: number,
    private readonly sources: FeedSources,
  ) {
    this.pages = {
      shared: new ReadCache(ttlMs, 10_000),
      following: new ReadCache(ttlMs, 10_000),
    };
    this.posts = new ReadCache(ttlMs, 50_000);
    this.flags = new ViewerFlagsCache(ttlMs, this.posts, sources);
    this.followLists = new ReadCache(ttlMs, 10_000);
    this.sharedCounts = new ReadCache(ttlMs, 10_000);
    this.tagLists = new ReadCache(ttlMs, 10_000);
    this.heads = new FeedHeads(ttlMs, this);
    this.top = new TopPosts(ttlMs, this);
  }

  /** Lookups of each part (the metrics' hit ratios). */
  counts(): Record<string, CacheCounts> {
    return {
      'feed-pages': addCounts(this.pages.shared.counts, this.pages.following.counts),
      'feed-posts': this.posts.counts,
      'viewer-flags': this.flags.counts,
      'follow-lists': this.followLists.counts,
    };
  }

  /** Forgets everything (events may have been missed; a test moved dates behind the app). */
  clear(): void {
    for (const cache of [...Object.values(this.pages), this.posts]) cache.clear();
    this.sharedCounts.clear();
    this.flags.clear();
    this.followLists.clear();
    this.tagLists.clear();
    this.heads.forget();
    this.top.forget();
    this.followingAuthors.clear();
  }

  /** Forgets what each event may change; returns the unsubscribe function. */
  subscribe(events: EventBus<DomainEvent>): () => void {
    const stops = [
      events.on('post.created', (e) => this.postCreated(e)),
      events.on(['post.liked', 'post.unliked', 'post.reposted', 'post.unreposted'], (e) => {
        this.countsMoved(e.postId);
        this.flags.forget(e.userId);
      }),
      // Private to the member: only their flags change (no count moves).
      events.on(['post.bookmarked', 'post.unbookmarked'], (e) => this.flags.forget(e.userId)),
      events.on(['comment.created', 'comment.deleted'], (e) => this.countsMoved(e.postId)),
      // Its text changed: read again (pages hold ids, so every page shows the new text).
      events.on('post.edited', (e) => {
        this.posts.delete(e.postId);
        // Its tags may have changed: the tags' pages and counts are read again (issue 40).
        this.pages.shared.deleteWhere((key) => key.startsWith('tag:'));
        this.sharedCounts.clear();
      }),
      events.on('post.recounted', (e) => e.postIds.forEach((id) => this.countsMoved(id))),
      events.on(['post.deleted', 'post.restored'], (e) => this.postChanged(e.postId)),
      events.on(['follow.created', 'follow.removed'], (e) => this.followsChanged(e.followerId)),
      // A followed tag's posts join or leave the member's Following pages (issue 40).
      events.on(['tag.followed', 'tag.unfollowed'], (e) => this.followsChanged(e.userId)),
      // Every post of the member appears or vanishes (and counts elsewhere are recounted).
      events.on(['account.suspended', 'account.reactivated', 'account.deleted'], () =>
        this.clear(),
      ),
      events.onReset(() => this.clear()),
    ];
    return () => stops.forEach((stop) => stop());
  }

  /** A post's likes, comments or reposts count moved: it is read again, and placed again in Top Posts. */
  private countsMoved(id: number): void {
    this.posts.delete(id);
    this.top.moved(id);
  }

  /** A post was deleted: it may leave any page, and the heads and Top Posts are read again. */
  private postChanged(id: number): void {
    this.posts.delete(id);
    this.pages.shared.clear();
    this.sharedCounts.clear();
    this.pages.following.clear();
    this.followingAuthors.clear();
    this.heads.forget();
    this.top.forget();
  }

  private followsChanged(followerId: number): void {
    this.pages.following.deleteWhere((key) => Number(key.split(':', 1)[0]) === followerId);
    this.followingAuthors.delete(followerId);
    this.followLists.delete(followerId);
    this.tagLists.delete(followerId);
  }

  /**
   * A new post: pages past the heads move by one, the heads read what is newer than they hold,
   * today's join Top Posts, and the Following pages of those who follow the author are read again.
   */
  private postCreated(e: Extract<DomainEvent, { type: 'post.created' }>): void {
    const createdAt = e.createdAt.getTime();
    this.posts.delete(e.postId);
    this.pages.shared.clear();
    this.sharedCounts.clear();
    this.top.created(e.postId, createdAt);
    this.heads.created(createdAt, e.isJdTagged);
    const readers = new Set<number>();
    for (const [viewer, authors] of this.followingAuthors)
      if (authors.has(e.authorId)) readers.add(viewer);
    // Pages being read now (their authors not known yet) are not kept either: the generation moves.
    this.pages.following.deleteWhere((key) => {
      const viewer = Number(key.split(':', 1)[0]);
      return readers.has(viewer) || !this.followingAuthors.has(viewer);
    });
    for (const viewer of readers) this.followingAuthors.delete(viewer);
  }

  /** The stored post as cached now (null: no such post; undefined: not cached), without reading. */
  cachedPost(id: number): PostDoc | null | undefined {
    return this.posts.get(id);
  }

  /** Remembers whose posts `viewerId`'s Following pages show (a new post of theirs forgets them). */
  followingOf(viewerId: number, authors: ReadonlySet<number>): void {
    if (this.ttlMs > 0) this.followingAuthors.set(viewerId, new Set(authors));
  }

  /**
   * Whose posts `viewerId`'s Following pages show: the members they follow and themself, kept
   * (a page of another offset, or one forgotten by a new post, reads no follows), or read with
   * `read` (the members they follow).
   */
  async followedBy(
    viewerId: number,
    read: () => Promise<Iterable<number>>,
  ): Promise<ReadonlySet<number>> {
    const kept = this.followLists.get(viewerId);
    if (kept) return kept;
    const mark = this.followLists.mark();
    const authors = new Set([viewerId, ...(await read())]);
    this.followLists.set(viewerId, authors, mark);
    return authors;
  }

  /**
   * A page of `authors`' posts found in the For You head: exact when the head holds at least
   * `skip + limit` of their posts (any newer post of theirs is in the head, which holds the newest
   * of all). Undefined otherwise (they post little, or the cache is off): read it from the
   * database. For a member who follows many active authors this replaces a read over all their
   * posts of the last days.
   */
  async headPageOf(
    authors: ReadonlySet<number>,
    page: { skip: number; limit: number },
    query: HeadQuery,
    /** Posts by others the page shows too (a followed tag's, issue 40). */
    also?: (post: PostDoc) => boolean,
  ): Promise<PostDoc[] | undefined> {
    if (this.ttlMs <= 0) return undefined;
    const all = await this.heads.page('all', { skip: 0, limit: HEAD_SIZE }, query);
    if (!all) return undefined;
    const theirs = all.posts.filter((p) => authors.has(p.authorId) || (also?.(p) ?? false));
    if (theirs.length < page.skip + page.limit) return undefined;
    return theirs.slice(page.skip, page.skip + page.limit);
  }

  /**
   * The posts of `ids` in that order, those deleted since left out (through `postsById`). Kept
   * with the id list (a cached page's own array) while no post was forgotten since and none of
   * them expired: a page answered again finds its posts in one lookup, as the same array.
   */
  async standingPosts(ids: number[]): Promise<PostDoc[]> {
    const kept = this.standing.get(ids);
    if (kept && kept.mark === this.posts.mark() && kept.until > Date.now()) return kept.posts;
    const mark = this.posts.mark();
    const byId = await this.postsById(ids);
    const posts = ids.flatMap((id) => {
      const post = byId.get(id);
      return post && post.deletedAt === null ? [post] : [];
    });
    if (mark === this.posts.mark()) {
      let until = Infinity;
      for (const id of ids) until = Math.min(until, this.posts.expiry(id) ?? -Infinity);
      if (until > Date.now()) this.standing.set(ids, { mark, until, posts });
    }
    return posts;
  }

  /** Stored posts by id (deleted ones too: callers decide), from the cache where it can. */
  async postsById(ids: Iterable<number>): Promise<Map<number, PostDoc>> {
    const found = new Map<number, PostDoc>();
    const missing: number[] = [];
    for (const id of new Set(ids)) {
      const hit = this.posts.get(id);
      if (hit === undefined) missing.push(id);
      else if (hit) found.set(id, hit);
    }
    if (missing.length === 0) return found;
    const mark = this.posts.mark();
    // Concurrent misses of the same posts (since the same write) share one read.
    const docs = await this.postsOnce(`${mark}|${missing.join(',')}`, async () => {
      // One command, the stored documents as they are (what `lean()` gives), without a mongoose
      // query to build and cast.
      const read = await findOneBatch<PostDoc>(this.sources.Post, {
        filter: { _id: { $in: missing } },
        limit: missing.length,
      });
      const byId = new Map(read.map((doc) => [doc._id, doc]));
      for (const id of missing) this.posts.set(id, byId.get(id) ?? null, mark);
      return read;
    });
    for (const doc of docs) found.set(doc._id, doc);
    return found;
  }

  /**
   * One feed page: its post ids from the cache (the posts themselves through `postsById`), or
   * `load` run and remembered. Posts deleted since are left out.
   */
  async cachedPage(
    kind: PageKind,
    key: string,
    load: () => Promise<PostDoc[]>,
  ): Promise<{ posts: PostDoc[]; ids: number[] }> {
    const cache = this.pages[kind];
    const ids = cache.get(key);
    if (ids) {
      return { ids, posts: await this.standingPosts(ids) };
    }
    const mark = cache.mark();
    const postsMark = this.posts.mark();
    // Concurrent misses of the same page (since the same write) are computed once: a caller that
    // arrives after a write has another mark, so it never shares a read that began before it.
    return this.pagesOnce(`${kind}|${mark}|${postsMark}|${key}`, async () => {
      const loaded = await load();
      const loadedIds = loaded.map((p) => p._id);
      cache.set(key, loadedIds, mark);
      for (const post of loaded) this.posts.set(post._id, post, postsMark);
      return { posts: loaded, ids: loadedIds };
    });
  }

  /** The tags `viewerId` follows, kept, or read with `read` (one read for concurrent misses). */
  async followedTagsBy(
    viewerId: number,
    read: () => Promise<readonly string[]>,
  ): Promise<readonly string[]> {
    return this.tagLists.getOrRead(viewerId, read);
  }

  /** A count of a shared list (a tag's posts), kept as the shared pages are, or `load`ed. */
  async cachedCount(key: string, load: () => Promise<number>): Promise<number> {
    // Concurrent misses share one count: when a popular tag's count expires under load, every
    // request in flight would otherwise count the tag's posts again.
    return this.sharedCounts.getOrRead(key, load);
  }

  /** Which of `postIds` the viewer has liked, reposted and bookmarked (viewer-flags.ts). */
  viewerFlags(
    viewerId: number,
    postIds: number[],
    held: readonly PostDoc[] = [],
  ): Promise<{ liked: Set<number>; reposted: Set<number>; bookmarked: Set<number> }> {
    return this.flags.of(viewerId, postIds, held);
  }
}
