/**
 * What feed pages read again and again, kept by one app for `READ_CACHE_MS`:
 *
 * - the post ids of a page: For You and JD pages (shared by every viewer), Following pages (per
 *   viewer) and Top Posts pages (apart, since every like or comment reorders them);
 * - stored posts by id, the originals of reposts included;
 * - which of those posts a viewer has liked and reposted.
 *
 * Every write through the Post, Like, Repost and Follow models forgets what it could change
 * (`forget`, called by the app's one invalidation path in `read-caches.ts`), before and after it
 * reaches the database, and a read that overlapped a write is not stored (see ReadCache), so the
 * app never answers from stale data. Writes of other API processes (and of scripts using the
 * driver directly) arrive the same way through a change stream (`ReadCaches.followOtherProcesses`).
 */
import { trusted } from 'mongoose';
import { singleFlight } from '../../platform/in-flight';
import { ReadCache } from '../../platform/read-cache';
import { pinned, type WriteEvent } from '../../platform/write-events';
import type { LikeService } from '../likes/service';
import type { RepostService } from '../reposts/service';
import type { PostDoc, PostModel } from './model';

/** A viewer's remembered flags are started afresh past this many posts. */
const MAX_FLAGS_PER_VIEWER = 5_000;
const COUNT_FIELDS = new Set(['likesCount', 'commentsCount', 'repostsCount']);

interface ViewerFlags {
  /** Posts whose flags are known. */
  known: Set<number>;
  liked: Set<number>;
  reposted: Set<number>;
}

export type PageKind = 'shared' | 'following' | 'top';

/**
 * Whether an update only moves likesCount, commentsCount or repostsCount: `$inc` as this process
 * writes them, `$set` as another process's write arrives through the change stream.
 */
function onlyCounts(update: unknown): boolean {
  if (!update || typeof update !== 'object' || Array.isArray(update)) return false;
  const entries = Object.entries(update);
  return (
    entries.length > 0 &&
    entries.every(
      ([op, fields]) =>
        (op === '$inc' || op === '$set') &&
        fields !== null &&
        typeof fields === 'object' &&
        Object.keys(fields).every((f) => COUNT_FIELDS.has(f)),
    )
  );
}

/** Where the cache reads what it does not hold: the app's own models and services. */
export interface FeedSources {
  Post: PostModel;
  likes: Pick<LikeService, 'likedPosts'>;
  reposts: Pick<RepostService, 'repostedPosts'>;
}

export class FeedCache {
  /** Post ids of pages: For You and JD (every viewer's), Following (per viewer), Top Posts. */
  private readonly pages: Record<PageKind, ReadCache<string, number[]>>;
  /** null: no such post. */
  private readonly posts: ReadCache<number, PostDoc | null>;
  private readonly viewers: ReadCache<number, ViewerFlags>;
  private readonly pagesOnce = singleFlight<string, PostDoc[]>();
  private readonly postsOnce = singleFlight<string, PostDoc[]>();

  constructor(
    ttlMs: number,
    private readonly sources: FeedSources,
  ) {
    this.pages = {
      shared: new ReadCache(ttlMs, 10_000),
      following: new ReadCache(ttlMs, 10_000),
      top: new ReadCache(ttlMs, 1_000),
    };
    this.posts = new ReadCache(ttlMs, 50_000);
    this.viewers = new ReadCache(ttlMs, 10_000);
  }

  /** Forgets everything (after writes mongoose cannot see, e.g. a test moving dates). */
  clear(): void {
    for (const cache of [...Object.values(this.pages), this.posts, this.viewers]) cache.clear();
  }

  /** A write announced on one of the feed's collections: forgets exactly what it may change. */
  forget(collection: string, event: WriteEvent): void {
    if (collection === 'posts') this.forgetPosts(event);
    else if (collection === 'likes' || collection === 'reposts') this.forgetViewers(event);
    // Following pages depend on whom the viewer follows.
    else if (collection === 'follows') this.pages.following.clear();
  }

  private forgetPosts(event: WriteEvent): void {
    const id = pinned(event.filter, '_id');
    if (event.documents) {
      for (const doc of event.documents)
        if (typeof doc._id === 'number') this.posts.delete(doc._id);
    } else if (id !== undefined) {
      this.posts.delete(id);
    } else {
      this.posts.clear();
    }
    // A count moves the Top Posts order only; anything else may add, hide or move posts anywhere.
    this.pages.top.clear();
    if (!(event.filter && onlyCounts(event.update))) {
      this.pages.shared.clear();
      this.pages.following.clear();
    }
  }

  private forgetViewers(event: WriteEvent): void {
    const userId = pinned(event.filter, 'userId');
    if (event.documents) {
      for (const doc of event.documents)
        if (typeof doc.userId === 'number') this.viewers.delete(doc.userId);
        else this.viewers.clear();
    } else if (userId !== undefined) {
      this.viewers.delete(userId);
    } else {
      this.viewers.clear();
    }
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
      const read = await this.sources.Post.find({ _id: trusted({ $in: missing }) }).lean<
        PostDoc[]
      >();
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
  ): Promise<PostDoc[]> {
    const cache = this.pages[kind];
    const ids = cache.get(key);
    if (ids) {
      const byId = await this.postsById(ids);
      return ids.flatMap((id) => {
        const post = byId.get(id);
        return post && post.deletedAt === null ? [post] : [];
      });
    }
    const mark = cache.mark();
    const postsMark = this.posts.mark();
    // Concurrent misses of the same page (since the same write) are computed once: a caller that
    // arrives after a write has another mark, so it never shares a read that began before it.
    return this.pagesOnce(`${kind}|${mark}|${postsMark}|${key}`, async () => {
      const loaded = await load();
      cache.set(
        key,
        loaded.map((p) => p._id),
        mark,
      );
      for (const post of loaded) this.posts.set(post._id, post, postsMark);
      return loaded;
    });
  }

  /** Which of `postIds` the viewer has liked and reposted (two batched lookups at most). */
  async viewerFlags(
    viewerId: number,
    postIds: number[],
  ): Promise<{ liked: Set<number>; reposted: Set<number> }> {
    const cached = this.viewers.get(viewerId);
    const unknown = cached ? postIds.filter((id) => !cached.known.has(id)) : postIds;
    if (cached && unknown.length === 0) return cached;
    // Past the cap, start afresh with this page's posts.
    const known =
      cached && cached.known.size + unknown.length <= MAX_FLAGS_PER_VIEWER ? cached : undefined;
    const missing = known ? unknown : postIds;
    const mark = this.viewers.mark();
    const [likes, reposts] = await Promise.all([
      this.sources.likes.likedPosts(viewerId, missing),
      this.sources.reposts.repostedPosts(viewerId, missing),
    ]);
    const flags: ViewerFlags = {
      known: new Set([...(known?.known ?? []), ...missing]),
      liked: new Set([...(known?.liked ?? []), ...likes]),
      reposted: new Set([...(known?.reposted ?? []), ...reposts]),
    };
    this.viewers.set(viewerId, flags, mark);
    return flags;
  }
}
