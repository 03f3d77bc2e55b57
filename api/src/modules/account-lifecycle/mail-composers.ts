import type { AppContext } from '../../context';
import type { MailComposer } from '../../platform/mail-queue';
import { composePasswordReset, PASSWORD_RESET_MAIL } from './passwords';
import { composeVerificationResend, VERIFICATION_RESEND_MAIL } from './resend-verification';

/**
 * The mails this module asks the mail queue for by kind (`ctx.mailer.request`), written when the
 * worker sends them: the request path never looks the address up.
 */
export function accountMailComposers(ctx: AppContext): Record<string, MailComposer> {
  return {
    [PASSWORD_RESET_MAIL]: (to) => composePasswordReset(ctx, to),
    [VERIFICATION_RESEND_MAIL]: (to) => composeVerificationResend(ctx, to),
  };
}
