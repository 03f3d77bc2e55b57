import { pinned, type WriteEvent } from './write-events';

/** Past this many keys forgotten, a cache stops telling them apart: see `stale`. */
const MAX_TRACKED_KEYS = 10_000;

/**
 * A small in-process cache for read models: entries expire after `ttlMs` (0 stores nothing), the
 * oldest go first past `maxEntries`, and every invalidation bumps a generation so that a read
 * which started before a write is never stored after it (take `mark()` before reading, pass it
 * to `set`). Each app builds its own (see `read-caches.ts`): nothing here is process-wide.
 *
 * A key forgotten by `delete` refuses only the reads of that key: a read of key K that overlapped
 * the forgetting of key L is still stored, since the caches forget exactly what a write may
 * change. Under a steady stream of writes (every like forgets a post and its liker's flags) a
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

  /** Whether `key` was forgotten since `mark` (a read of it that began at `mark` may be stale). */
  stale(key: K, mark: number): boolean {
    if (mark === this.generation) return false;
    return this.forgottenAll > mark || (this.forgotten.get(key) ?? -1) > mark;
  }

  /** Stores `value` unless the cache is off or `key` was forgotten since `mark`. */
  set(key: K, value: V, mark: number, ttlMs = this.ttlMs): void {
    if (this.ttlMs <= 0 || ttlMs <= 0 || this.stale(key, mark)) return;
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until: Date.now() + Math.min(ttlMs, this.ttlMs) });
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

  /**
   * Refuses every read under way and keeps what is stored: after a write whose documents no kept
   * entry depends on, but which a read still running may have seen (see `forgetMembersOf`).
   */
  refuseReadsUnderWay(): void {
    this.generation++;
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

/** Past this many documents, a `MemberDocuments` index starts afresh (and its cache with it). */
const MAX_MEMBER_DOCUMENTS = 200_000;

/**
 * Which member each document read into a per-member cache belongs to (a like or a repost of the
 * viewer's flags: `_id` -> member), so that a delete the change stream names by `_id` alone
 * (another process's unlike, or the echo of this process's own) forgets that member's entry
 * instead of every member's.
 *
 * Exact as long as every read that fills an entry records the `_id`s it returned: an entry can
 * only depend on such a document if its read returned it (so it is recorded here), or if the
 * document was inserted after the read, and an insert names its member and forgets their entry.
 * A read still running when the delete arrives is refused (`refuseReadsUnderWay`). Recorded ids
 * of entries since forgotten stay until the index starts afresh; at worst they forget an entry
 * that did not need it.
 */
export class MemberDocuments {
  private readonly owners = new Map<number, number>();

  constructor(private readonly max = MAX_MEMBER_DOCUMENTS) {}

  /** Records that documents `ids` belong to `member`; false when the index had to start afresh. */
  add(member: number, ids: Iterable<number>): boolean {
    let fresh = true;
    for (const id of ids) {
      if (this.owners.size >= this.max) {
        this.owners.clear();
        fresh = false;
      }
      this.owners.set(id, member);
    }
    return fresh;
  }

  memberOf(id: number): number | undefined {
    return this.owners.get(id);
  }

  clear(): void {
    this.owners.clear();
  }
}

/**
 * The members a write on members' own documents names (likes, reposts, follows): its documents'
 * `field`, or the member its filter pins `field` to; for a delete named by `_id` alone (a change
 * stream's), the member `owners` recorded for it, or none when no kept entry was read from it.
 * Undefined when it cannot tell: every member's entries may be stale.
 */
export function membersOf(
  event: WriteEvent,
  field: string,
  owners?: MemberDocuments,
): number[] | undefined {
  if (event.documents) {
    const members = event.documents.map((doc) => doc[field]);
    return members.every((m): m is number => typeof m === 'number') ? members : undefined;
  }
  const member = pinned(event.filter, field);
  if (member !== undefined) return [member];
  const id = pinned(event.filter, '_id');
  if (!owners || !event.deleted || id === undefined) return undefined;
  const owner = owners.memberOf(id);
  return owner === undefined ? [] : [owner];
}

/**
 * Forgets the per-member entries a write on a member's own documents (likes, reposts) may change:
 * those of the members it names (`membersOf` its `userId`), everything when it names none. A
 * delete named by `_id` alone also refuses the reads under way (one may have seen it).
 */
export function forgetMembersOf(
  cache: ReadCache<number, unknown>,
  event: WriteEvent,
  owners?: MemberDocuments,
): void {
  const members = membersOf(event, 'userId', owners);
  if (!members) return cache.clear();
  for (const member of members) cache.delete(member);
  if (event.deleted) cache.refuseReadsUnderWay();
}
