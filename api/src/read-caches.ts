/**
 * The app's read caches, as one object built by `createApp`: feed pages, posts and viewers'
 * like/repost flags (FeedCache), authors of posts and comments (AuthorCache), callers' accounts
 * (AccountCache) and verified tokens. Nothing here is a module global: two apps in one process
 * (tests, benchmarks) each have their own, configured by their own Config.
 *
 * One invalidation path for all of them: `subscribe` listens to the writes announced on the
 * app's database connection (platform/write-events.ts) and hands each to the caches it concerns;
 * the app subscribes when it is created and unsubscribes when it closes. The writes of other API
 * processes on the same database take the same path, read from a change stream
 * (`followOtherProcesses`), so a like made through one process is in the next feed page any other
 * serves.
 */
import { VerifiedTokens } from './platform/auth';
import type { Connection } from 'mongoose';
import type { Config } from './platform/config';
import type { Database } from './platform/db';
import { followChanges, type WriteEvent } from './platform/write-events';
import { FeedCache, type FeedSources } from './modules/posts/feed-cache';
import { AccountCache } from './modules/users/account-cache';
import { AuthorCache } from './modules/users/author-cache';
import type { UserModel } from './modules/users/model';
import { COMMENT_PAGE_SOURCES, CommentPageCache } from './modules/comments/page-cache';
import {
  NOTIFICATION_PAGE_SOURCES,
  NotificationPageCache,
} from './modules/notifications/page-cache';

export interface ReadCaches {
  readonly feed: FeedCache;
  readonly authors: AuthorCache;
  readonly accounts: AccountCache;
  readonly tokens: VerifiedTokens;
  /** Members' notification pages (GET /api/notifications), as sent. */
  readonly notifications: NotificationPageCache;
  /** Pages of posts' comments and viewers' comment likes. */
  readonly comments: CommentPageCache;
  /** Forgets what a write announced on `collection` may change. */
  forget(collection: string, event: WriteEvent): void;
  /** Forgets every read (after writes mongoose cannot see, e.g. a test moving dates). */
  clear(): void;
  /** Follows the writes announced on `database`; returns the unsubscribe function. */
  subscribe(database: Pick<Database, 'onWrites'>): () => void;
  /**
   * Follows every process's writes to the collections these caches read (a change stream on
   * `connection`'s database); a failed stream forgets everything and `onError` is told. Returns
   * the function that stops following.
   */
  followOtherProcesses(connection: Connection, onError: (err: unknown) => void): () => void;
}

/** The collections whose documents the read caches keep or derive from. */
export const CACHED_COLLECTIONS = [
  ...new Set([
    ...(['posts', 'likes', 'reposts', 'follows', 'users'] as const),
    ...NOTIFICATION_PAGE_SOURCES,
    ...COMMENT_PAGE_SOURCES,
  ]),
];

/** The caches read through the app's own models and services. */
export function createReadCaches(
  config: Pick<Config, 'readCacheMs' | 'authorCacheMs' | 'authCacheMs'>,
  sources: FeedSources & { User: UserModel },
): ReadCaches {
  const feed = new FeedCache(config.readCacheMs, sources);
  const authors = new AuthorCache(config.authorCacheMs, sources.User);
  // Each caller no longer than until their activity is due to be recorded again (users/service.ts).
  const accounts = new AccountCache(config.authCacheMs);
  const tokens = new VerifiedTokens();
  const notifications = new NotificationPageCache(config.readCacheMs);
  const comments = new CommentPageCache(config.readCacheMs);
  const forget = (collection: string, event: WriteEvent) => {
    notifications.forget(collection, event);
    comments.forget(collection, event);
    if (collection === 'users') {
      authors.forget(event);
      accounts.forget(event);
    } else {
      feed.forget(collection, event);
    }
  };
  const clear = () => {
    feed.clear();
    authors.clear();
    accounts.clear();
    tokens.clear();
    notifications.clear();
    comments.clear();
  };
  return {
    feed,
    authors,
    accounts,
    tokens,
    notifications,
    comments,
    forget,
    clear,
    subscribe: (database) => database.onWrites(forget),
    followOtherProcesses: (connection, onError) =>
      followChanges(connection, CACHED_COLLECTIONS, forget, (err) => {
        clear();
        onError(err);
      }),
  };
}
