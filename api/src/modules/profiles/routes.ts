import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { USER_NOT_FOUND } from '../users/queries';
import { getProfile } from './get-profile';

/** `GET /api/users/:id`; editing the profile is the users module's (`PUT /api/users/:id`). */
export function profileRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  const options = { before: [app.requireAuth], notFound: USER_NOT_FOUND, cacheControl: 'no-store' };
  bindCall(router, calls.profile, options, (ctx, { params }) =>
    getProfile(app, params.id, currentUser(ctx.state).id),
  );
  return router;
}
