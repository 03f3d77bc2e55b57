import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { searchPosts } from './search-posts';

/** Post search (issue 40), limited per member (`postSearches`). */
export function searchRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  bindCall(
    router,
    calls.searchPosts,
    { before: [app.requireAuth, app.limits.postSearches], cacheControl: 'no-store' },
    (ctx, { query }) => searchPosts(app, currentUser(ctx.state).id, query),
  );
  return router;
}
