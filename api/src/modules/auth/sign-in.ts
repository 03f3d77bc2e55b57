import { randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import {
  ACCOUNT_SUSPENDED_MESSAGE,
  type AuthMeResponse,
  type LoginRequest,
  type LoginResponse,
} from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { forbidden, HttpError, unauthorized } from '../../platform/errors';
import { suspensionNotice } from '../appeals/appeals';
import { findAccountById, findByEmail, recordFirstSignIn } from '../users/accounts';
import { toPublicUser } from '../users/presenters';
import { findPublicUser } from '../users/queries';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const EMAIL_NOT_VERIFIED =
  'Please verify your email before logging in. Check your inbox for the verification link.';

// Compared against when the e-mail is unknown, so both failures take the same time: the dummy
// hash has the same cost as real ones.
const dummyHashes = new Map<number, Promise<string>>();

function dummyHash(rounds: number): Promise<string> {
  let hash = dummyHashes.get(rounds);
  if (!hash) {
    hash = bcrypt.hash(randomBytes(16).toString('hex'), rounds);
    dummyHashes.set(rounds, hash);
  }
  return hash;
}

export async function login(ctx: AppContext, input: LoginRequest): Promise<LoginResponse> {
  const user = await findByEmail(ctx, input.email);
  const passwordMatches = await bcrypt.compare(
    input.password,
    user?.password ?? (await dummyHash(ctx.config.bcryptRounds)),
  );
  if (!user || !passwordMatches) throw unauthorized(INVALID_CREDENTIALS);
  if (!user.isVerified) throw forbidden(EMAIL_NOT_VERIFIED);
  if (user.suspendedAt) {
    // The spec's message, and (issue 38) the reason and how to appeal: only with the password.
    const suspension = await suspensionNotice(ctx, {
      id: user._id,
      suspendedAt: user.suspendedAt,
      reason: user.suspensionReason ?? null,
      category: user.suspensionCategory ?? null,
    });
    throw new HttpError(403, ACCOUNT_SUSPENDED_MESSAGE, {}, undefined, { suspension });
  }
  return signedIn(ctx, user);
}

/**
 * The answer of a successful sign-in: the member and a token, and `firstSignIn: true` for the one
 * sign-in that first records the account's `firstSignedInAt` (issue 41: the client's first run).
 */
async function signedIn(
  ctx: AppContext,
  user: NonNullable<Awaited<ReturnType<typeof findAccountById>>>,
): Promise<LoginResponse> {
  const first = !user.firstSignedInAt && (await recordFirstSignIn(ctx, user._id));
  return {
    user: toPublicUser(user, ctx.config.publicUrl),
    token: ctx.tokens.sign(user._id),
    ...(first ? { firstSignIn: true as const } : {}),
  };
}

/**
 * The sign-in a verification link gives the browser that registered (issue 41): that browser typed
 * the password and the link proves the mailbox, so the member is not asked for them again. Null
 * when the account cannot sign in (gone, not verified, suspended): the member signs in as usual.
 */
export async function signInVerifiedAccount(
  ctx: AppContext,
  id: number,
): Promise<LoginResponse | null> {
  const user = await findAccountById(ctx, id);
  if (!user || !user.isVerified || user.suspendedAt) return null;
  return signedIn(ctx, user);
}

/** `GET /api/auth/me`: the caller's public fields and the roles decided when they were authenticated. */
export async function me(ctx: AppContext, caller: AuthUser): Promise<AuthMeResponse> {
  return {
    user: toPublicUser(await findPublicUser(ctx, caller.id), ctx.config.publicUrl),
    roles: [...caller.roles],
  };
}
