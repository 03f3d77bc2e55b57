import {
  INVITATION_TTL_DAYS,
  type AdminApplication,
  type AdminPage,
  type ApplicationStatus,
  type ApproveApplicationResponse,
  type RejectApplicationResponse,
} from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import type { Mailer } from '../../platform/mailer';
import { decideApplication, emailInContactInfo } from '../account-applications/applications';
import { listApplications as applicationsOfStatus } from '../account-applications/queries';
import { recordAudit } from '../audit/audit-log';
import { createInvitation } from '../invitations/invitations';
import { invitationEmail, rejectionEmail } from './emails';
import { toAdminApplication, window, type Page } from './present';

export async function listApplications(
  ctx: AppContext,
  query: Page & { status: ApplicationStatus },
): Promise<AdminPage<AdminApplication>> {
  const { items, total } = await applicationsOfStatus(ctx, query.status, window(query));
  return {
    items: items.map(toAdminApplication),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * Approves a pending application: an invitation (random token, 14 days, single use) made in the
 * same transaction, then e-mailed when the contact information holds an address. The link is
 * answered either way, so the administrator can also send it another way.
 */
export async function approveApplication(
  ctx: AppContext,
  admin: AuthUser,
  id: number,
): Promise<ApproveApplicationResponse> {
  const { application, token, expiresAt } = await ctx.transaction(async () => {
    const decided = await decideApplication(ctx, id, {
      status: 'approved',
      adminId: admin.id,
    });
    const email = emailInContactInfo(decided.contactInfo);
    const invitation = await createInvitation(ctx, {
      applicationId: decided._id,
      name: decided.name,
      email,
    });
    await recordAudit(ctx, {
      adminId: admin.id,
      action: 'application.approve',
      target: { type: 'application', id },
      details: { name: decided.name, email },
    });
    return { application: decided, ...invitation };
  });
  const invitationUrl = `${ctx.config.webUrl}/register?invitation=${token}`;
  const email = emailInContactInfo(application.contactInfo);
  const emailed = email
    ? await send(ctx, invitationEmail(application.name, email, invitationUrl, INVITATION_TTL_DAYS))
    : false;
  return {
    invitationUrl,
    expiresAt: expiresAt.toISOString(),
    emailed,
    application: toAdminApplication(application),
  };
}

export async function rejectApplication(
  ctx: AppContext,
  admin: AuthUser,
  id: number,
  reason: string | undefined,
): Promise<RejectApplicationResponse> {
  const given = reason ? reason : null;
  const application = await ctx.transaction(async () => {
    const decided = await decideApplication(ctx, id, {
      status: 'rejected',
      adminId: admin.id,
      reason: given,
    });
    await recordAudit(ctx, {
      adminId: admin.id,
      action: 'application.reject',
      target: { type: 'application', id },
      details: { name: decided.name, reason: given },
    });
    return decided;
  });
  const email = emailInContactInfo(application.contactInfo);
  const emailed = email ? await send(ctx, rejectionEmail(application.name, email, given)) : false;
  return { emailed, application: toAdminApplication(application) };
}

/**
 * Whether the e-mail was queued (the mail queue sends it, and shows the admin a mail that keeps
 * failing); the decision stands either way (answered as `emailed`).
 */
async function send(ctx: AppContext, mail: Parameters<Mailer['send']>[0]) {
  try {
    await ctx.mailer.send(mail);
    return true;
  } catch {
    return false;
  }
}
