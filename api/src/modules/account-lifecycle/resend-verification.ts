import type { AppContext } from '../../context';
import { verificationEmail } from '../auth/emails';
import { renewVerificationToken, UNVERIFIED_ACCOUNT_TTL_MS } from '../users/accounts';
import { newLinkToken } from './link-tokens';

export const VERIFICATION_LINK_SENT =
  'If that address has an account waiting for verification, we have sent it a new link.';

/** A new verification link for an unverified account (the old one stops working). */
export async function resendVerification(ctx: AppContext, email: string) {
  const { token, hash } = newLinkToken();
  const user = await renewVerificationToken(
    ctx,
    email,
    hash,
    new Date(Date.now() + UNVERIFIED_ACCOUNT_TTL_MS),
  );
  if (!user) return;
  await ctx.mailer.send(
    verificationEmail(user.name, user.email, `${ctx.config.webUrl}/verify/${token}`),
  );
}
