import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { POST_NOT_FOUND } from '../posts/queries';
import { bookmarkPost, unbookmarkPost } from './keep-bookmark';
import { listBookmarks } from './list-bookmarks';

/** Bookmarks (issue 40): keep a post, drop it, the private Bookmarks page. */
export function bookmarkRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  const member = { before: [app.requireAuth], notFound: POST_NOT_FOUND };
  bindCall(router, calls.bookmarkPost, member, (ctx, { params }) =>
    bookmarkPost(app, currentUser(ctx.state).id, params.id),
  );
  bindCall(router, calls.unbookmarkPost, member, (ctx, { params }) =>
    unbookmarkPost(app, currentUser(ctx.state).id, params.id),
  );
  bindCall(router, calls.bookmarks, { ...member, cacheControl: 'no-store' }, (ctx, { query }) =>
    listBookmarks(app, currentUser(ctx.state).id, query.cursor),
  );
  return router;
}
