import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import jwt from 'jsonwebtoken';
import { streamLastEventIdSchema, streamQuerySchema } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { parseInput } from '../../platform/validation';
import type { StreamHub } from './hub';

/** The caller's token: `requireAuth` has already checked it. */
function bearer(header: string): string {
  return header.replace(/^Bearer /, '');
}

/**
 * `GET /api/stream`: the member's live stream (`text/event-stream`, api/README.md "Live
 * stream"). The response stays open; the hub writes to it and ends it.
 */
export function streamRoutes(app: HttpContext, hub: StreamHub) {
  const router = new Router<AppState>({ prefix: '/api/stream' });
  router.use(app.requireAuth);

  router.get('/', (ctx) => {
    const user = currentUser(ctx.state);
    const { tabs } = parseInput(streamQuerySchema, ctx.query);
    const token = bearer(ctx.get('Authorization'));
    const { issuedAt } = app.tokens.verifyClaims(token);
    const exp = (jwt.decode(token) as jwt.JwtPayload | null)?.exp;
    const lastEventId = streamLastEventIdSchema.safeParse(Number(ctx.get('Last-Event-ID') || NaN));

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
      expiresAt: exp !== undefined ? exp * 1000 : undefined,
      tabs,
      lastEventId: lastEventId.success ? lastEventId.data : undefined,
      sink,
    });
  });

  return router;
}
