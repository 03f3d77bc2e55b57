import type { z } from 'zod';
import type { AdminSummary, AuditList, auditQuerySchema } from '@campus/contracts';
import type { AppContext } from '../../context';
import { badRequest } from '../../platform/errors';
import { dayStartIn } from '../../platform/time';
import { countApplications } from '../account-applications/queries';
import { countPendingAppeals } from '../appeals/appeals';
import { auditAdminIds, listAuditEntries } from '../audit/audit-log';
import { countFeedback } from '../feedback/queries';
import { countOpenCases } from '../reports/reports';
import { accountRefs } from '../users/admin-accounts';
import { memberRef, window, type Page } from './present';

export async function summary(ctx: AppContext): Promise<AdminSummary> {
  const [pendingApplications, openReports, pendingAppeals, pendingFeedback] = await Promise.all([
    countApplications(ctx, 'pending'),
    countOpenCases(ctx),
    countPendingAppeals(ctx),
    countFeedback(ctx, 'pending'),
  ]);
  return { pendingApplications, openReports, pendingAppeals, pendingFeedback };
}

/**
 * A page of the audit log, filtered (issue 41: by action, administrator and days, read in the
 * app's time zone, `until` inclusive), with everyone who acted in it for the filter's choices.
 */
export async function listAudit(
  ctx: AppContext,
  query: Page & Omit<z.output<typeof auditQuerySchema>, 'page' | 'pageSize'>,
): Promise<AuditList> {
  const { timezone } = ctx.config;
  if (query.since && query.until && query.since > query.until)
    throw badRequest('since must not be after until');
  const filter = {
    action: query.action,
    adminId: query.adminId,
    since: query.since ? dayStartIn(timezone, query.since) : undefined,
    until: query.until ? dayStartIn(timezone, query.until, 1) : undefined,
  };
  const [{ items, total }, adminIds] = await Promise.all([
    listAuditEntries(ctx, filter, window(query)),
    auditAdminIds(ctx),
  ]);
  const admins = await accountRefs(ctx, [...adminIds, ...items.map((e) => e.adminId)]);
  return {
    items: items.map((e) => ({
      id: e._id,
      createdAt: e.createdAt.toISOString(),
      admin: memberRef(ctx, admins.get(e.adminId), ctx.config.publicUrl),
      action: e.action,
      target: { type: e.targetType, id: e.targetId },
      details: e.details,
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
    // Accounts since deleted are left out: there is nobody left to name.
    admins: adminIds.flatMap((id) => {
      const ref = memberRef(ctx, admins.get(id), ctx.config.publicUrl);
      return ref ? [ref] : [];
    }),
  };
}
