import type { AppContext } from '../../context';
import type { Mail } from '../../platform/mailer';
import { verificationEmail } from '../auth/emails';
import { renewVerificationToken, UNVERIFIED_ACCOUNT_TTL_MS } from '../users/accounts';
import { newLinkToken } from './link-tokens';

export const VERIFICATION_LINK_SENT =
  'If that address has an account waiting for verification, we have sent it a new link.';

/** The mail queue's kind of the renewed verification mail (mail-composers.ts). */
export const VERIFICATION_RESEND_MAIL = 'verification-resend';

/**
 * Queues a new verification link for the address, whether or not an unverified account has it:
 * the mail queue's worker finds the account (composeVerificationResend), so the request costs
 * the same for any address.
 */
export async function resendVerification(ctx: AppContext, email: string) {
  await ctx.mailer.request(VERIFICATION_RESEND_MAIL, email);
}

/**
 * A new verification link for the unverified account with this address (the old one stops
 * working); null when there is none. Called by the mail queue's worker when it sends.
 */
export async function composeVerificationResend(
  ctx: AppContext,
  email: string,
): Promise<Mail | null> {
  const { token, hash } = newLinkToken();
  // The database's TTL monitor removes the account at this time: real time, not the app's clock.
  const expiresAt = new Date(Date.now() + UNVERIFIED_ACCOUNT_TTL_MS);
  const user = await renewVerificationToken(ctx, email, hash, expiresAt);
  if (!user) return null;
  return verificationEmail(user.name, user.email, `${ctx.config.webUrl}/verify/${token}`);
}
