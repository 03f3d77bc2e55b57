import Router from '@koa/router';
import type { Middleware } from 'koa';
import { emptyRequestSchema } from '@campus/contracts';
import { currentUser, type AppState } from '../../platform/auth';
import type { MemberLimiters } from '../../platform/rate-limit';
import { parseInput } from '../../platform/validation';
import { userIdParam } from '../users/params';
import type { FollowService } from './service';

export function followRoutes(
  follows: FollowService,
  requireAuth: Middleware<AppState>,
  deps: { publicUrl: string; limits: Pick<MemberLimiters, 'follows'> },
) {
  const { listConnections, toggleFollow } = follows;
  const router = new Router<AppState>({ prefix: '/api/users/:id' });
  router.use(requireAuth);

  router.post('/follow', deps.limits.follows, async (ctx) => {
    // The follower is always the caller: a body naming anyone else is refused, not ignored.
    parseInput(emptyRequestSchema, ctx.request.body);
    ctx.body = await toggleFollow(currentUser(ctx.state), userIdParam(ctx.params.id));
  });

  router.get('/following', async (ctx) => {
    const viewer = currentUser(ctx.state);
    ctx.body = await listConnections(
      userIdParam(ctx.params.id),
      'following',
      viewer.id,
      deps.publicUrl,
    );
  });

  router.get('/followers', async (ctx) => {
    const viewer = currentUser(ctx.state);
    ctx.body = await listConnections(
      userIdParam(ctx.params.id),
      'followers',
      viewer.id,
      deps.publicUrl,
    );
  });

  return router;
}
