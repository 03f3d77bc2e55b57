import Router from '@koa/router';
import type { Middleware } from 'koa';
import { currentUser, type AppState } from '../../platform/auth';
import type { PostReads } from '../posts/presenters';
import { userIdParam } from '../users/params';
import type { ProfileService } from './service';

/** `GET /api/users/:id`; editing the profile is the users module's (`PUT /api/users/:id`). */
export function profileRoutes(
  profiles: ProfileService,
  requireAuth: Middleware<AppState>,
  reads: PostReads,
) {
  const { getProfile } = profiles;
  const router = new Router<AppState>({ prefix: '/api/users' });
  router.use(requireAuth);

  router.get('/:id', async (ctx) => {
    const viewer = currentUser(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await getProfile(userIdParam(ctx.params.id), viewer.id, reads);
  });

  return router;
}
