import type { AdminPage, AdminSummary, AuditEntry } from '@campus/contracts';
import type { AppContext } from '../../context';
import { countApplications } from '../account-applications/queries';
import { countPendingAppeals } from '../appeals/appeals';
import { listAuditEntries } from '../audit/audit-log';
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

export async function listAudit(ctx: AppContext, query: Page): Promise<AdminPage<AuditEntry>> {
  const { items, total } = await listAuditEntries(ctx, window(query));
  const admins = await accountRefs(
    ctx,
    items.map((e) => e.adminId),
  );
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
  };
}
