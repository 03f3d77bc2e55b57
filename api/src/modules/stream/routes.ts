import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import { streamLastEventIdSchema, streamQuerySchema } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { parseInput } from '../../platform/validation';
import type { StreamHub } from './hub';

/**
 * `GET /api/stream`: the member's live stream (`text/event-stream`, api/README.md "Live
 * stream"). The response stays open; the hub writes to it and ends it.
 */
export function streamRoutes(app: HttpContext, hub: StreamHub) {
  const router = new Router<AppState>({ prefix: '/api/stream' });
  router.use(app.requireAuth);

  router.get('/', (ctx) => {
    const user = currentUser(ctx.state);
    const query = parseInput(streamQuerySchema, ctx.query);
    // Checked by requireAuth: the bearer token's, or the browser's access cookie's.
    const { issuedAt, expiresAt, sessionId } = ctx.state.credentials!.claims;
    // The header (an EventSource's own reconnection) wins over the query (a new EventSource).
    const lastEventId = streamLastEventIdSchema.safeParse(
      Number(ctx.get('Last-Event-ID') || query.lastEventId || NaN),
    );

    // No socket timeout, no buffering by proxies, nothing compressed or cached.
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.req.socket.setKeepAlive(true);
    ctx.status = 200;
    ctx.type = 'text/event-stream; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache, no-store, no-transform');
    ctx.set('X-Accel-Buffering', 'no');
    ctx.set('Connection', 'keep-alive');
    const sink = new PassThrough();
    ctx.body = sink;
    void hub.open({
      userId: user.id,
      issuedAt,
      sessionId,
      expiresAt,
      tabs: query.tabs,
      lastEventId: lastEventId.success ? lastEventId.data : undefined,
      sink,
    });
  });

  return router;
}
