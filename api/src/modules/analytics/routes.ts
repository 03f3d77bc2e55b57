import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { AppContext, HttpContext } from '../../context';
import type { AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { singleFlight } from '../../platform/in-flight';
import { ReadCache } from '../../platform/read-cache';
import { requireAdmin } from '../auth/policy';
import { activeUsers, engagement, overview, userGrowth } from './analytics';

/** The longest the dashboard's figures may be stale, whatever READ_CACHE_MS asks. */
export const ANALYTICS_MAX_STALE_MS = 60_000;

/**
 * The admin's analytics. Each figure set is computed once for all the callers asking at the same
 * time (single flight) and kept for READ_CACHE_MS (at most a minute), so a dashboard open in many
 * tabs or reloaded often costs one computation, not one per request.
 */
export function analyticsRoutes(app: HttpContext) {
  const cache = new ReadCache<string, unknown>(
    Math.min(app.config.readCacheMs, ANALYTICS_MAX_STALE_MS),
    8,
  );
  const once = singleFlight<string, unknown>();
  const cached =
    <T>(name: string, compute: (ctx: AppContext) => Promise<T>) =>
    async (): Promise<T> =>
      (cache.get(name) as T | undefined) ??
      ((await once(name, async () => {
        const mark = cache.mark();
        const value = await compute(app);
        cache.set(name, value, mark);
        return value;
      })) as T);
  const router = new Router<AppState>();
  const admin = { before: [app.requireAuth, requireAdmin] };
  bindCall(router, calls.analyticsOverview, admin, cached('overview', overview));
  bindCall(router, calls.analyticsUserGrowth, admin, cached('user-growth', userGrowth));
  bindCall(router, calls.analyticsEngagement, admin, cached('engagement', engagement));
  bindCall(router, calls.analyticsActiveUsers, admin, cached('active-users', activeUsers));
  return router;
}
