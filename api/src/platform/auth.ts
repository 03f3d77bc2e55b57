import { createHash, createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Middleware, ParameterizedContext } from 'koa';
import {
  ACCESS_COOKIE,
  ACCOUNT_SUSPENDED_MESSAGE,
  SESSION_KEY_RETIRED_MESSAGE,
  SESSION_REVOKED_MESSAGE,
  type Role,
} from '@campus/contracts';
import { unauthorized } from './errors';
import { ReadCache, type CacheCounts } from './read-cache';

/** The signed-in caller, as routes see it in `ctx.state.user`. */
export interface AuthUser {
  id: number;
  name: string;
  email: string;
  /** Decided once, when the caller is authenticated (users/policy.ts `rolesOf`). */
  roles: readonly Role[];
  /**
   * Epoch ms before which the account's tokens are refused (its last password change, reset or
   * "sign out of all devices"); 0 or absent: none is.
   */
  sessionsValidAfter?: number;
  /** The administrator suspended the account: every token of it is refused (401). */
  suspended?: boolean;
}

export interface AppState {
  user?: AuthUser;
  credentials?: Credentials;
  /** The route answered outside the routers (`/uploads/:name`, `/readyz`), for metrics and logs. */
  route?: string;
  /** A health check or a metrics scrape: its request line is logged at debug level. */
  probe?: boolean;
}

const ALGORITHM = 'HS256';

export interface TokenOptions {
  /** Signs every new token (JWT_SECRET). */
  secret: string;
  /**
   * Keys that still verify the tokens they signed, none signs (JWT_PREVIOUS_SECRETS): a rotation
   * signs nobody out (docs/deploy.md, "Rotating the signing key").
   */
  previousSecrets?: readonly string[];
  issuer: string;
  /** The lifetime of a token signed without one of its own (the bearer tokens of sign-in). */
  expiresIn: string;
  /** The app's verified-token cache (`read-caches.ts`); none: every token is checked each time. */
  verified?: VerifiedTokens;
}

/** What a valid token says: whose it is and when it was issued (epoch ms). */
export interface TokenClaims {
  userId: number;
  issuedAt: number;
  /** The session the token belongs to (modules/sessions); none: a token of no session. */
  sessionId?: string;
  /** Epoch ms when the token expires. */
  expiresAt?: number;
}

export interface SignOptions {
  /** The session the token belongs to: ending the session ends the token. */
  sessionId?: string;
  /** Its lifetime (default: the service's `expiresIn`). */
  expiresIn?: string;
}

export interface TokenService {
  sign(userId: number, options?: SignOptions): string;
  /** The user id of a valid token; throws 401 for anything else. */
  verify(token: string): number;
  /** The claims of a valid token; throws 401 for anything else. */
  verifyClaims(token: string): TokenClaims;
  /** The id (`kid`) of the key that signs: rotation tells sessions signed under it (sessions). */
  readonly signingKeyId: string;
  /** Whether a key of that id still verifies. */
  hasKey(keyId: string): boolean;
}

/**
 * The issue time in milliseconds, as a private claim: `iat` has whole seconds, and a session
 * revoked in the same second as a login must still tell the two apart.
 */
const ISSUED_AT_MS_CLAIM = 'iat_ms';
/** The session id, as a private claim. */
const SESSION_CLAIM = 'sid';

const MAX_VERIFIED_TOKENS = 10_000;

/**
 * Tokens whose signature one app has checked, each until it expires: checking it again on every
 * request (an HMAC and two base64/JSON decodes) was ~8 % of a cached feed request's CPU.
 */
export class VerifiedTokens {
  private readonly tokens = new ReadCache<string, TokenClaims>(
    Number.MAX_SAFE_INTEGER,
    MAX_VERIFIED_TOKENS,
  );

  /** Lookups of checked tokens (the metrics' hit ratios). */
  get counts(): CacheCounts {
    return this.tokens.counts;
  }

  /**
   * The claims of a token checked before and not expired since. Only the signature check is
   * cached: whether the account still accepts the token (revocation) is asked on every request.
   */
  get(token: string): TokenClaims | undefined {
    return this.tokens.get(token);
  }

  remember(token: string, claims: TokenClaims, expiresAt: number): void {
    this.tokens.set(token, claims, this.tokens.mark(), expiresAt - Date.now());
  }

  clear(): void {
    this.tokens.clear();
  }
}

/** A key's id in the ring: the first 8 hex digits of the SHA-256 of the key (not the key). */
export function keyId(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 8);
}

export function createTokenService({
  secret,
  previousSecrets = [],
  issuer,
  expiresIn,
  verified,
}: TokenOptions): TokenService {
  // Key objects made once: given a string, jsonwebtoken first tries to parse it as a PEM public
  // key on every verification (and fails, expensively), the largest cost of a feed request.
  const ring = new Map<string, KeyObject>();
  for (const value of [secret, ...previousSecrets]) {
    if (!ring.has(keyId(value))) ring.set(keyId(value), createSecretKey(Buffer.from(value)));
  }
  const signingKeyId = keyId(secret);
  const signingKey = ring.get(signingKeyId)!;

  /** The payload of a token signed by a key of the ring; throws 401 for anything else. */
  function checkSignature(token: string): jwt.JwtPayload | string {
    const header = jwt.decode(token, { complete: true })?.header;
    if (!header) throw unauthorized('Invalid token');
    const options = { algorithms: [ALGORITHM] as jwt.Algorithm[], issuer };
    if (typeof header.kid === 'string') {
      const key = ring.get(header.kid);
      // A well-formed token of a key taken out of the ring: its session ended with the key.
      if (!key) throw unauthorized(SESSION_KEY_RETIRED_MESSAGE);
      try {
        return jwt.verify(token, key, options);
      } catch {
        throw unauthorized('Invalid or expired token');
      }
    }
    // Signed before keys had ids: any key of the ring may have signed it.
    for (const key of ring.values()) {
      try {
        return jwt.verify(token, key, options);
      } catch (err) {
        if (err instanceof jwt.TokenExpiredError) break;
      }
    }
    throw unauthorized('Invalid or expired token');
  }

  function verifyClaims(token: string): TokenClaims {
    const known = verified?.get(token);
    if (known !== undefined) return known;
    const payload = checkSignature(token);
    if (typeof payload !== 'object') throw unauthorized('Invalid token');
    const subject = payload.sub;
    if (!subject || !/^[1-9][0-9]{0,15}$/.test(subject)) throw unauthorized('Invalid token');
    const issuedAtMs: unknown = payload[ISSUED_AT_MS_CLAIM];
    const sessionId: unknown = payload[SESSION_CLAIM];
    const claims: TokenClaims = {
      userId: Number(subject),
      // Tokens signed before the claim existed fall back to `iat` (whole seconds).
      issuedAt:
        typeof issuedAtMs === 'number' && Number.isSafeInteger(issuedAtMs)
          ? issuedAtMs
          : (payload.iat ?? 0) * 1000,
    };
    if (typeof sessionId === 'string') claims.sessionId = sessionId;
    if (payload.exp !== undefined) {
      claims.expiresAt = payload.exp * 1000;
      verified?.remember(token, claims, claims.expiresAt);
    }
    return claims;
  }
  return {
    sign(userId, options = {}) {
      const payload: Record<string, unknown> = { [ISSUED_AT_MS_CLAIM]: Date.now() };
      if (options.sessionId) payload[SESSION_CLAIM] = options.sessionId;
      return jwt.sign(payload, signingKey, {
        algorithm: ALGORITHM,
        keyid: signingKeyId,
        subject: String(userId),
        issuer,
        expiresIn: (options.expiresIn ?? expiresIn) as jwt.SignOptions['expiresIn'],
      });
    },
    verify: (token) => verifyClaims(token).userId,
    verifyClaims,
    signingKeyId,
    hasKey: (id) => ring.has(id),
  };
}

/** How a request was authenticated (`requireAuth`), for the routes that care. */
export interface Credentials {
  /**
   * `cookie`: a browser's session cookie (CSRF-checked on writes, platform/csrf.ts); `bearer`:
   * an `Authorization: Bearer` token (tools, tests, other clients).
   */
  via: 'cookie' | 'bearer';
  claims: TokenClaims;
}

export interface AuthDeps {
  tokens: TokenService;
  /** The account behind a token id, or undefined when it no longer exists or may not sign in. */
  loadUser(id: number): Promise<AuthUser | undefined>;
  /**
   * Why the session a token belongs to no longer opens anything (the 401's message), or
   * undefined while it is open (modules/sessions).
   */
  sessionEnded?(sessionId: string, userId: number): Promise<string | undefined>;
  /**
   * Refuses (403) a write authenticated by the session cookie that does not come from our pages
   * (platform/csrf.ts); never asked for a bearer-authenticated request.
   */
  checkCookieWrite?(ctx: Pick<ParameterizedContext, 'method' | 'get'>): void;
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([A-Za-z0-9\-_.]+)$/.exec(header ?? '');
  return match?.[1];
}

const TOKEN_FORM = /^[A-Za-z0-9\-_.]{1,4096}$/;

/**
 * The credentials a request carries: `Authorization: Bearer` when present (it wins), else the
 * browser's access cookie (ACCESS_COOKIE). Undefined when it carries neither.
 */
export function requestToken(ctx: {
  get(field: string): string;
  cookies: { get(name: string): string | undefined };
}): { token: string; via: Credentials['via'] } | undefined {
  const bearer = bearerToken(ctx.get('Authorization'));
  if (bearer) return { token: bearer, via: 'bearer' };
  const cookie = ctx.cookies.get(ACCESS_COOKIE);
  if (cookie && TOKEN_FORM.test(cookie)) return { token: cookie, via: 'cookie' };
  return undefined;
}

/**
 * Requires a valid token of an existing account, from `Authorization: Bearer <jwt>` or the
 * browser's access cookie; sets `ctx.state.user` and `ctx.state.credentials`.
 */
export function requireAuth({
  tokens,
  loadUser,
  sessionEnded,
  checkCookieWrite,
}: AuthDeps): Middleware<AppState> {
  return async (ctx, next) => {
    const found = requestToken(ctx);
    if (!found) throw unauthorized();
    // CSRF: only a cookie is sent by the browser on its own, so only a cookie's writes are checked.
    if (found.via === 'cookie') checkCookieWrite?.(ctx);
    const claims = tokens.verifyClaims(found.token);
    const { userId, issuedAt, sessionId } = claims;
    const user = await loadUser(userId);
    if (!user) throw unauthorized('Invalid or expired token');
    if (user.suspended) throw unauthorized(ACCOUNT_SUSPENDED_MESSAGE);
    // Issued before the member's last password change or "sign out of all devices".
    if (issuedAt < (user.sessionsValidAfter ?? 0)) throw unauthorized(SESSION_REVOKED_MESSAGE);
    // The member signed this session out (here or from another device), or it was ended.
    const ended = sessionId && sessionEnded ? await sessionEnded(sessionId, userId) : undefined;
    if (ended) throw unauthorized(ended);
    ctx.state.user = user;
    ctx.state.credentials = { via: found.via, claims };
    return next();
  };
}

/** The signed-in user of a route behind `requireAuth`. */
export function currentUser(state: AppState): AuthUser {
  if (!state.user) throw unauthorized();
  return state.user;
}
