import Router from '@koa/router';
import type { Middleware } from 'koa';
import { idParamSchema } from '@campus/contracts';
import { currentUser, type AppState } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import type { MemberLimiters } from '../../platform/rate-limit';
import { COMMENT_NOT_FOUND, type CommentService } from './service';

export function commentRoutes(
  comments: CommentService,
  requireAuth: Middleware<AppState>,
  deps: {
    isPostVisible: (postId: number) => Promise<boolean>;
    /** Liking comments counts with liking posts. */
    limits: Pick<MemberLimiters, 'likes'>;
  },
) {
  const { toggleCommentLike } = comments;
  const router = new Router<AppState>({ prefix: '/api/comments' });
  router.use(requireAuth);

  router.post('/:id/like', deps.limits.likes, async (ctx) => {
    const id = idParamSchema.safeParse(ctx.params.id);
    if (!id.success) throw notFound(COMMENT_NOT_FOUND);
    ctx.body = await toggleCommentLike(currentUser(ctx.state).id, id.data, deps.isPostVisible);
  });

  return router;
}
