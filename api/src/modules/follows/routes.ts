import Router from '@koa/router';
import type { Middleware } from 'koa';
import { emptyRequestSchema } from '@campus/contracts';
import { currentUser, type AppState } from '../../platform/auth';
import type { MemberLimiters } from '../../platform/rate-limit';
import { parseInput } from '../../platform/validation';
import type { AuthorCache } from '../users/author-cache';
import { userIdParam } from '../users/params';
import type { FollowService } from './service';

export function followRoutes(
  follows: FollowService,
  requireAuth: Middleware<AppState>,
  deps: {
    publicUrl: string;
    limits: Pick<MemberLimiters, 'follows'>;
    /**
     * The app's author cache: a member followed is usually an author it holds, so the follow
     * needs no lookup of the account (a deleted account is forgotten by every process at once).
     */
    authors?: Pick<AuthorCache, 'byId'>;
  },
) {
  const { listConnections, toggleFollow } = follows;
  const { authors } = deps;
  const exists = authors ? async (id: number) => (await authors.byId([id])).has(id) : undefined;
  const router = new Router<AppState>({ prefix: '/api/users/:id' });
  router.use(requireAuth);

  router.post('/follow', deps.limits.follows, async (ctx) => {
    // The follower is always the caller: a body naming anyone else is refused, not ignored.
    parseInput(emptyRequestSchema, ctx.request.body);
    ctx.body = await toggleFollow(currentUser(ctx.state), userIdParam(ctx.params.id), exists);
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
