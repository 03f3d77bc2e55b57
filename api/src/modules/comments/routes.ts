import Router from '@koa/router';
import { idParamSchema } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import { toggleCommentLike } from './like-comment';
import { COMMENT_NOT_FOUND } from './queries';

export function commentRoutes(app: HttpContext) {
  const router = new Router<AppState>({ prefix: '/api/comments' });
  router.use(app.requireAuth);

  // Liking comments counts with liking posts.
  router.post('/:id/like', app.limits.likes, async (ctx) => {
    const id = idParamSchema.safeParse(ctx.params.id);
    if (!id.success) throw notFound(COMMENT_NOT_FOUND);
    ctx.body = await toggleCommentLike(app, currentUser(ctx.state).id, id.data);
  });

  return router;
}
