/** How often a cache was asked for an entry, and how often it held it (the metrics' hit ratios). */
export interface CacheCounts {
  hits: number;
  misses: number;
}

/** The counts of several caches (or parts of one) added up. */
export function addCounts(...counts: Array<Readonly<CacheCounts>>): CacheCounts {
  return {
    hits: counts.reduce((sum, c) => sum + c.hits, 0),
    misses: counts.reduce((sum, c) => sum + c.misses, 0),
  };
}

/** Past this many keys forgotten, a cache stops telling them apart: see `stale`. */
const MAX_TRACKED_KEYS = 10_000;

/**
 * A small in-process cache for read models: entries expire after `ttlMs` (0 stores nothing), the
 * oldest go first past `maxEntries`, and every invalidation bumps a generation so that a read
 * which started before a committed write's event forgot its key is never stored after it (take
 * `mark()` before reading, pass it to `set`). Each app builds its own (see `read-caches.ts`): nothing here is process-wide.
 *
 * A key forgotten by `delete` refuses only the reads of that key: a read of key K that overlapped
 * the forgetting of key L is still stored, since the caches forget exactly what an event may
 * change. Under a steady stream of events (every like forgets a post and its liker's flags) a
 * single generation for the whole cache would refuse nearly every read in flight, so the caches
 * would hardly fill. The keys forgotten are remembered with their generation (up to
 * MAX_TRACKED_KEYS; past that, everything read before is refused, as after a `clear`).
 * `deleteWhere` and `clear` refuse every read under way (a predicate may depend on what those
 * reads change, e.g. whose pages are being read). `mark()` is still the cache's generation: equal
 * marks mean nothing at all was forgotten in between.
 */
export class ReadCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();
  private generation = 0;
  /** The generation at which each key was last forgotten. */
  private readonly forgotten = new Map<K, number>();
  /** The last generation at which every read under way was refused (`clear`, `deleteWhere`...). */
  private forgottenAll = 0;
  /** The reads `getOrRead` has under way, by key, with the generation each began at. */
  private readonly reading = new Map<K, { mark: number; value: Promise<V> }>();
  /** Lookups (`get`) since the cache was made: found, or not (absent or expired). */
  readonly counts: CacheCounts = { hits: 0, misses: 0 };

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries: number,
    /** The time entries expire by (the app's clock, where a test moves it). */
    private readonly now: () => number = Date.now,
  ) {}

  mark(): number {
    return this.generation;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.until > this.now()) {
      this.counts.hits++;
      return entry.value;
    }
    this.counts.misses++;
    if (entry) this.entries.delete(key);
    return undefined;
  }

  /** When the entry of `key` expires (ms; undefined: none), without reading or removing it. */
  expiry(key: K): number | undefined {
    return this.entries.get(key)?.until;
  }

  /** Whether `key` was forgotten since `mark` (a read of it that began at `mark` may be stale). */
  stale(key: K, mark: number): boolean {
    if (mark === this.generation) return false;
    return this.forgottenAll > mark || (this.forgotten.get(key) ?? -1) > mark;
  }

  /**
   * The value kept for `key`, or `read` run and stored. Concurrent misses of a key since the same
   * change share one `read`: a caller that arrives after a change never shares a read begun
   * before it.
   */
  getOrRead(key: K, read: () => Promise<V>): Promise<V> {
    const kept = this.get(key);
    if (kept !== undefined) return Promise.resolve(kept);
    const mark = this.generation;
    const running = this.reading.get(key);
    if (running?.mark === mark) return running.value;
    const value = read()
      .then((v) => {
        this.set(key, v, mark);
        return v;
      })
      .finally(() => {
        if (this.reading.get(key)?.value === value) this.reading.delete(key);
      });
    this.reading.set(key, { mark, value });
    return value;
  }

  /** Stores `value` unless the cache is off or `key` was forgotten since `mark`. */
  set(key: K, value: V, mark: number, ttlMs = this.ttlMs): void {
    if (this.ttlMs <= 0 || ttlMs <= 0 || this.stale(key, mark)) return;
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until: this.now() + Math.min(ttlMs, this.ttlMs) });
  }

  delete(key: K): void {
    this.generation++;
    this.entries.delete(key);
    if (this.forgotten.size >= MAX_TRACKED_KEYS) this.forgetAll();
    else this.forgotten.set(key, this.generation);
  }

  /** Forgets the entries whose key matches (and, like every invalidation, reads under way). */
  deleteWhere(matches: (key: K) => boolean): void {
    this.generation++;
    for (const key of this.entries.keys()) if (matches(key)) this.entries.delete(key);
    this.forgetAll();
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.forgetAll();
  }

  /** Every read under way is refused from here on; what was tracked key by key is no longer needed. */
  private forgetAll(): void {
    this.forgottenAll = this.generation;
    this.forgotten.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
