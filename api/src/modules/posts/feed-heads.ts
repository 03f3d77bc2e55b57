/**
 * The newest HEAD_SIZE posts of For You and of JD as the feed cache keeps them (feed-cache.ts):
 * a new post is added by reading only the posts newer than the ones held (one small read, a
 * "top-up"), instead of every page of every tab being forgotten by each post written.
 */
import { singleFlight } from '../../platform/in-flight';
import type { ReadCache } from '../../platform/read-cache';
import type { PostDoc } from './model';

/** How many of the newest posts For You and JD keep in order: their first 10 pages. */
export const HEAD_SIZE = 200;

export type HeadName = 'all' | 'jd';
/** A tab's newest posts: created at or after `since` (all when undefined), at most `limit`. */
export type HeadQuery = (since: Date | undefined, limit: number) => Promise<PostDoc[]>;

/** What the heads read posts through: the feed cache's posts. */
export interface HeadPosts {
  readonly posts: ReadCache<number, PostDoc | null>;
  standingPosts(ids: number[]): Promise<PostDoc[]>;
}

/** The newest posts of a tab (For You, JD), newest first, kept up to date by new posts. */
interface Head {
  ids: number[];
  /** Each post's createdAt (ms). */
  times: number[];
  /** True when the head holds every post of the tab (fewer than HEAD_SIZE). */
  complete: boolean;
  /** createdAt (ms) of the posts created since the head was read: read before it is used again. */
  pending: number[];
  until: number;
  /** The id lists of its pages (the same array for a page while the head is the same). */
  pages: Map<string, number[]>;
  /** Tells heads apart (single flight of their top-ups). */
  version: number;
}

export class FeedHeads {
  private readonly heads = new Map<HeadName, Head>();
  /** Heads being read (they collect new posts too). */
  private readonly loading = new Set<Head & { name: HeadName }>();
  private generation = 0;
  private versions = 0;
  private readonly once = singleFlight<string, Head | undefined>();

  constructor(
    private readonly ttlMs: number,
    private readonly store: HeadPosts,
  ) {}

  forget(): void {
    this.generation++;
    this.heads.clear();
    this.loading.clear();
  }

  /** A new post: the heads of the tabs that show it read it (and any newer) before their next page. */
  created(createdAt: number, isJdTagged: boolean): void {
    for (const [name, head] of this.heads)
      if (name === 'all' || isJdTagged) head.pending.push(createdAt);
    for (const loading of this.loading)
      if (loading.name === 'all' || isJdTagged) loading.pending.push(createdAt);
  }

  /**
   * A page of For You or JD from the tab's head (its newest HEAD_SIZE posts, read once and kept
   * up to date: new posts are read by a top-up of what is newer than the head). Undefined when the
   * page lies past the head, or the cache is off: the caller reads it as any page.
   */
  async page(
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
      head = await this.once(
        `${name}|${this.generation}|${current ? current.version : 'load'}`,
        () => this.read(name, current, query),
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
    return { ids, posts: await this.store.standingPosts(ids) };
  }

  /** Reads a head (`current` undefined) or tops it up with the posts newer than it holds. */
  private async read(
    name: HeadName,
    current: Head | undefined,
    query: HeadQuery,
  ): Promise<Head | undefined> {
    const generation = this.generation;
    const postsMark = this.store.posts.mark();
    // New posts announced while this reads keep arriving in `current.pending` (readers meanwhile
    // join this read); those after the first `taken` are left for the next top-up.
    const taken = current ? current.pending.slice() : [];
    const oldest = current?.times.at(-1);
    // Where the posts to read start: the oldest new post, not before the head's last unless the
    // head holds the whole tab. An empty head: read it all again.
    let from: number | undefined;
    if (current && oldest !== undefined) {
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
      version: ++this.versions,
    };
    // A head read afresh collects the posts announced meanwhile itself.
    if (!current) this.loading.add(next);
    let read: PostDoc[];
    try {
      read = await query(from === undefined ? undefined : new Date(from), HEAD_SIZE);
    } finally {
      this.loading.delete(next);
    }
    if (generation !== this.generation) return undefined; // forgotten meanwhile
    if (current) next.pending = current.pending.slice(taken.length);
    for (const post of read) this.store.posts.set(post._id, post, postsMark);
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
}
