import { pinned, type WriteEvent } from './write-events';

/**
 * A small in-process cache for read models: entries expire after `ttlMs` (0 stores nothing), the
 * oldest go first past `maxEntries`, and every invalidation bumps a generation so that a read
 * which started before a write is never stored after it (take `mark()` before reading, pass it
 * to `set`). Each app builds its own (see `read-caches.ts`): nothing here is process-wide.
 */
export class ReadCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();
  private generation = 0;

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  mark(): number {
    return this.generation;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** When the entry of `key` expires (ms; undefined: none), without reading or removing it. */
  expiry(key: K): number | undefined {
    return this.entries.get(key)?.until;
  }

  /** Stores `value` unless the cache is off or something was invalidated since `mark`. */
  set(key: K, value: V, mark: number, ttlMs = this.ttlMs): void {
    if (this.ttlMs <= 0 || ttlMs <= 0 || mark !== this.generation) return;
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until: Date.now() + Math.min(ttlMs, this.ttlMs) });
  }

  delete(key: K): void {
    this.generation++;
    this.entries.delete(key);
  }

  /** Forgets the entries whose key matches (and, like every invalidation, reads under way). */
  deleteWhere(matches: (key: K) => boolean): void {
    this.generation++;
    for (const key of this.entries.keys()) if (matches(key)) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Forgets the per-member entries a write on a member's own documents (likes, reposts) may change:
 * those of the members its inserted documents belong to, or of the member its filter names
 * (`userId`); everything when it names no member.
 */
export function forgetMembersOf(cache: ReadCache<number, unknown>, event: WriteEvent): void {
  const userId = pinned(event.filter, 'userId');
  if (event.documents) {
    for (const doc of event.documents)
      if (typeof doc.userId === 'number') cache.delete(doc.userId);
      else cache.clear();
  } else if (userId !== undefined) {
    cache.delete(userId);
  } else {
    cache.clear();
  }
}
