/**
 * Top Posts as the feed cache keeps it (feed-cache.ts): today's visible posts, read once (only
 * what orders them) and ranked by their counts as the cache's posts hold them. A post whose count
 * moved (a like, a comment, a repost: the cache forgets that post) is read again alone and placed
 * again, instead of the whole tab being read; a new post of today joins; anything else (a
 * deletion, a suspension) forgets the ranking.
 */
import { singleFlight } from '../../platform/in-flight';
import type { ReadCache } from '../../platform/read-cache';
import type { PostDoc } from './model';

/** What Top Posts orders a post by. */
export type TopEntry = Pick<
  PostDoc,
  '_id' | 'createdAt' | 'likesCount' | 'commentsCount' | 'repostsCount'
>;

/** Today's visible posts (created at or after `since`), all of them, with what orders them. */
export type TopQuery = (since: Date) => Promise<TopEntry[]>;

/** What the ranking reads posts through: the feed cache's posts. */
export interface RankedPosts {
  readonly posts: ReadCache<number, PostDoc | null>;
  postsById(ids: Iterable<number>): Promise<Map<number, PostDoc>>;
  standingPosts(ids: number[]): Promise<PostDoc[]>;
}

/** Today's visible posts for Top Posts (ids, in no order): which posts the tab ranks. */
interface TopRanking {
  /** Midnight (ms) of the day ranked. */
  day: number;
  ids: Set<number>;
  until: number;
  /**
   * Ranked posts forgotten by the posts cache, or joined, since `sorted` placed them: each is
   * read again and placed alone. The value tells a post changed again meanwhile (see `place`).
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
export function sameIds(ids: readonly number[], all: readonly number[], skip: number): boolean {
  const end = Math.min(all.length, skip + ids.length);
  if (end - skip !== ids.length) return false;
  for (let i = 0; i < ids.length; i++) if (all[skip + i] !== ids[i]) return false;
  return true;
}

const shown = (p: PostDoc | undefined): p is PostDoc =>
  p !== undefined && p.deletedAt === null && p.authorSuspended !== true;

export class TopPosts {
  private top: TopRanking | undefined;
  /** Reads of the ranking under way: they collect the posts created meanwhile. */
  private readonly loading = new Set<{ day: number; inserted: number[] }>();
  private generation = 0;
  private changes = 0;
  private readonly once = singleFlight<string, TopRanking | undefined>();

  constructor(
    private readonly ttlMs: number,
    private readonly store: RankedPosts,
  ) {}

  /** Forgets the ranking (a deletion, a suspension...: posts may appear or vanish). */
  forget(): void {
    this.generation++;
    this.top = undefined;
    this.loading.clear();
  }

  /** Every ranked post is to be read and sorted again (every post was forgotten). */
  unsort(): void {
    if (this.top) this.top.sorted = undefined;
  }

  /** A post's counts moved (the posts cache forgot it): it is read again and placed alone. */
  moved(id: number): void {
    if (this.top?.ids.has(id)) this.changed(this.top, id);
  }

  /** A new post, created at `createdAt` (ms): it joins today's ranking. */
  created(id: number, createdAt: number): void {
    if (this.top && createdAt >= this.top.day) {
      this.top.ids.add(id);
      this.changed(this.top, id);
    }
    for (const read of this.loading) if (createdAt >= read.day) read.inserted.push(id);
  }

  private changed(ranking: TopRanking, id: number): void {
    ranking.changed.set(id, ++this.changes);
  }

  /**
   * A page of Top Posts for the day starting at `day`: today's posts (read once with `query`,
   * kept `READ_CACHE_MS`, joined by new posts) ranked by their counts as the posts cache holds
   * them; a post whose count moved is read again alone (`postsById`), not the whole tab.
   * Undefined when the cache is off: the caller reads the page as it is (one aggregate).
   */
  async page(
    day: Date,
    page: { skip: number; limit: number },
    query: TopQuery,
  ): Promise<{ posts: PostDoc[]; ids: number[] } | undefined> {
    if (this.ttlMs <= 0) return undefined;
    let ranking = this.top;
    if (!ranking || ranking.day !== day.getTime() || ranking.until <= Date.now()) {
      ranking = await this.once(`${this.generation}|${day.getTime()}`, () => this.read(day, query));
      if (!ranking) return undefined; // forgotten while it was read: read the page as it is
    }
    // The order holds while none of the ranked posts was forgotten since it was placed (a count
    // moved, a post joined: that post is placed again); writes to other posts leave it as it is.
    const sorted = await this.place(ranking);
    const at = `${page.skip}:${page.limit}`;
    let ids = sorted.pages.get(at);
    if (!ids) {
      ids = sorted.ids.slice(page.skip, page.skip + page.limit);
      sorted.pages.set(at, ids);
    }
    return { ids, posts: await this.store.standingPosts(ids) };
  }

  /**
   * Brings the ranking's order up to date: the changed posts (read again through `postsById`)
   * are taken out and each put back where its counts now place it; with no order yet, every
   * ranked post is read and sorted. Placing a post again is idempotent, so readers that overlap
   * may each place the same posts; a post changed again while it was read stays in `changed`.
   */
  private async place(ranking: TopRanking): Promise<TopOrder> {
    let base = ranking.sorted;
    if (base && ranking.changed.size === 0) return base;
    let taken = [...ranking.changed];
    let byId = await this.store.postsById(base ? taken.map(([id]) => id) : ranking.ids);
    if (base && !ranking.sorted) {
      // Every post was forgotten while these were read (`unsort`): read and sort them all.
      base = undefined;
      taken = [...ranking.changed];
      byId = await this.store.postsById(ranking.ids);
    }
    for (const [id, stamp] of taken)
      if (ranking.changed.get(id) === stamp) ranking.changed.delete(id);
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
  private async read(day: Date, query: TopQuery): Promise<TopRanking | undefined> {
    const generation = this.generation;
    const postsMark = this.store.posts.mark();
    const loading = { day: day.getTime(), inserted: [] as number[] };
    this.loading.add(loading);
    let read: TopEntry[];
    try {
      read = await query(day);
    } finally {
      this.loading.delete(loading);
    }
    if (generation !== this.generation) return undefined;
    const ranking: TopRanking = {
      day: day.getTime(),
      ids: new Set([...read.map((p) => p._id), ...loading.inserted]),
      until: Date.now() + this.ttlMs,
      changed: new Map(),
    };
    const settled: TopEntry[] = [];
    for (const entry of read)
      if (this.store.posts.stale(entry._id, postsMark)) this.changed(ranking, entry._id);
      else settled.push(entry);
    for (const id of loading.inserted) this.changed(ranking, id);
    ranking.sorted = topOrderOf(settled);
    this.top = ranking;
    return ranking;
  }
}
