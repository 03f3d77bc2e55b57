import Router from '@koa/router';
import {
  idParamSchema,
  markNotificationsReadRequestSchema,
  notificationListQuerySchema,
} from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import { parseInput } from '../../platform/validation';
import { listNotifications } from './list-notifications';
import { markAllRead, markManyRead, markRead } from './mark-read';
import { listNotificationGroups } from './notification-groups';

export function notificationRoutes(app: HttpContext) {
  const pages = app.caches.notifications;
  const router = new Router<AppState>({ prefix: '/api/notifications' });
  router.use(app.requireAuth);

  router.get('/', async (ctx) => {
    const query = parseInput(notificationListQuerySchema, ctx.query);
    const userId = currentUser(ctx.state).id;
    ctx.set('Cache-Control', 'no-store');
    // Kept as the JSON sent, forgotten by every event that may change it (page-cache.ts).
    ctx.type = 'application/json';
    ctx.body =
      query.grouped === 'true'
        ? await pages.page(userId, `grouped|${query.before ?? ''}|${query.limit}`, async () =>
            JSON.stringify(await listNotificationGroups(app, userId, query)),
          )
        : await pages.page(userId, 'list', async () =>
            JSON.stringify(await listNotifications(app, userId)),
          );
  });

  router.put('/read-all', async (ctx) => {
    ctx.body = { updated: await markAllRead(app, currentUser(ctx.state).id) };
  });

  router.put('/read', async (ctx) => {
    const body = parseInput(markNotificationsReadRequestSchema, ctx.request.body);
    ctx.body = { updated: await markManyRead(app, currentUser(ctx.state).id, body) };
  });

  router.put('/:id/read', async (ctx) => {
    const id = idParamSchema.safeParse(ctx.params.id);
    if (!id.success) throw notFound('Notification not found');
    await markRead(app, currentUser(ctx.state).id, id.data);
    ctx.body = { id: id.data, isRead: true };
  });

  return router;
}
