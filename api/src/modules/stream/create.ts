import type { Connection } from 'mongoose';
import type { Logger } from '../../platform/logger';
import type { NotificationSources } from '../notifications/service';
import type { Services } from '../../services';
import { AccountCache } from '../users/account-cache';
import { StreamHub } from './hub';
import type { LiveStreamModel } from './model';
import { createStreamRegistry } from './registry';

/** The app's stream hub, reading through the app's own services. */
export function createStreamHub(
  services: Pick<Services, 'notifications' | 'posts' | 'follows' | 'users'>,
  deps: {
    connection: Connection;
    /** Where every process records its open streams (the per-member limit across processes). */
    LiveStream?: LiveStreamModel;
    sources: NotificationSources;
    logger: Logger;
    adminUserId: number;
    activityThrottleMs: number;
    heartbeatMs?: number;
  },
): StreamHub {
  const { notifications, posts, follows, users } = services;
  // Sessions are checked against the database itself (a cache of nothing): the check runs
  // because the account just changed, before the app's account cache may have heard of it.
  const freshAccount = users.createAuthenticator({
    adminUserId: deps.adminUserId,
    activityThrottleMs: deps.activityThrottleMs,
    accounts: new AccountCache(0),
  });
  return new StreamHub({
    connection: deps.connection,
    registry: deps.LiveStream && createStreamRegistry(deps.LiveStream),
    notificationsById: (ids) => notifications.notificationsById(ids, deps.sources),
    notificationsAfter: (userId, afterId) =>
      notifications.notificationsAfter(userId, afterId, deps.sources),
    unreadCounts: notifications.unreadCounts,
    newPostIds: posts.newPostIds,
    followedIds: follows.followedIds,
    async sessionValid(userId, issuedAt) {
      const account = await freshAccount(userId);
      return (
        account !== undefined && !account.suspended && issuedAt >= (account.sessionsValidAfter ?? 0)
      );
    },
    logger: deps.logger,
    heartbeatMs: deps.heartbeatMs,
  });
}
