import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { followTag, unfollowTag } from './follow-tag';
import { followedTagsOf } from './queries';
import { tagPage } from './tag-page';
import { searchTags, trendingTags } from './trending';

/** Tags (issue 40): tag pages, trending today, tag search, following a tag. */
export function tagRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  const member = { before: [app.requireAuth], invalidParamsAreBadRequests: true };
  const fresh = { ...member, cacheControl: 'no-store' };
  const caller = (ctx: { state: AppState }) => currentUser(ctx.state).id;
  // The literal paths before `/api/tags/:tag`.
  bindCall(router, calls.trendingTags, fresh, (ctx) => trendingTags(app, caller(ctx)));
  bindCall(router, calls.followedTags, fresh, async (ctx) => ({
    tags: await followedTagsOf(app, caller(ctx)),
  }));
  bindCall(
    router,
    calls.searchTags,
    { ...fresh, before: [app.requireAuth, app.limits.searches] },
    (_ctx, { query }) => searchTags(app, query.q),
  );
  bindCall(router, calls.tagPage, fresh, (ctx, { params, query }) =>
    tagPage(app, caller(ctx), params.tag, query.cursor),
  );
  const following = { ...member, before: [app.requireAuth, app.limits.follows] };
  bindCall(router, calls.followTag, following, (ctx, { params }) =>
    followTag(app, caller(ctx), params.tag),
  );
  bindCall(router, calls.unfollowTag, following, (ctx, { params }) =>
    unfollowTag(app, caller(ctx), params.tag),
  );
  return router;
}
