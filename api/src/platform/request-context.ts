/**
 * Every request's id, for finding all of a request's log lines and matching them with the
 * gateway's: the `X-Request-Id` a trusted proxy sent, or a new one. It is echoed in the response's
 * `X-Request-Id` and carried by every line logged during the request (`reqId`, logger.ts
 * `withLogFields`), whichever code logs it.
 *
 * A proxy is trusted as TRUST_PROXY_HOPS says, as for the client address (Koa's `proxy`): with
 * none, anyone can write the header, so it is ignored (a client could otherwise give its requests
 * another request's id, or fill the logs with whatever it likes).
 */
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { withLogFields } from './logger';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** An id a proxy may hand us: nginx's `$request_id` (32 hex digits), a UUID, a trace id... */
const FORWARDED_ID = /^[\w.:@+=/-]{1,128}$/;

export function requestIds(trustProxyHops: number): Middleware {
  return (ctx, next) => {
    const forwarded = trustProxyHops > 0 ? ctx.get(REQUEST_ID_HEADER) : '';
    const requestId = FORWARDED_ID.test(forwarded) ? forwarded : randomUUID();
    ctx.set(REQUEST_ID_HEADER, requestId);
    return withLogFields({ reqId: requestId }, () => next());
  };
}
