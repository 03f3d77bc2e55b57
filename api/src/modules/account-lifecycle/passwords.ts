import bcrypt from 'bcrypt';
import type { ChangePasswordRequest, ResetPasswordRequest } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { badRequest, notFound } from '../../platform/errors';
import {
  findByEmail,
  findPasswordHash,
  resetPasswordByToken,
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

/**
 * Mails a reset link to an existing account; a newer request replaces the older token. Answers
 * nothing either way (the route says the same thing whether or not the account exists).
 */
export async function requestPasswordReset(ctx: AppContext, email: string) {
  const user = await findByEmail(ctx, email);
  if (!user) return;
  const { token, hash } = newLinkToken();
  await setPasswordResetToken(ctx, user._id, hash, new Date(Date.now() + RESET_TOKEN_TTL_MS));
  await ctx.mailer.send(
    passwordResetEmail(user.name, user.email, `${ctx.config.webUrl}/reset-password/${token}`),
  );
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
