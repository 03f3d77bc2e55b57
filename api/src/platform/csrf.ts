import type { Middleware } from 'koa';
import {
  ACCESS_COOKIE,
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  CSRF_REFUSED_MESSAGE,
  REFRESH_COOKIE,
} from '@campus/contracts';
import type { AppState } from './auth';
import { forbidden } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery: a browser attaches the session cookies to a request another site's
 * page makes (a form posted to the API, an image, a `fetch` with `credentials: 'include'`), so a
 * write that carries them must prove it comes from one of our pages. Two checks, both required:
 *
 * - `Origin` is one of ALLOWED_ORIGINS (browsers send it with every write; a missing one is
 *   refused too, since only a non-browser client omits it and that client can use a bearer token);
 * - the custom header `X-Requested-With: campus`, which a page on another origin cannot add
 *   without a CORS preflight the API answers only for the allowed origins (a plain form cannot
 *   add a header at all).
 *
 * A request with `Authorization: Bearer` is not checked: a browser never adds that header by
 * itself, so a forged request cannot carry it, and the cookies it may also carry are not what
 * authenticates it (`requireAuth` takes the bearer token first). Nor is a request without the
 * session cookies: it has no session to abuse (sign-in, registration). GET, HEAD and OPTIONS
 * change nothing and are never checked.
 */
export function csrfProtection(allowedOrigins: ReadonlySet<string>): Middleware<AppState> {
  return (ctx, next) => {
    if (SAFE_METHODS.has(ctx.method)) return next();
    if (/^Bearer /.test(ctx.get('Authorization'))) return next();
    const hasSession =
      ctx.cookies.get(ACCESS_COOKIE) !== undefined || ctx.cookies.get(REFRESH_COOKIE) !== undefined;
    if (!hasSession) return next();
    const origin = ctx.get('Origin');
    if (!allowedOrigins.has(origin) || ctx.get(CSRF_HEADER) !== CSRF_HEADER_VALUE) {
      throw forbidden(CSRF_REFUSED_MESSAGE);
    }
    return next();
  };
}
