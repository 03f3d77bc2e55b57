/** The audit log: every administrator action, newest first. */
import type { AuditAction, AuditTargetType } from '@campus/contracts';
import type { AppContext } from '../../context';
import { auditLogOf, type AuditDetails, type AuditEntryDoc } from './model';

/**
 * Writes one entry. Called inside the action's transaction when it has one, so an action and its
 * entry are committed together.
 */
export async function recordAudit(
  ctx: AppContext,
  entry: {
    adminId: number;
    action: AuditAction;
    target: { type: AuditTargetType; id: number };
    details?: AuditDetails;
  },
): Promise<void> {
  await auditLogOf(ctx).create({
    _id: await ctx.ids.nextId('audit_log'),
    adminId: entry.adminId,
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id,
    details: entry.details ?? {},
  });
}

export async function listAuditEntries(
  ctx: AppContext,
  page: { skip: number; limit: number },
): Promise<{ items: AuditEntryDoc[]; total: number }> {
  const AuditEntry = auditLogOf(ctx);
  const [items, total] = await Promise.all([
    AuditEntry.find({})
      .sort({ createdAt: -1, _id: -1 })
      .skip(page.skip)
      .limit(page.limit)
      .lean<AuditEntryDoc[]>(),
    AuditEntry.countDocuments({}),
  ]);
  return { items, total };
}
