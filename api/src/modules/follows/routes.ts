import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { USER_NOT_FOUND } from '../users/queries';
import { listConnections } from './queries';
import { toggleFollow } from './toggle-follow';

export function followRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  const member = { before: [app.requireAuth], notFound: USER_NOT_FOUND };
  // The follower is always the caller: a body naming anyone else is refused, not ignored.
  bindCall(
    router,
    calls.toggleFollow,
    { ...member, before: [app.requireAuth, app.limits.follows] },
    (ctx, { params }) => toggleFollow(app, currentUser(ctx.state), params.id),
  );
  bindCall(router, calls.following, member, (ctx, { params }) =>
    listConnections(app, params.id, 'following', currentUser(ctx.state).id),
  );
  bindCall(router, calls.followers, member, (ctx, { params }) =>
    listConnections(app, params.id, 'followers', currentUser(ctx.state).id),
  );
  return router;
}
