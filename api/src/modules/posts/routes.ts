import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { decodeCommentCursor } from '../comments/list-comments';
import { addComment } from './add-comment';
import { createPost } from './create-post';
import { deletePost } from './delete-post';
import { editPost } from './edit-post';
import { listFeedJson } from './feed';
import { togglePostLike } from './like-post';
import { getPostDetail, listPostComments } from './post-detail';
import { POST_NOT_FOUND } from './queries';
import { repost, undoRepost } from './repost';
import { postVersions } from './versions';

/** The feed, posts, their likes, reposts and comments (an `:id` that is no number: 404). */
export function postRoutes(app: HttpContext) {
  const { limits, requireAuth } = app;
  const router = new Router<AppState>();
  const post = (...before: (typeof app.requireAuth)[]) => ({
    before: [requireAuth, ...before],
    notFound: POST_NOT_FOUND,
  });
  const caller = (ctx: { state: AppState }) => currentUser(ctx.state);

  // The page's JSON as bytes, made once per cached page and set of viewer's flags: written as
  // they are (no serializing, no encoding, no length to count). The viewer comes from the token;
  // a `userId` query parameter is accepted and ignored.
  bindCall(router, calls.feed, { ...post(), cacheControl: 'no-store' }, (ctx, { query }) =>
    listFeedJson(app, caller(ctx).id, query),
  );
  bindCall(router, calls.createPost, post(limits.posts), (ctx, { body }) =>
    createPost(app, caller(ctx), body),
  );
  bindCall(router, calls.post, { ...post(), cacheControl: 'no-store' }, (ctx, { params }) =>
    getPostDetail(app, params.id, caller(ctx).id),
  );
  // The next page of a post's comments (`cursor`: the nextCursor of the page before).
  bindCall(
    router,
    calls.commentPage,
    { ...post(), cacheControl: 'no-store' },
    (ctx, { params, query }) =>
      listPostComments(
        app,
        params.id,
        caller(ctx).id,
        query.cursor === undefined ? undefined : decodeCommentCursor(query.cursor),
      ),
  );
  bindCall(router, calls.deletePost, post(), async (ctx, { params }) => {
    await deletePost(app, caller(ctx), params.id);
    return { id: params.id, deleted: true as const };
  });
  // Its author edits its text; everyone who sees it can read the earlier versions.
  bindCall(router, calls.editPost, post(limits.posts), (ctx, { params, body }) =>
    editPost(app, caller(ctx), params.id, body),
  );
  bindCall(
    router,
    calls.postVersions,
    { ...post(), cacheControl: 'no-store' },
    (_ctx, { params }) => postVersions(app, params.id),
  );
  bindCall(router, calls.likePost, post(limits.likes), (ctx, { params }) =>
    togglePostLike(app, caller(ctx).id, params.id),
  );
  bindCall(router, calls.repost, post(limits.reposts), (ctx, { params, body }) =>
    repost(app, caller(ctx), params.id, body),
  );
  // Undoes the caller's plain repost of post :id (the Repost button, pressed again).
  bindCall(router, calls.undoRepost, post(), (ctx, { params }) =>
    undoRepost(app, caller(ctx), params.id),
  );
  bindCall(router, calls.addComment, post(limits.comments), (ctx, { params, body }) =>
    addComment(app, caller(ctx), params.id, body),
  );
  return router;
}
