import type { ParameterizedContext } from 'koa';
import type { Config } from './config';
import { isProduction } from './production';

export type CookieContext = Pick<ParameterizedContext, 'cookies'>;

/**
 * The options of every cookie the API sets for a browser (the session, the sign-up, the known
 * device): `HttpOnly` (no script reads it), `SameSite=Lax`, `Secure` in production, never signed
 * (each holds a random secret whose hash the API keeps). TLS ends at the gateway in a deployment
 * (docs/deploy.md), so the connection Koa sees may be plain HTTP: the context is marked secure,
 * else Koa would refuse to send a `Secure` cookie over what it thinks is an unencrypted request.
 */
export function browserCookie(
  ctx: CookieContext,
  config: Pick<Config, 'env'>,
  path: string,
  maxAge: number,
) {
  const secure = isProduction(config);
  if (secure) ctx.cookies.secure = true;
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure,
    path,
    maxAge,
    overwrite: true,
    signed: false,
  };
}
