import { trusted } from 'mongoose';
import type {
  AccountApplicationRequest,
  AccountApplicationResponse,
  ApplicationStatus,
} from '@campus/contracts';
import type { DomainEvent } from '../../domain-events';
import { conflict, notFound } from '../../platform/errors';
import type { Transactions } from '../../platform/transactions';
import type { CounterService } from '../counters/service';
import type { NotificationService } from '../notifications/service';
import type { AccountApplicationDoc, AccountApplicationModel } from './model';

export const APPLICATION_NOT_FOUND = 'Application not found';
export const APPLICATION_ALREADY_DECIDED = 'This application has already been decided';

/** Matches an e-mail address written anywhere in free text (the first one is taken). */
const EMAIL_IN_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;

/** The e-mail address in an application's contact information (lowercased), or null. */
export function emailInContactInfo(contactInfo: string): string | null {
  return EMAIL_IN_TEXT.exec(contactInfo)?.[0].toLowerCase() ?? null;
}

export interface AccountApplicationServiceDeps {
  models: { AccountApplication: AccountApplicationModel };
  counters: CounterService;
  notifications: NotificationService;
  writes: Transactions<DomainEvent>;
}

export function createAccountApplicationService({
  models: { AccountApplication },
  counters,
  notifications,
  writes: { transaction, publish },
}: AccountApplicationServiceDeps) {
  const { nextId } = counters;
  const { notify } = notifications;

  /**
   * Stores an application for access and notifies the administrator. The applicant has no account,
   * so the notification has no actor (`actorId: null`) and points at the application instead.
   */
  async function submitApplication(
    input: AccountApplicationRequest,
    adminUserId: number,
  ): Promise<AccountApplicationResponse> {
    const id = await nextId('account_applications');
    const application = await transaction(async () => {
      const created = await AccountApplication.create({ _id: id, ...input });
      publish({ type: 'application.submitted', applicationId: id });
      await notify('account_application', adminUserId, { applicationId: id });
      return created;
    });
    return {
      id: application._id,
      status: 'pending',
      createdAt: application.createdAt.toISOString(),
    };
  }

  /** Who applied, by application id (for the administrator's notifications). */
  async function applicationsById(
    ids: number[],
  ): Promise<Map<number, Pick<AccountApplicationDoc, 'name' | 'contactInfo' | 'message'>>> {
    const found = await AccountApplication.find(
      { _id: trusted({ $in: ids }) },
      { name: 1, contactInfo: 1, message: 1 },
    ).lean();
    return new Map(
      found.map((a) => [a._id, { name: a.name, contactInfo: a.contactInfo, message: a.message }]),
    );
  }

  /** The administrator's queue: one status, newest first, one page, and how many in all. */
  async function listApplications(
    status: ApplicationStatus,
    page: { skip: number; limit: number },
  ): Promise<{ items: AccountApplicationDoc[]; total: number }> {
    const [items, total] = await Promise.all([
      AccountApplication.find({ status })
        .sort({ createdAt: -1, _id: -1 })
        .skip(page.skip)
        .limit(page.limit)
        .lean<AccountApplicationDoc[]>(),
      AccountApplication.countDocuments({ status }),
    ]);
    return { items, total };
  }

  function countApplications(status: ApplicationStatus): Promise<number> {
    return AccountApplication.countDocuments({ status });
  }

  /**
   * Approves or rejects a pending application, once, in the caller's transaction: the status moves
   * only from pending (one conditional update, so two admins' tabs cannot both decide). 404
   * unknown, 409 decided.
   */
  async function decideApplication(
    id: number,
    decision: { status: 'approved' | 'rejected'; adminId: number; reason?: string | null },
  ): Promise<AccountApplicationDoc> {
    const decided = await AccountApplication.findOneAndUpdate(
      { _id: id, status: 'pending' },
      {
        $set: {
          status: decision.status,
          decidedAt: new Date(),
          decidedBy: decision.adminId,
          rejectionReason: decision.reason ?? null,
        },
      },
      { returnDocument: 'after' },
    ).lean<AccountApplicationDoc>();
    if (decided) {
      publish({ type: 'application.decided', applicationId: id, status: decision.status });
      return decided;
    }
    if (await AccountApplication.exists({ _id: id })) throw conflict(APPLICATION_ALREADY_DECIDED);
    throw notFound(APPLICATION_NOT_FOUND);
  }

  return {
    submitApplication,
    applicationsById,
    listApplications,
    countApplications,
    decideApplication,
  };
}

export type AccountApplicationService = ReturnType<typeof createAccountApplicationService>;
