/**
 * Pages kept per owner (a member's notification pages, a post's comment pages) for `ttlMs`: an
 * event forgets one owner's pages (`forgetOwner`) or all of them (`clear`), and a page read while
 * such an event arrived is not kept (each owner has a generation, bumped by every forget, as in
 * ReadCache). Concurrent misses of one page are read once (single flight).
 */
import { singleFlight } from './in-flight';
import type { CacheCounts } from './read-cache';

export class OwnedPages<V> {
  private readonly owners = new Map<number, Map<string, { value: V; until: number }>>();
  private readonly generations = new Map<number, number>();
  private all = 0;
  private readonly once = singleFlight<string, V>();
  /** Pages asked for since the cache was made: kept, or read. */
  readonly counts: CacheCounts = { hits: 0, misses: 0 };

  constructor(
    readonly ttlMs: number,
    private readonly maxOwners: number,
    private readonly maxPagesPerOwner: number,
  ) {}

  /**
   * The page `key` of `owner`: kept, or `load` run (once for concurrent callers) and kept unless
   * an event concerning the owner arrived meanwhile.
   */
  async page(owner: number, key: string, load: () => Promise<V>): Promise<V> {
    const kept = this.owners.get(owner)?.get(key);
    if (kept && kept.until > Date.now()) {
      this.counts.hits++;
      return kept.value;
    }
    this.counts.misses++;
    if (this.ttlMs <= 0) return load();
    const mark = this.mark(owner);
    return this.once(`${owner}|${mark}|${key}`, async () => {
      const value = await load();
      if (this.mark(owner) === mark) this.store(owner, key, value);
      return value;
    });
  }

  /** Forgets `owner`'s pages, and any read of them still running. */
  forgetOwner(owner: number): void {
    this.generations.set(owner, (this.generations.get(owner) ?? 0) + 1);
    // Generations of owners nobody reads are not kept forever.
    if (this.generations.size > 4 * this.maxOwners) {
      this.generations.clear();
      this.all++;
    }
    this.owners.delete(owner);
  }

  clear(): void {
    this.all++;
    this.generations.clear();
    this.owners.clear();
  }

  /** Owners with pages kept. */
  get size(): number {
    return this.owners.size;
  }

  private mark(owner: number): string {
    return `${this.all}.${this.generations.get(owner) ?? 0}`;
  }

  private store(owner: number, key: string, value: V): void {
    let pages = this.owners.get(owner);
    if (!pages) {
      if (this.owners.size >= this.maxOwners) {
        const oldest = this.owners.keys().next();
        if (!oldest.done) this.owners.delete(oldest.value);
      }
      pages = new Map();
      this.owners.set(owner, pages);
    }
    if (!pages.has(key) && pages.size >= this.maxPagesPerOwner) pages.clear();
    pages.set(key, { value, until: Date.now() + this.ttlMs });
  }
}
