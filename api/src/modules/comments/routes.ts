import Router from '@koa/router';
import type { Middleware } from 'koa';
import { idParamSchema } from '@campus/contracts';
import { currentUser, type AppState } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import { toggleCommentLike } from '../likes/service';
import { COMMENT_NOT_FOUND } from './service';

export function commentRoutes(requireAuth: Middleware<AppState>) {
  const router = new Router<AppState>({ prefix: '/api/comments' });
  router.use(requireAuth);

  router.post('/:id/like', async (ctx) => {
    const id = idParamSchema.safeParse(ctx.params.id);
    if (!id.success) throw notFound(COMMENT_NOT_FOUND);
    ctx.body = await toggleCommentLike(currentUser(ctx.state).id, id.data);
  });

  return router;
}
