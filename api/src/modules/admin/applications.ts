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
import { createInvitation, recordEmailed } from '../invitations/invitations';
import { invitationEmail, rejectionEmail } from './emails';
import { toAdminApplication, window, type Page } from './present';

export async function listApplications(
  ctx: AppContext,
  query: Page & { status: ApplicationStatus },
): Promise<AdminPage<AdminApplication>> {
  const { items, total } = await applicationsOfStatus(ctx, query.status, window(query));
  return {
    items: items.map((item) => toAdminApplication(item)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * Approves a pending application: an invitation (14 days, single use) made in the same
 * transaction. Its mailed link goes to the address found in the contact information, if any: the
 * only link that registers that address verified at once, and only once the mail went out. The
 * answer carries the other link, for the administrator to hand over another way; an account
 * made with it verifies its e-mail by mail (issue 35: the address in free text may be anyone's).
 */
export async function approveApplication(
  ctx: AppContext,
  admin: AuthUser,
  id: number,
): Promise<ApproveApplicationResponse> {
  const { application, email, invitation } = await ctx.transaction(async () => {
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
    return { application: decided, email, invitation };
  });
  const linkOf = (token: string) => `${ctx.config.webUrl}/register?invitation=${token}`;
  const emailed = email
    ? await send(
        ctx,
        invitationEmail(application.name, email, linkOf(invitation.mailToken), INVITATION_TTL_DAYS),
      )
    : false;
  if (emailed) await recordEmailed(ctx, invitation.id, ctx.clock.now());
  return {
    invitationUrl: linkOf(invitation.handToken),
    expiresAt: invitation.expiresAt.toISOString(),
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
