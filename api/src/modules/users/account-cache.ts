import type { AuthUser } from '../../platform/auth';
import { ReadCache } from '../../platform/read-cache';
import { pinned, updatedFields, type WriteEvent } from '../../platform/write-events';

const MAX_ACCOUNTS = 10_000;
/** Stored fields an AuthUser depends on, or that decide whether the account may sign in. */
const ACCOUNT_FIELDS = [
  '_id',
  'name',
  'email',
  'isVerified',
  'password',
  'lastPasswordChange',
  'tokensValidAfter',
  'suspendedAt',
];

/**
 * Callers seen in the last `ttlMs` (AUTH_CACHE_MS), kept by one app so that a request skips the
 * account lookup; each entry no longer than until the caller's activity is due to be recorded
 * again (`set`'s `ttlMs`), so that it is still recorded on time. Only accounts that may sign in are kept; a write through the User model that
 * changes one forgets it at once, and so does one made by another API process (read from a change
 * stream: `ReadCaches.followOtherProcesses`), so a revoked session is refused everywhere at once.
 */
export class AccountCache {
  private readonly accounts: ReadCache<number, AuthUser>;

  constructor(ttlMs: number) {
    this.accounts = new ReadCache(ttlMs, MAX_ACCOUNTS);
  }

  mark(): number {
    return this.accounts.mark();
  }

  get(id: number): AuthUser | undefined {
    return this.accounts.get(id);
  }

  /** Keeps `user` for `ttlMs` at most (the cache's own lifetime when shorter). */
  set(user: AuthUser, mark: number, ttlMs?: number): void {
    this.accounts.set(user.id, user, mark, ttlMs);
  }

  /** A write to `users`: forgets the accounts it may change (not for an activity timestamp). */
  forget(event: WriteEvent): void {
    if (event.documents && !event.unknown) {
      for (const doc of event.documents)
        if (typeof doc._id === 'number') this.accounts.delete(doc._id);
      return;
    }
    const fields = updatedFields(event.update);
    if (event.update !== undefined && fields && !ACCOUNT_FIELDS.some((f) => fields.has(f))) return;
    const id = pinned(event.filter, '_id');
    if (id !== undefined) this.accounts.delete(id);
    else this.accounts.clear();
  }

  clear(): void {
    this.accounts.clear();
  }
}
