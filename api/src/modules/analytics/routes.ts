import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from '../../platform/auth';
import { requireAdmin } from '../auth/policy';
import type { AnalyticsService } from './service';

export function analyticsRoutes(
  analytics: AnalyticsService,
  requireAuth: Middleware<AppState>,
  options: { timezone: string },
) {
  const { activeUsers, engagement, overview, userGrowth } = analytics;
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
