import bcrypt from 'bcrypt';
import type { ChangePasswordRequest, ResetPasswordRequest } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import type { Mail } from '../../platform/mailer';
import { badRequest, notFound } from '../../platform/errors';
import {
  findByEmail,
  findPasswordHash,
  resetPasswordByToken,
  resetTokenUsable,
  revokeSessions,
  setPasswordResetToken,
  storeNewPassword,
} from '../users/accounts';
import { passwordResetEmail } from './emails';
import { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from './link-tokens';

/** The same answer whether or not the address has an account: nobody can probe who is a member. */
export const RESET_LINK_SENT =
  'If an account exists for that address, we have sent it a link to reset the password. The link works once, within 1 hour.';

export const PASSWORD_RESET = 'Your password has been reset. You can now sign in.';

export const INVALID_RESET_LINK =
  'This reset link is invalid, has expired or has already been used. Please request a new one.';

export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';

export const WRONG_PASSWORD = 'Password is incorrect';

/** A reset link works for an hour. */
export const RESET_TOKEN_TTL_MS = 60 * 60_000;

/** The mail queue's kind of the reset mail (mail-composers.ts). */
export const PASSWORD_RESET_MAIL = 'password-reset';

/**
 * Queues a reset mail for the address, whether or not an account has it: the mail queue's worker
 * finds the account (composePasswordReset), so the request does the same work, in the same time,
 * for any address, and the route says the same thing either way.
 */
export async function requestPasswordReset(ctx: AppContext, email: string) {
  await ctx.mailer.request(PASSWORD_RESET_MAIL, email);
}

/**
 * The reset mail for the account with this address, with a new link (a newer one replaces the
 * older token); null when no account has it. Called by the mail queue's worker when it sends.
 */
export async function composePasswordReset(ctx: AppContext, email: string): Promise<Mail | null> {
  const user = await findByEmail(ctx, email);
  if (!user) return null;
  const { token, hash } = newLinkToken();
  const expires = new Date(ctx.clock.now().getTime() + RESET_TOKEN_TTL_MS);
  await setPasswordResetToken(ctx, user._id, hash, expires);
  return passwordResetEmail(user.name, user.email, `${ctx.config.webUrl}/reset-password/${token}`);
}

/**
 * Whether a reset link can still set a password (issue 41: a used or expired link says so
 * instead of showing the form). It tells nothing a request to reset with it would not.
 */
export async function resetLinkStatus(ctx: AppContext, token: string) {
  const valid =
    LINK_TOKEN_PATTERN.test(token) &&
    (await resetTokenUsable(ctx, hashLinkToken(token), ctx.clock.now()));
  return valid ? { valid } : { valid, message: INVALID_RESET_LINK };
}

/** Sets the password of the account holding this unexpired token; the token works once. */
export async function resetPassword(ctx: AppContext, input: ResetPasswordRequest) {
  if (!LINK_TOKEN_PATTERN.test(input.token)) throw badRequest(INVALID_RESET_LINK);
  const passwordHash = await bcrypt.hash(input.password, ctx.config.bcryptRounds);
  const done = await resetPasswordByToken(
    ctx,
    hashLinkToken(input.token),
    passwordHash,
    ctx.clock.now(),
  );
  if (!done) throw badRequest(INVALID_RESET_LINK);
}

export async function checkPassword(
  ctx: AppContext,
  userId: number,
  password: string,
  wrong: string,
) {
  const stored = await findPasswordHash(ctx, userId);
  if (stored === null) throw notFound('User not found');
  if (!(await bcrypt.compare(password, stored))) throw badRequest(wrong);
}

/**
 * Changes the caller's password and revokes every older token and session (the route starts a
 * new session for the device that changed it: sessions/routes.ts `signInDevice`).
 */
export async function changePassword(
  ctx: AppContext,
  actor: AuthUser,
  input: ChangePasswordRequest,
): Promise<void> {
  await checkPassword(ctx, actor.id, input.currentPassword, WRONG_CURRENT_PASSWORD);
  const passwordHash = await bcrypt.hash(input.newPassword, ctx.config.bcryptRounds);
  await storeNewPassword(ctx, actor.id, passwordHash, ctx.clock.now());
}

/** Sign out of all devices: every token issued until now stops working. */
export async function signOutEverywhere(ctx: AppContext, actor: AuthUser): Promise<void> {
  await revokeSessions(ctx, actor.id, ctx.clock.now());
}
