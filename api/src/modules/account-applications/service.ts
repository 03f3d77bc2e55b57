import { trusted } from 'mongoose';
import type { AccountApplicationRequest, AccountApplicationResponse } from '@campus/contracts';
import type { CounterService } from '../counters/service';
import type { NotificationService } from '../notifications/service';
import type { AccountApplicationDoc, AccountApplicationModel } from './model';

export interface AccountApplicationServiceDeps {
  models: { AccountApplication: AccountApplicationModel };
  counters: CounterService;
  notifications: NotificationService;
}

export function createAccountApplicationService({
  models: { AccountApplication },
  counters,
  notifications,
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
    const application = await AccountApplication.create({
      _id: await nextId('account_applications'),
      ...input,
    });
    await notify('account_application', adminUserId, { applicationId: application._id });
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

  return { submitApplication, applicationsById };
}

export type AccountApplicationService = ReturnType<typeof createAccountApplicationService>;
