import type { Model, mongo } from 'mongoose';
import type { AuthUser } from '../../platform/auth';
import { ReadCache } from '../../platform/read-cache';
import { pinned, updatedFields, type WriteEvent } from '../../platform/write-events';
import type { UserDoc } from './model';

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
];

/**
 * Callers seen in the last `ttlMs` (AUTH_CACHE_MS, never longer than ACTIVITY_THROTTLE_MS, so a
 * caller's activity is still recorded on time), kept by one app so that a request skips the
 * account lookup. Only accounts that may sign in are kept; a write through the User model that
 * changes one forgets it at once.
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

  set(user: AuthUser, mark: number): void {
    this.accounts.set(user.id, user, mark);
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

/**
 * Forgets the accounts any API process changes on the database (a revoked session, a new
 * password, a deletion), read from a change stream on `users`: another process's writes never
 * reach this app's write events, and without this its cache would keep accepting a revoked token
 * until the entry's TTL ran out. A stream that fails clears the cache (and `onError` is told);
 * the TTL then bounds what is missed. Returns the function that stops following.
 */
export function followAccountChanges(
  User: Model<UserDoc>,
  accounts: AccountCache,
  onError: (err: unknown) => void,
): () => void {
  const stream = User.watch<UserDoc, mongo.ChangeStreamDocument<UserDoc>>([], {});
  stream.on('change', (change: mongo.ChangeStreamDocument<UserDoc>) => {
    if (!('documentKey' in change) || typeof change.documentKey._id !== 'number') {
      accounts.clear(); // a drop or an invalidate: anything may have changed
      return;
    }
    if (change.operationType === 'update') {
      const { updatedFields = {}, removedFields = [] } = change.updateDescription;
      const fields = [...Object.keys(updatedFields), ...removedFields].map((f) => f.split('.')[0]!);
      if (!fields.some((field) => ACCOUNT_FIELDS.includes(field))) return; // e.g. lastActiveAt
    }
    accounts.forget({ filter: { _id: change.documentKey._id } });
  });
  stream.on('error', (err: unknown) => {
    accounts.clear();
    onError(err);
  });
  return () => {
    stream.close().catch(() => undefined);
  };
}
