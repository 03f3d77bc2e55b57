import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { searchUsers, suggestUsers } from './people';
import { USER_NOT_FOUND } from './queries';
import { updateProfile } from './update-profile';

/** People search, who to follow and `PUT /api/users/:id` (reading a profile: profiles module). */
export function userRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  const member = { before: [app.requireAuth], notFound: USER_NOT_FOUND };
  const fresh = { ...member, cacheControl: 'no-store' };
  // Limited per member (after requireAuth: a caller who is not signed in counts against nobody),
  // so nobody lists every member with a search per letter.
  const searching = { ...fresh, before: [app.requireAuth, app.limits.searches] };
  bindCall(router, calls.searchUsers, searching, (ctx, { query }) =>
    searchUsers(app, query.q, currentUser(ctx.state).id),
  );
  bindCall(router, calls.userSuggestions, fresh, (ctx) =>
    suggestUsers(app, currentUser(ctx.state).id),
  );
  bindCall(router, calls.updateProfile, member, (ctx, { params, body }) =>
    updateProfile(app, currentUser(ctx.state), params.id, body),
  );
  return router;
}
