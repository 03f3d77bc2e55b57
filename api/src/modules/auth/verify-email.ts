/**
 * E-mail verification (spec: `/verify/:token`; issue 35). A verification link proves the mailbox,
 * not the password typed at registration, which anyone could have typed for someone else's
 * address. So the link keeps that password only when opened in the browser that registered (its
 * sign-up cookie); anywhere else its holder chooses the password, and the registration password
 * is discarded. A link works once.
 */
import bcrypt from 'bcrypt';
import type { AppContext } from '../../context';
import {
  verificationPending,
  verifyWithChosenPassword,
  verifyWithSignUpPassword,
} from '../users/accounts';
import { hashVerificationToken } from './register';

export const INVALID_VERIFICATION_LINK =
  'This verification link is invalid or has already been used.';
export const EMAIL_VERIFIED = 'Email verified successfully! You can now log in.';
export const CHOOSE_PASSWORD_TO_VERIFY = 'Choose a password to finish verifying your email.';

/** Link tokens are 32 random bytes in base64url; anything far from that is not looked up. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * What opening a link did: verified (whose account), a password to choose first, or a link that
 * does nothing.
 */
export type LinkOpened = { verified: number } | 'password-required' | 'invalid';

/**
 * `GET /api/auth/verify/:token`. `signUpSecretHash`: the hash of the request's sign-up cookie
 * (null without one). Only a link opened with its own sign-up's cookie verifies here; any other
 * valid link stays valid and asks for a password.
 */
export async function openVerificationLink(
  ctx: AppContext,
  token: string,
  signUpSecretHash: string | null,
): Promise<LinkOpened> {
  if (!TOKEN_PATTERN.test(token)) return 'invalid';
  const tokenHash = hashVerificationToken(token);
  if (signUpSecretHash) {
    const verified = await verifyWithSignUpPassword(ctx, tokenHash, signUpSecretHash);
    if (verified !== null) return { verified };
  }
  return (await verificationPending(ctx, tokenHash)) ? 'password-required' : 'invalid';
}

/**
 * `POST /api/auth/verify/:token`: verifies the address with the password its opener chose now.
 * False when the link is unknown, used or replaced.
 */
export async function verifyWithPassword(
  ctx: AppContext,
  token: string,
  password: string,
): Promise<boolean> {
  if (!TOKEN_PATTERN.test(token)) return false;
  const tokenHash = hashVerificationToken(token);
  // Hashing costs a bcrypt round: only for a link that can still be used.
  if (!(await verificationPending(ctx, tokenHash))) return false;
  const passwordHash = await bcrypt.hash(password, ctx.config.bcryptRounds);
  return verifyWithChosenPassword(ctx, tokenHash, passwordHash);
}
