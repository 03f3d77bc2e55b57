import Router from '@koa/router';
import {
  commentPageQuerySchema,
  createCommentSchema,
  createPostSchema,
  feedQuerySchema,
  idParamSchema,
  repostSchema,
  type FeedQuery,
} from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import { parseInput } from '../../platform/validation';
import { decodeCommentCursor } from '../comments/list-comments';
import { addComment } from './add-comment';
import { createPost } from './create-post';
import { deletePost } from './delete-post';
import { listFeedJson } from './feed';
import { togglePostLike } from './like-post';
import { getPostDetail, listPostComments } from './post-detail';
import { POST_NOT_FOUND } from './queries';
import { repost, undoRepost } from './repost';

/** `:id` of a post route; anything but a positive integer names no post. */
function postIdParam(raw: string | undefined): number {
  const parsed = idParamSchema.safeParse(raw);
  if (!parsed.success) throw notFound(POST_NOT_FOUND);
  return parsed.data;
}

/**
 * Feed queries as parsed, by their query string (the same few strings come again and again):
 * each string is validated once. Only valid ones are kept, at most FEED_QUERIES_KEPT.
 */
const FEED_QUERIES_KEPT = 1_000;

function feedQueryParser(): (querystring: string, query: () => unknown) => FeedQuery {
  const parsed = new Map<string, Readonly<FeedQuery>>();
  return (querystring, query) => {
    const hit = parsed.get(querystring);
    if (hit) return hit;
    const fresh = Object.freeze(parseInput(feedQuerySchema, query()));
    if (parsed.size >= FEED_QUERIES_KEPT) parsed.clear();
    parsed.set(querystring, fresh);
    return fresh;
  };
}

export function postRoutes(app: HttpContext) {
  const { limits } = app;
  const router = new Router<AppState>({ prefix: '/api/posts' });
  router.use(app.requireAuth);

  const feedQuery = feedQueryParser();
  router.get('/', async (ctx) => {
    // The viewer comes from the token; a `userId` query parameter is accepted and ignored.
    const query = feedQuery(ctx.querystring, () => ctx.query);
    ctx.set('Cache-Control', 'no-store');
    // The page's JSON as bytes, made once per cached page and set of viewer's flags: written as
    // they are (no serializing, no encoding, no length to count).
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.body = await listFeedJson(app, currentUser(ctx.state).id, query);
  });

  router.post('/', limits.posts, async (ctx) => {
    const input = parseInput(createPostSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await createPost(app, currentUser(ctx.state), input);
  });

  router.get('/:id', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await getPostDetail(app, postIdParam(ctx.params.id), currentUser(ctx.state).id);
  });

  // The next page of a post's comments (`cursor`: the nextCursor of the page before).
  router.get('/:id/comments', async (ctx) => {
    const id = postIdParam(ctx.params.id);
    const { cursor } = parseInput(commentPageQuerySchema, ctx.query);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listPostComments(
      app,
      id,
      currentUser(ctx.state).id,
      cursor === undefined ? undefined : decodeCommentCursor(cursor),
    );
  });

  router.delete('/:id', async (ctx) => {
    const id = postIdParam(ctx.params.id);
    await deletePost(app, currentUser(ctx.state), id);
    ctx.body = { id, deleted: true };
  });

  router.post('/:id/like', limits.likes, async (ctx) => {
    ctx.body = await togglePostLike(app, currentUser(ctx.state).id, postIdParam(ctx.params.id));
  });

  router.post('/:id/repost', limits.reposts, async (ctx) => {
    const id = postIdParam(ctx.params.id);
    const input = parseInput(repostSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await repost(app, currentUser(ctx.state), id, input);
  });

  // Undoes the caller's plain repost of post :id (the Repost button, pressed again).
  router.delete('/:id/repost', async (ctx) => {
    ctx.body = await undoRepost(app, currentUser(ctx.state), postIdParam(ctx.params.id));
  });

  router.post('/:id/comments', limits.comments, async (ctx) => {
    const id = postIdParam(ctx.params.id);
    const input = parseInput(createCommentSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await addComment(app, currentUser(ctx.state), id, input);
  });

  return router;
}
