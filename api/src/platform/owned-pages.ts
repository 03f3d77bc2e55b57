/**
 * Pages kept per owner (a member's notification pages, a post's comment pages) for `ttlMs`: a
 * write forgets one owner's pages (`forgetOwner`) or all of them (`clear`), and a page read while
 * such a write ran is not kept (each owner has a generation, bumped by every forget, as in
 * ReadCache). Each page also names the documents it holds (`items`), so that a write known only
 * by a document's id finds the owner whose pages hold it (`ownerOf`). Concurrent misses of one
 * page are read once (single flight).
 */
import { singleFlight } from './in-flight';

interface Owned<V> {
  pages: Map<string, { value: V; until: number }>;
  items: Set<number>;
}

export class OwnedPages<V> {
  private readonly owners = new Map<number, Owned<V>>();
  /** The owner of each document on a kept page. */
  private readonly itemOwners = new Map<number, number>();
  private readonly generations = new Map<number, number>();
  private all = 0;
  private readonly once = singleFlight<string, V>();

  constructor(
    readonly ttlMs: number,
    private readonly maxOwners: number,
    private readonly maxPagesPerOwner: number,
  ) {}

  /**
   * The page `key` of `owner`: kept, or `load` run (once for concurrent callers) and kept unless
   * a write concerning the owner ran meanwhile. `load` answers the page and the ids it holds.
   */
  async page(
    owner: number,
    key: string,
    load: () => Promise<{ value: V; items: Iterable<number> }>,
  ): Promise<V> {
    const kept = this.owners.get(owner)?.pages.get(key);
    if (kept && kept.until > Date.now()) return kept.value;
    if (this.ttlMs <= 0) return (await load()).value;
    const mark = this.mark(owner);
    return this.once(`${owner}|${mark}|${key}`, async () => {
      const { value, items } = await load();
      if (this.mark(owner) === mark) this.store(owner, key, value, items);
      return value;
    });
  }

  /** The owner whose kept pages hold document `id`, if any. */
  ownerOf(id: number): number | undefined {
    return this.itemOwners.get(id);
  }

  /** Forgets `owner`'s pages, and any read of them still running. */
  forgetOwner(owner: number): void {
    this.generations.set(owner, (this.generations.get(owner) ?? 0) + 1);
    // Generations of owners nobody reads are not kept forever.
    if (this.generations.size > 4 * this.maxOwners) {
      this.generations.clear();
      this.all++;
    }
    this.drop(owner);
  }

  clear(): void {
    this.all++;
    this.generations.clear();
    this.owners.clear();
    this.itemOwners.clear();
  }

  /** Owners with pages kept. */
  get size(): number {
    return this.owners.size;
  }

  private mark(owner: number): string {
    return `${this.all}.${this.generations.get(owner) ?? 0}`;
  }

  private store(owner: number, key: string, value: V, items: Iterable<number>): void {
    let owned = this.owners.get(owner);
    if (!owned) {
      if (this.owners.size >= this.maxOwners) {
        const oldest = this.owners.keys().next();
        if (!oldest.done) this.drop(oldest.value);
      }
      owned = { pages: new Map(), items: new Set() };
      this.owners.set(owner, owned);
    }
    if (!owned.pages.has(key) && owned.pages.size >= this.maxPagesPerOwner) owned.pages.clear();
    owned.pages.set(key, { value, until: Date.now() + this.ttlMs });
    for (const id of items) {
      owned.items.add(id);
      this.itemOwners.set(id, owner);
    }
  }

  private drop(owner: number): void {
    const owned = this.owners.get(owner);
    if (!owned) return;
    this.owners.delete(owner);
    for (const id of owned.items) if (this.itemOwners.get(id) === owner) this.itemOwners.delete(id);
  }
}
