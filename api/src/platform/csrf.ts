import type { ParameterizedContext } from 'koa';
import { CSRF_HEADER, CSRF_HEADER_VALUE, CSRF_REFUSED_MESSAGE } from '@campus/contracts';
import { forbidden } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

type RequestHeaders = Pick<ParameterizedContext, 'method' | 'get'>;

/**
 * Cross-site request forgery: a browser attaches the session cookies to a request another page
 * makes (a form posted to the API, a `fetch` with `credentials: 'include'`), so a write that a
 * cookie authenticates must prove it comes from one of our pages. Two checks, both required:
 *
 * - `Origin` is one of ALLOWED_ORIGINS (browsers send it with every write; a missing one is
 *   refused too: only a non-browser client omits it, and such a client can use a bearer token);
 * - the custom header `X-Requested-With: campus`, which a page on another origin cannot add
 *   without a CORS preflight the API answers only for the allowed origins (a form cannot add a
 *   header at all).
 *
 * Called for every write authenticated by the session cookie: by `requireAuth` when the cookie
 * (not a bearer token) authenticated the request, and by the routes that read the refresh
 * cookie (refresh, sign-out). A request authenticated by `Authorization: Bearer` is not checked:
 * a browser never adds that header by itself, so a forged request cannot carry it. A request the
 * cookie does not authenticate (sign-in, registration) has no session to abuse. GET, HEAD and
 * OPTIONS change nothing and are never checked.
 */
export function assertFromOurPages(ctx: RequestHeaders, allowedOrigins: ReadonlySet<string>): void {
  if (SAFE_METHODS.has(ctx.method)) return;
  if (!allowedOrigins.has(ctx.get('Origin')) || ctx.get(CSRF_HEADER) !== CSRF_HEADER_VALUE) {
    throw forbidden(CSRF_REFUSED_MESSAGE);
  }
}
