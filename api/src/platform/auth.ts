import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Middleware } from 'koa';
import { ACCOUNT_SUSPENDED_MESSAGE, SESSION_REVOKED_MESSAGE, type Role } from '@campus/contracts';
import { unauthorized } from './errors';
import { ReadCache } from './read-cache';

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
}

const ALGORITHM = 'HS256';

export interface TokenOptions {
  secret: string;
  issuer: string;
  expiresIn: string;
  /** The app's verified-token cache (`read-caches.ts`); none: every token is checked each time. */
  verified?: VerifiedTokens;
}

/** What a valid token says: whose it is and when it was issued (epoch ms). */
export interface TokenClaims {
  userId: number;
  issuedAt: number;
}

export interface TokenService {
  sign(userId: number): string;
  /** The user id of a valid token; throws 401 for anything else. */
  verify(token: string): number;
  /** The user id and issue time of a valid token; throws 401 for anything else. */
  verifyClaims(token: string): TokenClaims;
}

/**
 * The issue time in milliseconds, as a private claim: `iat` has whole seconds, and a session
 * revoked in the same second as a login must still tell the two apart.
 */
const ISSUED_AT_MS_CLAIM = 'iat_ms';

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

export function createTokenService({
  secret,
  issuer,
  expiresIn,
  verified,
}: TokenOptions): TokenService {
  // A key object made once: given a string, jsonwebtoken first tries to parse it as a PEM public
  // key on every verification (and fails, expensively), the largest cost of a feed request.
  const key = createSecretKey(Buffer.from(secret));
  function verifyClaims(token: string): TokenClaims {
    const known = verified?.get(token);
    if (known !== undefined) return known;
    let payload: string | jwt.JwtPayload;
    try {
      payload = jwt.verify(token, key, { algorithms: [ALGORITHM], issuer });
    } catch {
      throw unauthorized('Invalid or expired token');
    }
    if (typeof payload !== 'object') throw unauthorized('Invalid token');
    const subject = payload.sub;
    if (!subject || !/^[1-9][0-9]{0,15}$/.test(subject)) throw unauthorized('Invalid token');
    const issuedAtMs: unknown = payload[ISSUED_AT_MS_CLAIM];
    const claims = {
      userId: Number(subject),
      // Tokens signed before the claim existed fall back to `iat` (whole seconds).
      issuedAt:
        typeof issuedAtMs === 'number' && Number.isSafeInteger(issuedAtMs)
          ? issuedAtMs
          : (payload.iat ?? 0) * 1000,
    };
    if (payload.exp !== undefined) verified?.remember(token, claims, payload.exp * 1000);
    return claims;
  }
  return {
    sign(userId) {
      return jwt.sign({ [ISSUED_AT_MS_CLAIM]: Date.now() }, key, {
        algorithm: ALGORITHM,
        subject: String(userId),
        issuer,
        expiresIn: expiresIn as jwt.SignOptions['expiresIn'],
      });
    },
    verify: (token) => verifyClaims(token).userId,
    verifyClaims,
  };
}

/** JWT_SECRET from the environment, else one generated on first start and kept under DATA_DIR. */
export interface AuthDeps {
  tokens: TokenService;
  /** The account behind a token id, or undefined when it no longer exists or may not sign in. */
  loadUser(id: number): Promise<AuthUser | undefined>;
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([A-Za-z0-9\-_.]+)$/.exec(header ?? '');
  return match?.[1];
}

/** Requires `Authorization: Bearer <jwt>` of an existing account; sets `ctx.state.user`. */
export function requireAuth({ tokens, loadUser }: AuthDeps): Middleware<AppState> {
  return async (ctx, next) => {
    const token = bearerToken(ctx.get('Authorization'));
    if (!token) throw unauthorized();
    const { userId, issuedAt } = tokens.verifyClaims(token);
    const user = await loadUser(userId);
    if (!user) throw unauthorized('Invalid or expired token');
    if (user.suspended) throw unauthorized(ACCOUNT_SUSPENDED_MESSAGE);
    // Issued before the member's last password change or "sign out of all devices".
    if (issuedAt < (user.sessionsValidAfter ?? 0)) throw unauthorized(SESSION_REVOKED_MESSAGE);
    ctx.state.user = user;
    return next();
  };
}

/** The signed-in user of a route behind `requireAuth`. */
export function currentUser(state: AppState): AuthUser {
  if (!state.user) throw unauthorized();
  return state.user;
}
