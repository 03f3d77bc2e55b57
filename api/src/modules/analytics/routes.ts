import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from '../../platform/auth';
import { requireAdmin } from '../auth/policy';
import { activeUsers, engagement, overview, userGrowth } from './service';

export function analyticsRoutes(requireAuth: Middleware<AppState>, options: { timezone: string }) {
  const router = new Router<AppState>({ prefix: '/api/analytics' });
  router.use(requireAuth, requireAdmin);
  router.get('/overview', async (ctx) => {
    ctx.body = await overview(options);
  });
  router.get('/user-growth', async (ctx) => {
    ctx.body = await userGrowth(options);
  });
  router.get('/engagement', async (ctx) => {
    ctx.body = await engagement(options);
  });
  router.get('/active-users', async (ctx) => {
    ctx.body = await activeUsers(options);
  });
  return router;
}
