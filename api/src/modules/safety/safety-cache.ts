/**
 * Each member's blocks, mutes and muted words as the app reads them on every feed page,
 * notification page and live event (`ViewerSafety`), kept per member for READ_CACHE_MS and
 * forgotten by the safety events of any API process (`member.blocked`... `word.unmuted`), so a
 * block made through one process holds in the next page any other serves. Expiries are checked
 * at each read against the app's clock: nothing needs forgetting when a mute runs out.
 */
import type { Clock } from '../../context';
import type { DomainEvent } from '../../domain-events';
import type { EventBus } from '../../platform/event-bus';
import { ReadCache, type CacheCounts } from '../../platform/read-cache';
import { PhraseMatcher } from './muted-words-match';

/** What a member hides, as stored (mutes and words already run out are left out). */
export interface SafetyRecord {
  /** Members blocked by the member, or who blocked the member. */
  blocked: ReadonlySet<number>;
  /** Muted member → when the mute ends (epoch ms; null: forever). */
  mutes: ReadonlyMap<number, number | null>;
  words: ReadonlyArray<{ phrase: string; folded: string; until: number | null }>;
}

export type SafetyLoader = (userId: number) => Promise<SafetyRecord>;

const MAX_MEMBERS = 20_000;

/** What one member hides, at one moment (the app's clock). */
export class ViewerSafety {
  constructor(
    readonly record: SafetyRecord,
    private readonly now: number,
    /** The matcher of the words in force, when the cache has one already. */
    private matcher?: PhraseMatcher,
  ) {}

  /** Nothing is hidden (most members): callers skip every check. */
  get empty(): boolean {
    const { blocked, mutes, words } = this.record;
    return blocked.size === 0 && mutes.size === 0 && words.length === 0;
  }

  /** Blocked either way: neither sees nor reaches the other. */
  blocks(userId: number): boolean {
    return this.record.blocked.has(userId);
  }

  /** Muted and the mute still runs. */
  mutes(userId: number): boolean {
    if (!this.record.mutes.has(userId)) return false;
    const until = this.record.mutes.get(userId);
    return until === null || until === undefined || until > this.now;
  }

  /** Whose posts, reposts and notifications the member does not see. */
  hides(userId: number): boolean {
    return this.blocks(userId) || this.mutes(userId);
  }

  /** Until when what the member hides stays as it is now (the next mute or word to run out). */
  stableUntil(): number {
    let until = Infinity;
    for (const end of this.record.mutes.values())
      if (end !== null && end > this.now && end < until) until = end;
    for (const w of this.record.words)
      if (w.until !== null && w.until > this.now && w.until < until) until = w.until;
    return until;
  }

  /** The phrases in force. */
  get words(): PhraseMatcher {
    if (!this.matcher) this.matcher = new PhraseMatcher(wordsInForce(this.record, this.now));
    return this.matcher;
  }
}

/** The record's words still in force at `now`: folded phrase → phrase. */
function wordsInForce(record: SafetyRecord, now: number): Map<string, string> {
  const phrases = new Map<string, string>();
  for (const w of record.words)
    if (w.until === null || w.until > now) phrases.set(w.folded, w.phrase);
  return phrases;
}

export class SafetyCache {
  private readonly records: ReadCache<number, SafetyRecord>;
  /** Records being read, by member: what concurrent misses wait for. */
  private readonly loading = new Map<number, Promise<SafetyRecord>>();
  /** The matcher of each record, until one of its words runs out (no recompiling). */
  private readonly matchers = new WeakMap<
    SafetyRecord,
    { until: number; matcher: PhraseMatcher }
  >();

  constructor(
    ttlMs: number,
    private readonly load: SafetyLoader,
    private readonly clock: Clock,
  ) {
    this.records = new ReadCache(ttlMs, MAX_MEMBERS, () => clock.now().getTime());
  }

  get counts(): CacheCounts {
    return this.records.counts;
  }

  async record(userId: number): Promise<SafetyRecord> {
    const kept = this.records.get(userId);
    if (kept) return kept;
    // Concurrent misses (a member's requests as the record runs out) read it once.
    let loading = this.loading.get(userId);
    if (!loading) {
      const mark = this.records.mark();
      loading = this.load(userId)
        .then((record) => {
          this.records.set(userId, record, mark);
          return record;
        })
        .finally(() => {
          if (this.loading.get(userId) === loading) this.loading.delete(userId);
        });
      this.loading.set(userId, loading);
    }
    return loading;
  }

  /** What `userId` hides now. */
  async of(userId: number): Promise<ViewerSafety> {
    const record = await this.record(userId);
    const now = this.clock.now().getTime();
    if (!record.words.length) return new ViewerSafety(record, now);
    // Compiled once per record, again only when one of its words runs out.
    let kept = this.matchers.get(record);
    if (!kept || now >= kept.until) {
      let until = Infinity;
      for (const w of record.words)
        if (w.until !== null && w.until > now) until = Math.min(until, w.until);
      kept = { until, matcher: new PhraseMatcher(wordsInForce(record, now)) };
      this.matchers.set(record, kept);
    }
    return new ViewerSafety(record, now, kept.matcher);
  }

  /** Forgets the member's record; a read under way is no longer joined (it may predate the change). */
  forget(userId: number): void {
    this.records.delete(userId);
    this.loading.delete(userId);
  }

  clear(): void {
    this.records.clear();
    this.loading.clear();
  }

  subscribe(events: EventBus<DomainEvent>): () => void {
    const stops = [
      events.on(['member.blocked', 'member.unblocked'], (e) => {
        this.forget(e.blockerId);
        this.forget(e.blockedId);
      }),
      events.on(['member.muted', 'member.unmuted'], (e) => this.forget(e.muterId)),
      events.on(['word.muted', 'word.unmuted'], (e) => this.forget(e.userId)),
      events.on('account.deleted', () => this.clear()),
      events.onReset(() => this.clear()),
    ];
    return () => stops.forEach((stop) => stop());
  }
}
