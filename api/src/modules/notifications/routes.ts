import Router from '@koa/router';
import type { Middleware } from 'koa';
import { idParamSchema } from '@campus/contracts';
import { currentUser, type AppState } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import type { NotificationSources, NotificationService } from './service';

export function notificationRoutes(
  notifications: NotificationService,
  requireAuth: Middleware<AppState>,
  sources: NotificationSources,
) {
  const { listNotifications, markAllRead, markRead } = notifications;
  const router = new Router<AppState>({ prefix: '/api/notifications' });
  router.use(requireAuth);

  router.get('/', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listNotifications(currentUser(ctx.state).id, sources);
  });

  router.put('/read-all', async (ctx) => {
    ctx.body = { updated: await markAllRead(currentUser(ctx.state).id) };
  });

  router.put('/:id/read', async (ctx) => {
    const id = idParamSchema.safeParse(ctx.params.id);
    if (!id.success) throw notFound('Notification not found');
    await markRead(currentUser(ctx.state).id, id.data);
    ctx.body = { id: id.data, isRead: true };
  });

  return router;
}
