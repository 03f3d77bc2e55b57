import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { listNotifications } from './list-notifications';
import { markAllRead, markManyRead, markRead } from './mark-read';
import { listNotificationGroups } from './notification-groups';

export function notificationRoutes(app: HttpContext) {
  const pages = app.caches.notifications;
  const router = new Router<AppState>();
  const member = { before: [app.requireAuth], notFound: 'Notification not found' };
  const fresh = { ...member, cacheControl: 'no-store' };
  const userOf = (ctx: { state: AppState }) => currentUser(ctx.state).id;

  // Kept as the JSON sent, forgotten by every event that may change it (page-cache.ts). The
  // grouped pages (`?grouped=true`) first: the plain list answers any other query.
  bindCall(router, calls.notificationGroups, fresh, (ctx, { query }) =>
    pages.page(userOf(ctx), `grouped|${query.before ?? ''}|${query.limit}`, async () =>
      JSON.stringify(await listNotificationGroups(app, userOf(ctx), query)),
    ),
  );
  bindCall(router, calls.notifications, fresh, (ctx) =>
    pages.page(userOf(ctx), 'list', async () =>
      JSON.stringify(await listNotifications(app, userOf(ctx))),
    ),
  );
  bindCall(router, calls.markAllNotificationsRead, member, async (ctx) => ({
    updated: await markAllRead(app, userOf(ctx)),
  }));
  bindCall(router, calls.markNotificationsRead, member, async (ctx, { body }) => ({
    updated: await markManyRead(app, userOf(ctx), body),
  }));
  bindCall(router, calls.markNotificationRead, member, async (ctx, { params }) => {
    await markRead(app, userOf(ctx), params.id);
    return { id: params.id, isRead: true as const };
  });
  return router;
}
