/** The audit log: every administrator action, newest first. */
import { trusted } from 'mongoose';
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

/** Which entries a list keeps (issue 41); each absent field keeps every entry. */
export interface AuditFilter {
  action?: AuditAction;
  adminId?: number;
  /** From this instant on (inclusive), before `until` (exclusive). */
  since?: Date;
  until?: Date;
}

function auditQuery(filter: AuditFilter): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  if (filter.action) query.action = filter.action;
  if (filter.adminId !== undefined) query.adminId = filter.adminId;
  if (filter.since || filter.until) {
    query.createdAt = trusted({
      ...(filter.since ? { $gte: filter.since } : {}),
      ...(filter.until ? { $lt: filter.until } : {}),
    });
  }
  return query;
}

export async function listAuditEntries(
  ctx: AppContext,
  filter: AuditFilter,
  page: { skip: number; limit: number },
): Promise<{ items: AuditEntryDoc[]; total: number }> {
  const AuditEntry = auditLogOf(ctx);
  const query = auditQuery(filter);
  const [items, total] = await Promise.all([
    AuditEntry.find(query)
      .sort({ createdAt: -1, _id: -1 })
      .skip(page.skip)
      .limit(page.limit)
      .lean<AuditEntryDoc[]>(),
    AuditEntry.countDocuments(query),
  ]);
  return { items, total };
}

/** The ids of everyone who has acted in the log, whatever the filter (its choices). */
export async function auditAdminIds(ctx: AppContext): Promise<number[]> {
  const ids = await auditLogOf(ctx).distinct('adminId');
  return (ids as number[]).sort((a, b) => a - b);
}
