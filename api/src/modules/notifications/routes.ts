import Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  idParamSchema,
  markNotificationsReadRequestSchema,
  notificationListQuerySchema,
} from '@campus/contracts';
import { currentUser, type AppState } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import { parseInput } from '../../platform/validation';
import { NotificationPageCache } from './page-cache';
import type { NotificationSources, NotificationService } from './service';

export function notificationRoutes(
  notifications: NotificationService,
  requireAuth: Middleware<AppState>,
  sources: NotificationSources,
  deps: {
    timezone: string;
    /** The app's notification pages (read-caches.ts); none kept without it. */
    pages?: NotificationPageCache;
  } = { timezone: 'UTC' },
) {
  const pages = deps.pages ?? new NotificationPageCache(0);
  const { listNotifications, listNotificationGroups, markAllRead, markManyRead, markRead } =
    notifications;
  const router = new Router<AppState>({ prefix: '/api/notifications' });
  router.use(requireAuth);

  router.get('/', async (ctx) => {
    const query = parseInput(notificationListQuerySchema, ctx.query);
    const userId = currentUser(ctx.state).id;
    ctx.set('Cache-Control', 'no-store');
    // Kept as the JSON sent, forgotten by every event that may change it (page-cache.ts).
    ctx.type = 'application/json';
    ctx.body =
      query.grouped === 'true'
        ? await pages.page(userId, `grouped|${query.before ?? ''}|${query.limit}`, async () =>
            JSON.stringify(await listNotificationGroups(userId, query, sources, deps.timezone)),
          )
        : await pages.page(userId, 'list', async () =>
            JSON.stringify(await listNotifications(userId, sources)),
          );
  });

  router.put('/read-all', async (ctx) => {
    ctx.body = { updated: await markAllRead(currentUser(ctx.state).id) };
  });

  router.put('/read', async (ctx) => {
    const body = parseInput(markNotificationsReadRequestSchema, ctx.request.body);
    ctx.body = { updated: await markManyRead(currentUser(ctx.state).id, body, deps.timezone) };
  });

  router.put('/:id/read', async (ctx) => {
    const id = idParamSchema.safeParse(ctx.params.id);
    if (!id.success) throw notFound('Notification not found');
    await markRead(currentUser(ctx.state).id, id.data);
    ctx.body = { id: id.data, isRead: true };
  });

  return router;
}
