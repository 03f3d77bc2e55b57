import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from '../../platform/auth';
import { singleFlight } from '../../platform/in-flight';
import { ReadCache } from '../../platform/read-cache';
import { requireAdmin } from '../auth/policy';
import type { AnalyticsService } from './service';

/** The longest the dashboard's figures may be stale, whatever `cacheMs` asks. */
export const ANALYTICS_MAX_STALE_MS = 60_000;

/**
 * The admin's analytics. Each figure set is computed once for all the callers asking at the same
 * time (single flight) and kept for `cacheMs` (at most a minute), so a dashboard open in many tabs
 * or reloaded often costs one computation, not one per request.
 */
export function analyticsRoutes(
  analytics: AnalyticsService,
  requireAuth: Middleware<AppState>,
  options: { timezone: string; cacheMs: number },
) {
  const { activeUsers, engagement, overview, userGrowth } = analytics;
  const cache = new ReadCache<string, unknown>(
    Math.min(options.cacheMs, ANALYTICS_MAX_STALE_MS),
    8,
  );
  const once = singleFlight<string, unknown>();
  const cached =
    (name: string, compute: (o: { timezone: string }) => Promise<unknown>): Middleware =>
    async (ctx) => {
      const hit = cache.get(name);
      ctx.body =
        hit ??
        (await once(name, async () => {
          const mark = cache.mark();
          const value = await compute({ timezone: options.timezone });
          cache.set(name, value, mark);
          return value;
        }));
    };
  const router = new Router<AppState>({ prefix: '/api/analytics' });
  router.use(requireAuth, requireAdmin);
  router.get('/overview', cached('overview', overview));
  router.get('/user-growth', cached('user-growth', userGrowth));
  router.get('/engagement', cached('engagement', engagement));
  router.get('/active-users', cached('active-users', activeUsers));
  return router;
}
