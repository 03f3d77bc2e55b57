import type { AppContext } from '../../context';
import { followedIds } from '../follows/queries';
import { followedTagsOf } from '../tags/queries';
import { notificationsAfter, notificationsById } from '../notifications/list-notifications';
import { unreadCounts } from '../notifications/mark-read';
import { hidesView } from '../notifications/screen';
import { viewerSafety } from '../safety/relations';
import { newPostIds } from '../posts/queries';
import { screenPosts } from '../posts/screen';
import { AccountCache } from '../users/account-cache';
import { createAuthenticator } from '../users/authenticate';
import { StreamHub } from './hub';
import { createStreamRegistry } from './registry';

/** The app's stream hub, reading through the app's own use cases. */
export function createStreamHub(
  ctx: AppContext,
  deps: {
    /** Resolves once the app follows every process's events (platform/event-stream.ts). */
    ready(): Promise<void>;
    heartbeatMs?: number;
  },
): StreamHub {
  // Sessions are checked against the database itself (a cache of nothing): the check runs
  // because the account just changed, whatever the app's account cache holds.
  const freshAccount = createAuthenticator(ctx, new AccountCache(0));
  return new StreamHub({
    events: ctx.events,
    ready: deps.ready,
    registry: createStreamRegistry(ctx),
    notificationsById: (ids) => notificationsById(ctx, ids),
    notificationsAfter: (userId, afterId) => notificationsAfter(ctx, userId, afterId),
    unreadCounts: (userIds) => unreadCounts(ctx, userIds),
    async newPostIds(tab, sinceId, viewerId, followed, tags) {
      const [ids, safety] = await Promise.all([
        newPostIds(ctx, tab, sinceId, viewerId, followed, tags),
        viewerSafety(ctx, viewerId),
      ]);
      if (safety.empty || !ids.length) return ids;
      // Not the posts of members the viewer blocked, was blocked by, or mutes, nor reposts and
      // quotes of theirs: what the feed itself leaves out (a muted word only collapses a post).
      const posts = await ctx.caches.feed.postsById(ids);
      const { kept } = await screenPosts(ctx, safety, [...posts.values()]);
      const shown = new Set(kept.map((p) => p._id));
      return ids.filter((id) => shown.has(id));
    },
    followedIds: (userId) => followedIds(ctx, userId),
    followedTags: (userId) => followedTagsOf(ctx, userId),
    async safetyOf(userId) {
      const safety = await viewerSafety(ctx, userId);
      return {
        hidesAuthor: (authorId) => safety.hides(authorId),
        hidesNotification: (view) => hidesView(safety, view),
      };
    },
    async sessionValid(userId, issuedAt) {
      const account = await freshAccount(userId);
      return (
        account !== undefined && !account.suspended && issuedAt >= (account.sessionsValidAfter ?? 0)
      );
    },
    logger: ctx.logger,
    heartbeatMs: deps.heartbeatMs,
  });
}
