import Router from '@koa/router';
import type { Middleware } from 'koa';
import { profileUpdateSchema } from '@campus/contracts';
import { currentUser, type AppState } from '../../platform/auth';
import type { UploadStorage } from '../../platform/storage';
import { parseInput } from '../../platform/validation';
import { userIdParam } from './params';
import type { UserService } from './service';

/** `PUT /api/users/:id`; reading a profile is the profiles module's (`GET /api/users/:id`). */
export function userRoutes(
  users: UserService,
  requireAuth: Middleware<AppState>,
  deps: { publicUrl: string; storage: UploadStorage },
) {
  const { updateProfile } = users;
  const router = new Router<AppState>({ prefix: '/api/users' });
  router.use(requireAuth);

  router.put('/:id', async (ctx) => {
    const actor = currentUser(ctx.state);
    const userId = userIdParam(ctx.params.id);
    const update = parseInput(profileUpdateSchema, ctx.request.body);
    ctx.body = await updateProfile(actor, userId, update, deps);
  });

  return router;
}
