import type { DomainEvent } from '../../domain-events';
import type { AuthUser } from '../../platform/auth';
import type { EventBus } from '../../platform/event-bus';
import { ReadCache, type CacheCounts } from '../../platform/read-cache';

const MAX_ACCOUNTS = 10_000;

/**
 * Callers seen in the last `ttlMs` (AUTH_CACHE_MS), kept by one app so that a request skips the
 * account lookup; each entry no longer than until the caller's activity is due to be recorded
 * again (`set`'s `ttlMs`), so that it is still recorded on time. Only accounts that may sign in
 * are kept; an event that changes one (a revoked session, a suspension, a new name) forgets it at
 * once, in every API process, so a revoked session is refused everywhere at once.
 */
export class AccountCache {
  private readonly accounts: ReadCache<number, AuthUser>;

  /** `now`: the app's clock, by which a caller's activity falls due. */
  constructor(ttlMs: number, now: () => number = Date.now) {
    this.accounts = new ReadCache(ttlMs, MAX_ACCOUNTS, now);
  }

  mark(): number {
    return this.accounts.mark();
  }

  /** Lookups of accounts (the metrics' hit ratios). */
  get counts(): CacheCounts {
    return this.accounts.counts;
  }

  get(id: number): AuthUser | undefined {
    return this.accounts.get(id);
  }

  /** Keeps `user` for `ttlMs` at most (the cache's own lifetime when shorter). */
  set(user: AuthUser, mark: number, ttlMs?: number): void {
    this.accounts.set(user.id, user, mark, ttlMs);
  }

  /** Forgets the accounts each event changes; returns the unsubscribe function. */
  subscribe(events: EventBus<DomainEvent>): () => void {
    const stops = [
      events.on(
        [
          'session.revoked',
          'account.verified',
          'account.suspended',
          'account.reactivated',
          'account.deleted',
          'profile.updated',
        ],
        (e) => this.accounts.delete(e.userId),
      ),
      events.onReset(() => this.clear()),
    ];
    return () => stops.forEach((stop) => stop());
  }

  clear(): void {
    this.accounts.clear();
  }
}
