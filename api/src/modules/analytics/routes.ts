import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppContext, HttpContext } from '../../context';
import type { AppState } from '../../platform/auth';
import { singleFlight } from '../../platform/in-flight';
import { ReadCache } from '../../platform/read-cache';
import { requireAdmin } from '../auth/policy';
import { activeUsers, engagement, overview, userGrowth } from './analytics';

/** The longest the dashboard's figures may be stale, whatever `cacheMs` asks. */
export const ANALYTICS_MAX_STALE_MS = 60_000;

/**
 * The admin's analytics. Each figure set is computed once for all the callers asking at the same
 * time (single flight) and kept for READ_CACHE_MS (at most a minute), so a dashboard open in many tabs
 * or reloaded often costs one computation, not one per request.
 */
export function analyticsRoutes(app: HttpContext) {
  const cache = new ReadCache<string, unknown>(
    Math.min(app.config.readCacheMs, ANALYTICS_MAX_STALE_MS),
    8,
  );
  const once = singleFlight<string, unknown>();
  const cached =
    (name: string, compute: (ctx: AppContext) => Promise<unknown>): Middleware =>
    async (ctx) => {
      const hit = cache.get(name);
      ctx.body =
        hit ??
        (await once(name, async () => {
          const mark = cache.mark();
          const value = await compute(app);
          cache.set(name, value, mark);
          return value;
        }));
    };
  const router = new Router<AppState>({ prefix: '/api/analytics' });
  router.use(app.requireAuth, requireAdmin);
  router.get('/overview', cached('overview', overview));
  router.get('/user-growth', cached('user-growth', userGrowth));
  router.get('/engagement', cached('engagement', engagement));
  router.get('/active-users', cached('active-users', activeUsers));
  return router;
}
