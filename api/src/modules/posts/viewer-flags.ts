/**
 * Which posts each viewer has liked, reposted and bookmarked, kept by the feed cache
 * (feed-cache.ts) with its posts: a post with no likes (no reposts) needs no lookup of the
 * viewer's, since a like and its count move in one transaction and its event forgets both.
 * Bookmarks have no count (they are private): the viewer's are looked up for every post not
 * known yet, and their events forget the viewer's flags.
 */
import { ReadCache, type CacheCounts } from '../../platform/read-cache';
import type { FeedSources } from './feed-cache';
import type { PostDoc } from './model';

/** A viewer's remembered flags are started afresh past this many posts. */
const MAX_FLAGS_PER_VIEWER = 5_000;

interface ViewerFlags {
  /** Posts whose flags are known. */
  known: Set<number>;
  liked: Set<number>;
  reposted: Set<number>;
  bookmarked: Set<number>;
}

export class ViewerFlagsCache {
  private readonly viewers: ReadCache<number, ViewerFlags>;

  constructor(
    ttlMs: number,
    /** The feed cache's posts (what it holds says whether a post has any likes). */
    private readonly posts: ReadCache<number, PostDoc | null>,
    private readonly sources: Pick<FeedSources, 'likedPosts' | 'repostedPosts' | 'bookmarkedPosts'>,
  ) {
    this.viewers = new ReadCache(ttlMs, 10_000);
  }

  /** Lookups of viewers' flags (the metrics' hit ratios). */
  get counts(): CacheCounts {
    return this.viewers.counts;
  }

  /** The viewer liked, unliked, reposted, undid a repost or (un)bookmarked: their flags are read again. */
  forget(viewerId: number): void {
    this.viewers.delete(viewerId);
  }

  clear(): void {
    this.viewers.clear();
  }

  /**
   * Which of `postIds` the viewer has liked and reposted (two batched lookups at most). `held`:
   * the caller's documents of some of them (what it presents), read when the cache holds none.
   */
  async of(
    viewerId: number,
    postIds: number[],
    held: readonly PostDoc[] = [],
  ): Promise<{ liked: Set<number>; reposted: Set<number>; bookmarked: Set<number> }> {
    const cached = this.viewers.get(viewerId);
    if (cached && postIds.every((id) => cached.known.has(id))) return cached;
    const unknown = cached ? postIds.filter((id) => !cached.known.has(id)) : postIds;
    // Past the cap, start afresh with this page's posts.
    const known =
      cached && cached.known.size + unknown.length <= MAX_FLAGS_PER_VIEWER ? cached : undefined;
    const missing = known ? unknown : postIds;
    const mark = this.viewers.mark();
    // A post with no likes (no reposts) has none by this viewer either: a like and its count are
    // written in one transaction, and its event forgets the post here (so do undone reposts). Most
    // misses are new posts, which have neither yet. The held post says so for this answer only
    // (it may have been read before a like this cache has forgotten it for): only what the cache
    // holds now is remembered.
    const heldById = held.length > 0 ? new Map(held.map((p) => [p._id, p])) : undefined;
    const onlyHeld: number[] = [];
    const mayHave = (field: 'likesCount' | 'repostsCount') =>
      missing.filter((id) => {
        const post = this.posts.get(id);
        const mine = heldById?.get(id);
        if (post && post[field] !== 0) return true;
        if (mine && mine[field] !== 0) return true;
        if (!post && !mine) return true;
        if (!post) onlyHeld.push(id);
        return false;
      });
    const toLike = mayHave('likesCount');
    const toRepost = mayHave('repostsCount');
    const [likes, reposts, bookmarks] = await Promise.all([
      toLike.length > 0 ? this.sources.likedPosts(viewerId, toLike) : new Map<number, number>(),
      toRepost.length > 0
        ? this.sources.repostedPosts(viewerId, toRepost)
        : new Map<number, number>(),
      missing.length > 0 ? this.sources.bookmarkedPosts(viewerId, missing) : new Set<number>(),
    ]);
    const notKept = new Set(onlyHeld);
    const flags: ViewerFlags = {
      known: new Set([...(known?.known ?? []), ...missing.filter((id) => !notKept.has(id))]),
      liked: new Set([...(known?.liked ?? []), ...likes.keys()]),
      reposted: new Set([...(known?.reposted ?? []), ...reposts.keys()]),
      bookmarked: new Set([...(known?.bookmarked ?? []), ...bookmarks]),
    };
    this.viewers.set(viewerId, flags, mark);
    return flags;
  }
}
