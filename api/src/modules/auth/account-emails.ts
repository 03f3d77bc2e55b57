import type { HttpContext } from '../../context';

/** The account e-mails limited per address: each kind's latest link is the one that works. */
export type AccountEmailKind = 'verification' | 'reset';

/**
 * Whether an account e-mail of `kind` may be sent to `email` now: the first `accountEmails` in
 * their window, then at most `accountEmailsCooldown` per its window. The caller answers the
 * request as usual either way, and when it may not send, changes nothing: the link of the latest
 * e-mail sent keeps working. So the address cannot be mail-bombed, and its owner always has a
 * working link at most one cooldown old, whatever anyone else asked for (verification mails come
 * from registrations and from resend-verification, reset mails from forgot-password).
 */
export async function mayMailAccountEmail(
  app: HttpContext,
  kind: AccountEmailKind,
  email: string,
): Promise<boolean> {
  const { accountEmails, accountEmailsCooldown } = app.config.rateLimits;
  const address = email.trim().toLowerCase();
  const atOnce = await app.rateLimits.take(`account-emails-${kind}`, address, accountEmails);
  if (atOnce.allowed) return true;
  const later = app.rateLimits.take(`account-emails-${kind}-later`, address, accountEmailsCooldown);
  return (await later).allowed;
}
