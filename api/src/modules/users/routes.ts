import Router from '@koa/router';
import type { Middleware } from 'koa';
import { profileUpdateSchema } from '@campus/contracts';
import { currentUser, type AppState } from '../../platform/auth';
import { parseInput } from '../../platform/validation';
import type { PostReads } from '../posts/presenters';
import { userIdParam } from './params';
import { getProfile, updateProfile } from './service';

export function userRoutes(requireAuth: Middleware<AppState>, deps: PostReads) {
  const router = new Router<AppState>({ prefix: '/api/users' });
  router.use(requireAuth);

  router.get('/:id', async (ctx) => {
    const viewer = currentUser(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await getProfile(userIdParam(ctx.params.id), viewer.id, deps);
  });

  router.put('/:id', async (ctx) => {
    const actor = currentUser(ctx.state);
    const userId = userIdParam(ctx.params.id);
    const update = parseInput(profileUpdateSchema, ctx.request.body);
    ctx.body = await updateProfile(actor, userId, update, deps.publicUrl);
  });

  return router;
}
