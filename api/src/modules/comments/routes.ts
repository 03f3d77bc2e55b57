import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { toggleCommentLike } from './like-comment';
import { COMMENT_NOT_FOUND } from './queries';

export function commentRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  // Liking comments counts with liking posts.
  const before = [app.requireAuth, app.limits.likes];
  bindCall(router, calls.likeComment, { before, notFound: COMMENT_NOT_FOUND }, (ctx, { params }) =>
    toggleCommentLike(app, currentUser(ctx.state).id, params.id),
  );
  return router;
}
