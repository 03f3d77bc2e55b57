import { ACCESS_COOKIE, REFRESH_COOKIE } from '@campus/contracts';
import type { Config } from '../../platform/config';
import { browserCookie as options, type CookieContext } from '../../platform/cookies';
import type { IssuedSession } from './browser-sessions';

/** The access cookie goes to every API route; the refresh cookie only to /api/auth (refresh, sign-out). */
const ACCESS_PATH = '/api';
const REFRESH_PATH = '/api/auth';
const DAY_MS = 24 * 60 * 60_000;

/**
 * Sets the session's cookies: both `HttpOnly` (no script reads them), `SameSite=Lax`, `Secure` in
 * production. The refresh cookie only when it changed.
 */
export function setSessionCookies(
  ctx: CookieContext,
  config: Pick<Config, 'env' | 'sessionIdleDays'>,
  issued: IssuedSession,
): void {
  const accessMs = Math.max(0, issued.accessExpiresAt - Date.now());
  ctx.cookies.set(ACCESS_COOKIE, issued.accessToken, options(ctx, config, ACCESS_PATH, accessMs));
  if (issued.refreshToken) {
    const refreshMs = config.sessionIdleDays * DAY_MS;
    ctx.cookies.set(
      REFRESH_COOKIE,
      issued.refreshToken,
      options(ctx, config, REFRESH_PATH, refreshMs),
    );
  }
}

/** Tells the browser to drop both cookies. */
export function clearSessionCookies(ctx: CookieContext, config: Pick<Config, 'env'>): void {
  ctx.cookies.set(ACCESS_COOKIE, null, options(ctx, config, ACCESS_PATH, 0));
  ctx.cookies.set(REFRESH_COOKIE, null, options(ctx, config, REFRESH_PATH, 0));
}
