import { trusted } from 'mongoose';
import type { AccountApplicationRequest, AccountApplicationResponse } from '@campus/contracts';
import { nextId } from '../counters/service';
import { notify } from '../notifications/service';
import { AccountApplication, type AccountApplicationDoc } from './model';

/**
 * Stores an application for access and notifies the administrator. The applicant has no account,
 * so the notification has no actor (`actorId: null`) and points at the application instead.
 */
export async function submitApplication(
  input: AccountApplicationRequest,
  adminUserId: number,
): Promise<AccountApplicationResponse> {
  const application = await AccountApplication.create({
    _id: await nextId('account_applications'),
    ...input,
  });
  await notify('account_application', adminUserId, { applicationId: application._id });
  return { id: application._id, status: 'pending', createdAt: application.createdAt.toISOString() };
}

/** Who applied, by application id (for the administrator's notifications). */
export async function applicationsById(
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
