import type { AdminMail, AdminPage } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import type { TroubledMail } from '../../platform/mail-queue';
import { recordAudit } from '../audit/audit-log';
import type { Page } from './present';

export const MAIL_NOT_FOUND = 'No failed or waiting e-mail with this id';

/** Who a mail is to, what it is about and why it fails: never its body or links (tokens). */
function toAdminMail(mail: TroubledMail): AdminMail {
  return {
    id: mail.id,
    to: mail.to,
    subject: mail.subject,
    status: mail.status,
    attempts: mail.attempts,
    lastError: mail.lastError,
    nextAttemptAt: mail.nextAttemptAt?.toISOString() ?? null,
    createdAt: mail.createdAt.toISOString(),
  };
}

/** E-mails that failed for good, or failed and wait to be tried again: newest first. */
export async function listTroubledMail(
  ctx: AppContext,
  query: Page,
): Promise<AdminPage<AdminMail>> {
  const { items, total } = await ctx.mailQueue.troubled(query.page, query.pageSize);
  return { items: items.map(toAdminMail), total, page: query.page, pageSize: query.pageSize };
}

/** Tries a failed or waiting e-mail again now, with its attempts counted afresh (audited). */
export async function retryMail(ctx: AppContext, admin: AuthUser, id: number): Promise<AdminMail> {
  const mail = await ctx.transaction(async () => {
    const retried = await ctx.mailQueue.retry(id);
    if (!retried) throw notFound(MAIL_NOT_FOUND);
    await recordAudit(ctx, {
      adminId: admin.id,
      action: 'mail.retry',
      target: { type: 'mail', id },
      details: { to: retried.to, subject: retried.subject },
    });
    return retried;
  });
  return toAdminMail(mail);
}
