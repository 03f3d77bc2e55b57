import type { AuditAction, AuditTargetType } from '@campus/contracts';
import type { CounterService } from '../counters/service';
import type { AuditDetails, AuditEntryDoc, AuditEntryModel } from './model';

export interface AuditServiceDeps {
  models: { AuditEntry: AuditEntryModel };
  counters: CounterService;
}

/** The audit log: every administrator action, newest first. */
export function createAuditService({ models: { AuditEntry }, counters }: AuditServiceDeps) {
  /**
   * Writes one entry. Called inside the action's transaction when it has one, so an action and its
   * entry are committed together.
   */
  async function record(entry: {
    adminId: number;
    action: AuditAction;
    target: { type: AuditTargetType; id: number };
    details?: AuditDetails;
  }): Promise<void> {
    await AuditEntry.create({
      _id: await counters.nextId('audit_log'),
      adminId: entry.adminId,
      action: entry.action,
      targetType: entry.target.type,
      targetId: entry.target.id,
      details: entry.details ?? {},
    });
  }

  async function listEntries(page: {
    skip: number;
    limit: number;
  }): Promise<{ items: AuditEntryDoc[]; total: number }> {
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

  return { record, listEntries };
}

export type AuditService = ReturnType<typeof createAuditService>;
