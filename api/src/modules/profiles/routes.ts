import Router from '@koa/router';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { userIdParam } from '../users/params';
import { getProfile } from './get-profile';

/** `GET /api/users/:id`; editing the profile is the users module's (`PUT /api/users/:id`). */
export function profileRoutes(app: HttpContext) {
  const router = new Router<AppState>({ prefix: '/api/users' });
  router.use(app.requireAuth);

  router.get('/:id', async (ctx) => {
    const viewer = currentUser(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await getProfile(app, userIdParam(ctx.params.id), viewer.id);
  });

  return router;
}
