import type { DomainEvent } from '../../domain-events';
import type { EventBus } from '../../platform/event-bus';
import type { Logger } from '../../platform/logger';
import type { Transactions } from '../../platform/transactions';
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
    events: EventBus<DomainEvent>;
    /** Resolves once the app follows every process's events (platform/event-stream.ts). */
    ready(): Promise<void>;
    /** Where every process records its open streams (the per-member limit across processes). */
    LiveStream?: LiveStreamModel;
    writes: Transactions<DomainEvent>;
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
    events: deps.events,
    ready: deps.ready,
    registry: deps.LiveStream && createStreamRegistry(deps.LiveStream, deps.writes),
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
