/**
 * The sign-up cookie (issue 35, "only the mailbox owner's password counts"). Registering sets it
 * in the registering browser: a random secret whose SHA-256 is kept on the pending sign-up. The
 * verification link keeps the password typed at registration only when it is opened with that
 * cookie (the one who typed the password also reads the mailbox); opened anywhere else, its
 * holder chooses the password (verify-email.ts). HttpOnly (no script reads it), SameSite=Lax,
 * Secure in production, sent only to the verification routes, gone after 48 hours like the
 * sign-up it belongs to.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../../platform/config';
import { browserCookie, type CookieContext } from '../../platform/cookies';
import { UNVERIFIED_ACCOUNT_TTL_MS } from '../users/accounts';

export const SIGN_UP_COOKIE = 'campus_signup';
/** The browser sends it to `GET` and `POST /api/auth/verify/:token` and nowhere else. */
const COOKIE_PATH = '/api/auth/verify';
/** 32 random bytes in base64url. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A new secret for a sign-up and the hash the sign-up keeps. */
export function newSignUpSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashSecret(secret) };
}

function write(ctx: CookieContext, config: Config, value: string | null): void {
  ctx.cookies.set(
    SIGN_UP_COOKIE,
    value,
    browserCookie(ctx, config, COOKIE_PATH, UNVERIFIED_ACCOUNT_TTL_MS),
  );
}

/** Sets the cookie of the sign-up just registered (it replaces the browser's previous one). */
export function setSignUpCookie(ctx: CookieContext, config: Config, secret: string): void {
  write(ctx, config, secret);
}

/** Removes the cookie once its sign-up is verified. */
export function clearSignUpCookie(ctx: CookieContext, config: Config): void {
  write(ctx, config, null);
}

/** The hash of the secret in the request's sign-up cookie; null without a well-formed one. */
export function signUpSecretHashOf(ctx: CookieContext): string | null {
  const secret = ctx.cookies.get(SIGN_UP_COOKIE, { signed: false });
  return secret && SECRET_PATTERN.test(secret) ? hashSecret(secret) : null;
}
