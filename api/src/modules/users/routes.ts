import Router from '@koa/router';
import type { Middleware } from 'koa';
import { profileUpdateSchema, userSearchQuerySchema } from '@campus/contracts';
import { currentUser, type AppState } from '../../platform/auth';
import type { UploadStorage } from '../../platform/storage';
import { parseInput } from '../../platform/validation';
import { userIdParam } from './params';
import type { PeopleService } from './people';
import type { UserService } from './service';

/** `PUT /api/users/:id`; reading a profile is the profiles module's (`GET /api/users/:id`). */
export function userRoutes(
  users: UserService,
  requireAuth: Middleware<AppState>,
  deps: { publicUrl: string; storage: UploadStorage; people: PeopleService },
) {
  const { updateProfile } = users;
  const router = new Router<AppState>({ prefix: '/api/users' });
  router.use(requireAuth);

  // People search and who to follow (people.ts).
  router.get('/', async (ctx) => {
    const { q } = parseInput(userSearchQuerySchema, ctx.query);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await deps.people.searchUsers(q, currentUser(ctx.state).id, deps.publicUrl);
  });

  router.get('/suggestions', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await deps.people.suggestUsers(currentUser(ctx.state).id, deps.publicUrl);
  });

  router.put('/:id', async (ctx) => {
    const actor = currentUser(ctx.state);
    const userId = userIdParam(ctx.params.id);
    const update = parseInput(profileUpdateSchema, ctx.request.body);
    ctx.body = await updateProfile(actor, userId, update, deps);
  });

  return router;
}
