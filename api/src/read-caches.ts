/**
 * The app's read caches, as one object built by `createApp`: feed pages, posts and viewers'
 * like/repost flags (FeedCache), authors of posts and comments (AuthorCache), callers' accounts
 * (AccountCache) and verified tokens. Nothing here is a module global: two apps in one process
 * (tests, benchmarks) each have their own, configured by their own Config.
 *
 * One invalidation path for all of them: `subscribe` listens to the writes announced on the
 * app's database connection (platform/write-events.ts) and hands each to the caches it concerns;
 * the app subscribes when it is created and unsubscribes when it closes.
 */
import { VerifiedTokens } from './platform/auth';
import type { Config } from './platform/config';
import type { Database } from './platform/db';
import type { WriteEvent } from './platform/write-events';
import { FeedCache, type FeedSources } from './modules/posts/feed-cache';
import { AccountCache } from './modules/users/account-cache';
import { AuthorCache } from './modules/users/author-cache';
import type { UserModel } from './modules/users/model';

export interface ReadCaches {
  readonly feed: FeedCache;
  readonly authors: AuthorCache;
  readonly accounts: AccountCache;
  readonly tokens: VerifiedTokens;
  /** Forgets what a write announced on `collection` may change. */
  forget(collection: string, event: WriteEvent): void;
  /** Forgets every read (after writes mongoose cannot see, e.g. a test moving dates). */
  clear(): void;
  /** Follows the writes announced on `database`; returns the unsubscribe function. */
  subscribe(database: Pick<Database, 'onWrites'>): () => void;
}

/** The caches read through the app's own models and services. */
export function createReadCaches(
  config: Pick<Config, 'readCacheMs' | 'authorCacheMs' | 'authCacheMs' | 'activityThrottleMs'>,
  sources: FeedSources & { User: UserModel },
): ReadCaches {
  const feed = new FeedCache(config.readCacheMs, sources);
  const authors = new AuthorCache(config.authorCacheMs, sources.User);
  // Never past the point where the caller's activity is due to be recorded again.
  const accounts = new AccountCache(Math.min(config.authCacheMs, config.activityThrottleMs));
  const tokens = new VerifiedTokens();
  const forget = (collection: string, event: WriteEvent) => {
    if (collection === 'users') {
      authors.forget(event);
      accounts.forget(event);
    } else {
      feed.forget(collection, event);
    }
  };
  return {
    feed,
    authors,
    accounts,
    tokens,
    forget,
    clear() {
      feed.clear();
      authors.clear();
      accounts.clear();
      tokens.clear();
    },
    subscribe: (database) => database.onWrites(forget),
  };
}
