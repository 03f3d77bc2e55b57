import Router from '@koa/router';
import { emptyRequestSchema } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { parseInput } from '../../platform/validation';
import { userIdParam } from '../users/params';
import { listConnections } from './queries';
import { toggleFollow } from './toggle-follow';

export function followRoutes(app: HttpContext) {
  const router = new Router<AppState>({ prefix: '/api/users/:id' });
  router.use(app.requireAuth);

  router.post('/follow', app.limits.follows, async (ctx) => {
    // The follower is always the caller: a body naming anyone else is refused, not ignored.
    parseInput(emptyRequestSchema, ctx.request.body);
    ctx.body = await toggleFollow(app, currentUser(ctx.state), userIdParam(ctx.params.id));
  });

  router.get('/following', async (ctx) => {
    const viewer = currentUser(ctx.state);
    ctx.body = await listConnections(app, userIdParam(ctx.params.id), 'following', viewer.id);
  });

  router.get('/followers', async (ctx) => {
    const viewer = currentUser(ctx.state);
    ctx.body = await listConnections(app, userIdParam(ctx.params.id), 'followers', viewer.id);
  });

  return router;
}
