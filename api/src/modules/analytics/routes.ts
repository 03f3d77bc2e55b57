import Router from '@koa/router';
import type { Middleware } from 'koa';
import { currentUser, type AppState, type AuthUser } from '../../platform/auth';
import { forbidden } from '../../platform/errors';
import { activeUsers, engagement, overview, userGrowth } from './service';

/** Who may read analytics: the administrator only. */
export const analyticsPolicy = {
  canRead(user: AuthUser): boolean {
    return user.isAdmin;
  },
};

const requireAdmin: Middleware<AppState> = async (ctx, next) => {
  if (!analyticsPolicy.canRead(currentUser(ctx.state))) throw forbidden('Admin access required');
  ctx.set('Cache-Control', 'no-store');
  return next();
};

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
