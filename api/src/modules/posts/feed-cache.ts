/**
 * What feed pages read again and again, kept by one app for `READ_CACHE_MS`:
 *
 * - the post ids of a page: For You and JD pages (shared by every viewer), Following pages (per
 *   viewer) and Top Posts pages (apart, since every like or comment reorders them);
 * - stored posts by id, the originals of reposts included;
 * - which of those posts a viewer has liked and reposted.
 *
 * - the newest HEAD_SIZE posts of For You and of JD (`headPage`): a new post is added to them by
 *   reading only the posts newer than the ones held (one small read), instead of every page of
 *   every tab being forgotten by each post written.
 *
 * Every write through the Post, Like, Repost and Follow models forgets what it could change
 * (`forget`, called by the app's one invalidation path in `read-caches.ts`), before and after it
 * reaches the database, and a read that overlapped a write is not stored (see ReadCache), so the
 * app never answers from stale data. Writes of other API processes (and of scripts using the
 * driver directly) arrive the same way through a change stream (`ReadCaches.followOtherProcesses`).
 */
import { singleFlight } from '../../platform/in-flight';
import { forgetMembersOf, MemberDocuments, membersOf, ReadCache } from '../../platform/read-cache';
import { pinned, type WriteEvent } from '../../platform/write-events';
import type { LikeService } from '../likes/service';
import type { RepostService } from '../reposts/service';
import type { PostDoc, PostModel } from './model';
import { findOneBatch } from '../../platform/one-batch';

/** How many of the newest posts For You and JD keep in order: their first 10 pages. */
export const HEAD_SIZE = 200;

/** The newest posts of a tab (For You, JD), newest first, kept up to date by new posts. */
interface Head {
  ids: number[];
  /** Each post's createdAt (ms). */
  times: number[];
  /** True when the head holds every post of the tab (fewer than HEAD_SIZE). */
  complete: boolean;
  /**
   * createdAt (ms; NaN: unknown) of the posts inserted since the head was read: read before it
   * is used again (a top-up from the oldest of them).
   */
  pending: number[];
  until: number;
  /** The id lists of its pages (the same array for a page while the head is the same). */
  pages: Map<string, number[]>;
  /** Tells heads apart (single flight of their top-ups). */
  version: number;
}

/**
 * Today's visible posts for Top Posts (the ids, in no order, with each post's createdAt): which
 * posts the tab ranks. Their order comes from their counts as the posts cache holds them (a like
 * or comment forgets that post there, and the next page reads it again), so a count moved by a
 * like moves that post in the kept order instead of sending the next reader to the database for
 * the whole tab. A new post of today joins it; anything else (a deletion, an edit, a suspension)
 * forgets it.
 */
interface TopRanking {
  /** Midnight (ms) of the day ranked. */
  day: number;
  ids: Set<number>;
  until: number;
  /**
   * Ranked posts forgotten by the posts cache, or joined, since `sorted` placed them: each is
   * read again and placed alone. The value tells a post changed again meanwhile (see `placeTop`).
   */
  changed: Map<number, number>;
  /** The visible posts in Top Posts order, each with its sort key (and the pages cut from it). */
  sorted?: TopOrder;
}

interface TopOrder {
  ids: number[];
  /** Each post's likes + comments + reposts, and createdAt (ms), as when it was placed. */
  scores: number[];
  times: number[];
  pages: Map<string, number[]>;
}

/** What Top Posts orders a post by. */
export type TopEntry = Pick<
  PostDoc,
  '_id' | 'createdAt' | 'likesCount' | 'commentsCount' | 'repostsCount'
>;

/** Today's visible posts (created at or after `since`), all of them, with what orders them. */
export type TopQuery = (since: Date) => Promise<TopEntry[]>;

/** Top Posts order: most engaged first (likes + comments + reposts), then newest. */
function topScore(p: TopEntry): number {
  return p.likesCount + p.commentsCount + p.repostsCount;
}

function topOrder(a: TopEntry, b: TopEntry): number {
  return (
    topScore(b) - topScore(a) || b.createdAt.getTime() - a.createdAt.getTime() || b._id - a._id
  );
}

/** `entries` in Top Posts order, each with its sort key (sorts `entries` in place). */
function topOrderOf(entries: TopEntry[]): TopOrder {
  entries.sort(topOrder);
  return {
    ids: entries.map((p) => p._id),
    scores: entries.map(topScore),
    times: entries.map((p) => p.createdAt.getTime()),
    pages: new Map(),
  };
}

/** Where a post with this score, createdAt and id goes in `order` (binary search). */
function topPlace(order: TopOrder, score: number, time: number, id: number): number {
  let lo = 0;
  let hi = order.ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const s = order.scores[mid]!;
    const t = order.times[mid]!;
    const ranksBefore =
      s > score || (s === score && (t > time || (t === time && order.ids[mid]! > id)));
    if (ranksBefore) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether `all` holds `ids` from `skip` on (and no fewer: a page cut short stays cut short). */
function sameIds(ids: readonly number[], all: readonly number[], skip: number): boolean {
  const end = Math.min(all.length, skip + ids.length);
  if (end - skip !== ids.length) return false;
  for (let i = 0; i < ids.length; i++) if (all[skip + i] !== ids[i]) return false;
  return true;
}

export type HeadName = 'all' | 'jd';
/** A tab's newest posts: created at or after `since` (all when undefined), at most `limit`. */
export type HeadQuery = (since: Date | undefined, limit: number) => Promise<PostDoc[]>;

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
  /**
   * The member of each like and repost the viewers' flags were read from, and of each follow the
   * Following pages were read from: an unlike, an undone repost or an unfollow that the change
   * stream names by `_id` alone forgets that one member's flags or pages.
   */
  private readonly owners = {
    likes: new MemberDocuments(),
    reposts: new MemberDocuments(),
    follows: new MemberDocuments(),
  };
  private readonly pagesOnce = singleFlight<string, { posts: PostDoc[]; ids: number[] }>();
  private readonly postsOnce = singleFlight<string, PostDoc[]>();
  /** For You and JD's newest posts, and heads being read (they collect new posts too). */
  private readonly heads = new Map<HeadName, Head>();
  private readonly headsLoading = new Set<Head & { name: HeadName }>();
  private headsGeneration = 0;
  private headVersions = 0;
  private readonly headsOnce = singleFlight<string, Head | undefined>();
  /** The standing posts of cached pages' id lists (`standingPosts`). */
  private readonly standing = new WeakMap<
    readonly number[],
    { mark: number; until: number; posts: PostDoc[] }
  >();
  /** Today's posts for Top Posts, and the reads of it under way (they collect new posts too). */
  private top: TopRanking | undefined;
  private readonly topLoading = new Set<{ day: number; inserted: PostDoc[] }>();
  private topGeneration = 0;
  private readonly topOnce = singleFlight<string, TopRanking | undefined>();
  /** Whose posts each viewer's cached Following pages show (forgotten with their pages). */
  private readonly followingAuthors = new Map<number, Set<number>>();
  /** Whom each viewer follows, with themself (forgotten by their follows and unfollows). */
  private readonly followLists: ReadCache<number, ReadonlySet<number>>;

  constructor(
    private readonly ttlMs: number,
    private readonly sources: FeedSources,
  ) {
    this.pages = {
      shared: new ReadCache(ttlMs, 10_000),
      following: new ReadCache(ttlMs, 10_000),
      top: new ReadCache(ttlMs, 1_000),
    };
    this.posts = new ReadCache(ttlMs, 50_000);
    this.viewers = new ReadCache(ttlMs, 10_000);
    this.followLists = new ReadCache(ttlMs, 10_000);
  }

  /** Forgets everything (after writes mongoose cannot see, e.g. a test moving dates). */
  clear(): void {
    for (const cache of [...Object.values(this.pages), this.posts, this.viewers]) cache.clear();
    this.followLists.clear();
    for (const owners of Object.values(this.owners)) owners.clear();
    this.forgetHeads();
    this.forgetTop();
    this.followingAuthors.clear();
  }

  private topChanges = 0;

  private topChanged(ranking: TopRanking, id: number): void {
    ranking.changed.set(id, ++this.topChanges);
  }

  private forgetTop(): void {
    this.topGeneration++;
    this.top = undefined;
    this.topLoading.clear();
  }

  /** A write announced on one of the feed's collections: forgets exactly what it may change. */
  forget(collection: string, event: WriteEvent): void {
    if (collection === 'posts') this.forgetPosts(event);
    else if (collection === 'likes' || collection === 'reposts')
      forgetMembersOf(this.viewers, event, this.owners[collection]);
    // Following pages depend on whom the viewer follows: only the follower's change.
    else if (collection === 'follows') this.forgetFollowing(event);
  }

  private forgetHeads(): void {
    this.headsGeneration++;
    this.heads.clear();
    this.headsLoading.clear();
  }

  private forgetFollowing(event: WriteEvent): void {
    // An unfollow known by `_id` alone names the follower whose pages were read from it, if any
    // (MemberDocuments); a page being read now may have seen it, so none is kept.
    const followers = membersOf(event, 'followerId', this.owners.follows);
    if (!followers) return this.forgetAllFollowing();
    const gone = new Set(followers);
    this.pages.following.deleteWhere((key) => gone.has(Number(key.split(':', 1)[0])));
    for (const id of gone) {
      this.followingAuthors.delete(id);
      this.followLists.delete(id);
    }
    if (event.deleted) this.followLists.refuseReadsUnderWay();
  }

  /** Forgets every Following page and whom each viewer follows. */
  private forgetAllFollowing(): void {
    this.pages.following.clear();
    this.followingAuthors.clear();
    this.followLists.clear();
  }

  private forgetPosts(event: WriteEvent): void {
    const id = pinned(event.filter, '_id');
    const top = this.top;
    if (event.documents) {
      for (const doc of event.documents)
        if (typeof doc._id === 'number') {
          this.posts.delete(doc._id);
          if (top?.ids.has(doc._id)) this.topChanged(top, doc._id);
        }
    } else if (id !== undefined) {
      this.posts.delete(id);
      if (top?.ids.has(id)) this.topChanged(top, id);
    } else {
      this.posts.clear();
      if (top) top.sorted = undefined;
    }
    // A count moves the Top Posts order only (the post is forgotten above and placed again);
    // anything else may add, hide or move posts anywhere.
    this.pages.top.clear();
    if (event.filter && onlyCounts(event.update)) return;
    if (event.documents && event.inserted) {
      // New posts: pages past the heads move by one, the heads read what is newer than they hold,
      // today's join Top Posts, and the Following pages of those who follow the authors are read
      // again.
      this.pages.shared.clear();
      for (const doc of event.documents) this.postInserted(doc);
      return;
    }
    this.pages.shared.clear();
    this.pages.following.clear();
    this.followingAuthors.clear();
    this.forgetHeads();
    this.forgetTop();
  }

  private postInserted(doc: Record<string, unknown>): void {
    const createdAt = doc.createdAt instanceof Date ? doc.createdAt.getTime() : NaN;
    if (typeof doc._id !== 'number' || Number.isNaN(createdAt)) {
      this.forgetTop();
    } else {
      // A new post is visible (not deleted, its author active: they just wrote it).
      const post = doc as unknown as PostDoc;
      if (this.top && createdAt >= this.top.day) {
        this.top.ids.add(post._id);
        this.topChanged(this.top, post._id);
      }
      for (const loading of this.topLoading)
        if (createdAt >= loading.day) loading.inserted.push(post);
    }
    for (const [name, head] of this.heads)
      if (name === 'all' || doc.isJdTagged !== false) head.pending.push(createdAt);
    for (const loading of this.headsLoading)
      if (loading.name === 'all' || doc.isJdTagged !== false) loading.pending.push(createdAt);
    const authorId = doc.authorId;
    if (typeof authorId !== 'number') {
      this.pages.following.clear();
      this.followingAuthors.clear();
      return;
    }
    const readers = new Set<number>();
    for (const [viewer, authors] of this.followingAuthors)
      if (authors.has(authorId)) readers.add(viewer);
    // Pages being read now (their authors not known yet) are not kept either: the generation moves.
    this.pages.following.deleteWhere((key) => {
      const viewer = Number(key.split(':', 1)[0]);
      return readers.has(viewer) || !this.followingAuthors.has(viewer);
    });
    for (const viewer of readers) this.followingAuthors.delete(viewer);
  }

  /**
   * A page of Top Posts for the day starting at `day`: today's posts (read once with `query`,
   * kept `READ_CACHE_MS`, joined by new posts) ranked by their counts as the posts cache holds
   * them; a post whose count moved is read again alone (`postsById`), not the whole tab.
   * Undefined when the cache is off: the caller reads the page as it is (one aggregate).
   */
  async topPage(
    day: Date,
    page: { skip: number; limit: number },
    query: TopQuery,
  ): Promise<{ posts: PostDoc[]; ids: number[] } | undefined> {
    if (this.ttlMs <= 0) return undefined;
    let ranking = this.top;
    if (!ranking || ranking.day !== day.getTime() || ranking.until <= Date.now()) {
      ranking = await this.topOnce(`${this.topGeneration}|${day.getTime()}`, () =>
        this.readTop(day, query),
      );
      if (!ranking) return undefined; // forgotten while it was read: read the page as it is
    }
    // The order holds while none of the ranked posts was forgotten since it was placed (a count
    // moved, a post joined: that post is placed again); writes to other posts leave it as it is.
    const sorted = await this.placeTop(ranking);
    const at = `${page.skip}:${page.limit}`;
    let ids = sorted.pages.get(at);
    if (!ids) {
      ids = sorted.ids.slice(page.skip, page.skip + page.limit);
      sorted.pages.set(at, ids);
    }
    return { ids, posts: await this.standingPosts(ids) };
  }

  /**
   * Brings the ranking's order up to date: the changed posts (read again through `postsById`)
   * are taken out and each put back where its counts now place it; with no order yet, every
   * ranked post is read and sorted. Placing a post again is idempotent, so readers that overlap
   * may each place the same posts; a post changed again while it was read stays in `changed`.
   */
  private async placeTop(ranking: TopRanking): Promise<TopOrder> {
    let base = ranking.sorted;
    if (base && ranking.changed.size === 0) return base;
    let taken = [...ranking.changed];
    let byId = await this.postsById(base ? taken.map(([id]) => id) : ranking.ids);
    if (base && !ranking.sorted) {
      // Every post was forgotten while these were read (forgetPosts): read and sort them all.
      base = undefined;
      taken = [...ranking.changed];
      byId = await this.postsById(ranking.ids);
    }
    for (const [id, stamp] of taken)
      if (ranking.changed.get(id) === stamp) ranking.changed.delete(id);
    const shown = (p: PostDoc | undefined): p is PostDoc =>
      p !== undefined && p.deletedAt === null && p.authorSuspended !== true;
    const current = ranking.sorted;
    let order: TopOrder;
    if (!base || !current) {
      order = topOrderOf([...byId.values()].filter(shown));
    } else {
      const moved = new Set(taken.map(([id]) => id));
      order = { ids: [], scores: [], times: [], pages: new Map() };
      current.ids.forEach((id, i) => {
        if (moved.has(id)) return;
        order.ids.push(id);
        order.scores.push(current.scores[i]!);
        order.times.push(current.times[i]!);
      });
      for (const id of moved) {
        const post = byId.get(id);
        if (!shown(post)) continue;
        const [score, time] = [topScore(post), post.createdAt.getTime()];
        const at = topPlace(order, score, time, id);
        order.ids.splice(at, 0, id);
        order.scores.splice(at, 0, score);
        order.times.splice(at, 0, time);
      }
    }
    // Pages whose ids did not move keep their id list (and so their kept JSON, presenters.ts).
    if (current)
      for (const [at, ids] of current.pages)
        if (sameIds(ids, order.ids, Number(at.split(':', 1)[0]))) order.pages.set(at, ids);
    ranking.sorted = order;
    return order;
  }

  /**
   * Reads today's posts for Top Posts, only what orders them (the pages' posts are read through
   * `postsById`), and sorts them; undefined when a write forgot them meanwhile. A post forgotten
   * or joined while they were read is placed apart (`changed`), after a read of its own.
   */
  private async readTop(day: Date, query: TopQuery): Promise<TopRanking | undefined> {
    const generation = this.topGeneration;
    const postsMark = this.posts.mark();
    const loading = { day: day.getTime(), inserted: [] as PostDoc[] };
    this.topLoading.add(loading);
    let read: TopEntry[];
    try {
      read = await query(day);
    } finally {
      this.topLoading.delete(loading);
    }
    if (generation !== this.topGeneration) return undefined;
    const ranking: TopRanking = {
      day: day.getTime(),
      ids: new Set([...read, ...loading.inserted].map((p) => p._id)),
      until: Date.now() + this.ttlMs,
      changed: new Map(),
    };
    const settled: TopEntry[] = [];
    for (const entry of read)
      if (this.posts.stale(entry._id, postsMark)) this.topChanged(ranking, entry._id);
      else settled.push(entry);
    for (const post of loading.inserted) this.topChanged(ranking, post._id);
    ranking.sorted = topOrderOf(settled);
    this.top = ranking;
    return ranking;
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
   * `read` (the followed members, each with its follow's `_id`).
   */
  async followedBy(
    viewerId: number,
    read: () => Promise<Map<number, number>>,
  ): Promise<ReadonlySet<number>> {
    const kept = this.followLists.get(viewerId);
    if (kept) return kept;
    const mark = this.followLists.mark();
    const follows = await read();
    if (!this.owners.follows.add(viewerId, follows.values())) this.forgetAllFollowing();
    const authors = new Set([viewerId, ...follows.keys()]);
    this.followLists.set(viewerId, authors, mark);
    return authors;
  }

  /**
   * A page of For You or JD from the tab's head (its newest HEAD_SIZE posts, read once and kept
   * up to date: new posts are read by a top-up of what is newer than the head). Undefined when the
   * page lies past the head, or the cache is off: the caller reads it as any page.
   */
  async headPage(
    name: HeadName,
    page: { skip: number; limit: number },
    query: HeadQuery,
  ): Promise<{ posts: PostDoc[]; ids: number[] } | undefined> {
    if (this.ttlMs <= 0 || page.skip + page.limit > HEAD_SIZE) return undefined;
    let head = this.heads.get(name);
    if (head && head.until <= Date.now()) {
      this.heads.delete(name);
      head = undefined;
    }
    // Posts written before this read are in the page: a head with new posts is topped up first
    // (again if more arrived while it was), or the page is read as any page.
    for (let round = 0; !head || head.pending.length > 0; round++) {
      if (round === 3) return undefined;
      const current = head;
      head = await this.headsOnce(
        `${name}|${this.headsGeneration}|${current ? current.version : 'load'}`,
        () => this.readHead(name, current, query),
      );
      if (!head) return undefined;
    }
    const at = `${page.skip}:${page.limit}`;
    let ids = head.pages.get(at);
    if (!ids) {
      ids = head.ids.slice(page.skip, page.skip + page.limit);
      // Past what the head holds (it was cut at HEAD_SIZE): read as any page.
      if (ids.length < page.limit && !head.complete) return undefined;
      head.pages.set(at, ids);
    }
    return { ids, posts: await this.standingPosts(ids) };
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
  ): Promise<PostDoc[] | undefined> {
    if (this.ttlMs <= 0) return undefined;
    const all = await this.headPage('all', { skip: 0, limit: HEAD_SIZE }, query);
    if (!all) return undefined;
    const theirs = all.posts.filter((p) => authors.has(p.authorId));
    if (theirs.length < page.skip + page.limit) return undefined;
    return theirs.slice(page.skip, page.skip + page.limit);
  }

  /** Reads a head (`current` undefined) or tops it up with the posts newer than it holds. */
  private async readHead(
    name: HeadName,
    current: Head | undefined,
    query: HeadQuery,
  ): Promise<Head | undefined> {
    const generation = this.headsGeneration;
    const postsMark = this.posts.mark();
    // New posts announced while this reads keep arriving in `current.pending` (readers meanwhile
    // join this read); those after the first `taken` are left for the next top-up.
    const taken = current ? current.pending.slice() : [];
    const oldest = current?.times.at(-1);
    // Where the posts to read start: the oldest new post, not before the head's last unless the
    // head holds the whole tab. Unknown times (NaN) or an empty head: read it all again.
    let from: number | undefined;
    if (current && oldest !== undefined && !taken.some(Number.isNaN)) {
      from = Math.min(current.times[0]!, ...taken);
      if (!current.complete) from = Math.max(from, oldest);
    }
    const next: Head & { name: HeadName } = {
      name,
      ids: [],
      times: [],
      complete: false,
      pending: [],
      until: current && from !== undefined ? current.until : Date.now() + this.ttlMs,
      pages: new Map(),
      version: ++this.headVersions,
    };
    // A head read afresh collects the posts announced meanwhile itself.
    if (!current) this.headsLoading.add(next);
    let read: PostDoc[];
    try {
      read = await query(from === undefined ? undefined : new Date(from), HEAD_SIZE);
    } finally {
      this.headsLoading.delete(next);
    }
    if (generation !== this.headsGeneration) return undefined; // forgotten meanwhile
    if (current) next.pending = current.pending.slice(taken.length);
    for (const post of read) this.posts.set(post._id, post, postsMark);
    const entries = read.map((p) => ({ id: p._id, time: p.createdAt.getTime() }));
    if (current && from !== undefined) {
      const seen = new Set(entries.map((e) => e.id));
      current.ids.forEach((id, i) => {
        const time = current.times[i]!;
        if (time < from && !seen.has(id)) entries.push({ id, time });
      });
      entries.sort((a, b) => b.time - a.time || b.id - a.id);
      next.complete = current.complete && read.length < HEAD_SIZE && entries.length <= HEAD_SIZE;
    } else {
      next.complete = read.length < HEAD_SIZE;
    }
    entries.length = Math.min(entries.length, HEAD_SIZE);
    next.ids = entries.map((e) => e.id);
    next.times = entries.map((e) => e.time);
    this.heads.set(name, next);
    return next;
  }

  /**
   * The posts of `ids` in that order, those deleted since left out (through `postsById`). Kept
   * with the id list (a cached page's own array) while no post was forgotten since and none of
   * them expired: a page answered again finds its posts in one lookup, as the same array.
   */
  private async standingPosts(ids: number[]): Promise<PostDoc[]> {
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

  /**
   * Which of `postIds` the viewer has liked and reposted (two batched lookups at most). `held`:
   * the caller's documents of some of them (what it presents), read when the cache holds none.
   */
  async viewerFlags(
    viewerId: number,
    postIds: number[],
    held: readonly PostDoc[] = [],
  ): Promise<{ liked: Set<number>; reposted: Set<number> }> {
    const cached = this.viewers.get(viewerId);
    if (cached && postIds.every((id) => cached.known.has(id))) return cached;
    const unknown = cached ? postIds.filter((id) => !cached.known.has(id)) : postIds;
    // Past the cap, start afresh with this page's posts.
    const known =
      cached && cached.known.size + unknown.length <= MAX_FLAGS_PER_VIEWER ? cached : undefined;
    const missing = known ? unknown : postIds;
    const mark = this.viewers.mark();
    // A post with no likes (no reposts) has none by this viewer either: a like and its count are
    // written in one transaction, and each forgets the post here (so do undone reposts). Most
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
    const [likes, reposts] = await Promise.all([
      toLike.length > 0
        ? this.sources.likes.likedPosts(viewerId, toLike)
        : new Map<number, number>(),
      toRepost.length > 0
        ? this.sources.reposts.repostedPosts(viewerId, toRepost)
        : new Map<number, number>(),
    ]);
    const likesKept = this.owners.likes.add(viewerId, likes.values());
    if (!this.owners.reposts.add(viewerId, reposts.values()) || !likesKept) this.viewers.clear();
    const notKept = new Set(onlyHeld);
    const flags: ViewerFlags = {
      known: new Set([...(known?.known ?? []), ...missing.filter((id) => !notKept.has(id))]),
      liked: new Set([...(known?.liked ?? []), ...likes.keys()]),
      reposted: new Set([...(known?.reposted ?? []), ...reposts.keys()]),
    };
    this.viewers.set(viewerId, flags, mark);
    return flags;
  }
}
