import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { deleteOwnComment } from '../posts/delete-comment';
import { editOwnComment } from '../posts/edit-comment';
import { commentVersions } from '../posts/versions';
import { toggleCommentLike } from './like-comment';
import { COMMENT_NOT_FOUND } from './queries';

export function commentRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  // Liking comments counts with liking posts.
  const before = [app.requireAuth, app.limits.likes];
  bindCall(router, calls.likeComment, { before, notFound: COMMENT_NOT_FOUND }, (ctx, { params }) =>
    toggleCommentLike(app, currentUser(ctx.state).id, params.id),
  );
  // Its author edits or deletes it (the post's count moves with a delete, in the posts module);
  // everyone who sees it can read the earlier versions.
  const comment = (...limit: (typeof app.requireAuth)[]) => ({
    before: [app.requireAuth, ...limit],
    notFound: COMMENT_NOT_FOUND,
  });
  bindCall(router, calls.editComment, comment(app.limits.comments), (ctx, { params, body }) =>
    editOwnComment(app, currentUser(ctx.state), params.id, body),
  );
  bindCall(router, calls.deleteComment, comment(), (ctx, { params }) =>
    deleteOwnComment(app, currentUser(ctx.state), params.id),
  );
  bindCall(
    router,
    calls.commentVersions,
    { ...comment(), cacheControl: 'no-store' },
    (_ctx, { params }) => commentVersions(app, params.id),
  );
  return router;
}
