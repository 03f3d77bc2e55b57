import Router from '@koa/router';
import { profileUpdateSchema, userSearchQuerySchema } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { parseInput } from '../../platform/validation';
import { userIdParam } from './params';
import { searchUsers, suggestUsers } from './people';
import { updateProfile } from './update-profile';

/** `PUT /api/users/:id`; reading a profile is the profiles module's (`GET /api/users/:id`). */
export function userRoutes(app: HttpContext) {
  const router = new Router<AppState>({ prefix: '/api/users' });
  router.use(app.requireAuth);

  // People search and who to follow (people.ts).
  router.get('/', async (ctx) => {
    const { q } = parseInput(userSearchQuerySchema, ctx.query);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await searchUsers(app, q, currentUser(ctx.state).id);
  });

  router.get('/suggestions', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await suggestUsers(app, currentUser(ctx.state).id);
  });

  router.put('/:id', async (ctx) => {
    const actor = currentUser(ctx.state);
    const userId = userIdParam(ctx.params.id);
    const update = parseInput(profileUpdateSchema, ctx.request.body);
    ctx.body = await updateProfile(app, actor, userId, update);
  });

  return router;
}
