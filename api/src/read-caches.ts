/**
 * The app's read caches, as one object built by `createApp`: feed pages, posts and viewers'
 * like/repost flags (FeedCache), authors of posts and comments (AuthorCache), callers' accounts
 * (AccountCache), verified tokens, notification pages and comment pages. Nothing here is a
 * module global: two apps in one process (tests, benchmarks) each have their own, configured by
 * their own Config.
 *
 * Each cache subscribes to the domain events that change what it keeps (`subscribe`): the app's
 * own, right after their commit, and every other API process's, from the outbox's change stream
 * (platform/event-stream.ts), so a like made through one process is in the next feed page any
 * other serves.
 */
import { VerifiedTokens } from './platform/auth';
import type { Config } from './platform/config';
import type { CacheCounts } from './platform/read-cache';
import type { EventBus } from './platform/event-bus';
import type { Clock } from './context';
import type { DomainEvent } from './domain-events';
import { FeedCache, type FeedSources } from './modules/posts/feed-cache';
import { SessionCache } from './modules/sessions/session-cache';
import { AccountCache } from './modules/users/account-cache';
import { AuthorCache } from './modules/users/author-cache';
import type { UserModel } from './modules/users/model';
import { CommentPageCache } from './modules/comments/page-cache';
import { NotificationPageCache } from './modules/notifications/page-cache';
import { SafetyCache, type SafetyLoader } from './modules/safety/safety-cache';

export interface ReadCaches {
  readonly feed: FeedCache;
  readonly authors: AuthorCache;
  readonly accounts: AccountCache;
  readonly tokens: VerifiedTokens;
  /** Whether each session seen recently is open (modules/sessions). */
  readonly sessions: SessionCache;
  /** Members' notification pages (GET /api/notifications), as sent. */
  readonly notifications: NotificationPageCache;
  /** Pages of posts' comments and viewers' comment likes. */
  readonly comments: CommentPageCache;
  /** Each member's blocks, mutes and muted words (modules/safety). */
  readonly safety: SafetyCache;
  /** Forgets every read (after writes behind the app's back, e.g. a test moving dates). */
  clear(): void;
  /** Every cache's lookups since the app started, by cache (the metrics' hit ratios). */
  counts(): Record<string, CacheCounts>;
  /** Subscribes every cache to the events that change it; returns the unsubscribe function. */
  subscribe(events: EventBus<DomainEvent>): () => void;
}

/** The caches read through the app's own models and services. */
export function createReadCaches(
  config: Pick<Config, 'readCacheMs' | 'authorCacheMs' | 'authCacheMs'>,
  sources: FeedSources & { User: UserModel; safety: SafetyLoader },
  clock: Clock,
): ReadCaches {
  const feed = new FeedCache(config.readCacheMs, sources);
  const authors = new AuthorCache(config.authorCacheMs, sources.User);
  // Each caller no longer than until their activity is due to be recorded again (users/service.ts).
  const accounts = new AccountCache(config.authCacheMs, () => clock.now().getTime());
  const tokens = new VerifiedTokens();
  const sessions = new SessionCache(config.authCacheMs, () => clock.now().getTime());
  const notifications = new NotificationPageCache(config.readCacheMs);
  const comments = new CommentPageCache(config.readCacheMs);
  const safety = new SafetyCache(config.readCacheMs, sources.safety, clock);
  const subscribed = [feed, authors, accounts, sessions, notifications, comments, safety];
  return {
    safety,
    feed,
    authors,
    accounts,
    tokens,
    sessions,
    notifications,
    comments,
    clear() {
      for (const cache of subscribed) cache.clear();
      tokens.clear();
    },
    counts: () => ({
      ...feed.counts(),
      authors: authors.counts,
      accounts: accounts.counts,
      tokens: tokens.counts,
      sessions: sessions.counts,
      'notification-pages': notifications.counts,
      safety: safety.counts,
      ...comments.counts(),
    }),
    subscribe(events) {
      const stops = subscribed.map((cache) => cache.subscribe(events));
      return () => stops.forEach((stop) => stop());
    },
  };
}
