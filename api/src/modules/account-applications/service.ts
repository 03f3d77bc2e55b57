import type { AccountApplicationRequest, AccountApplicationResponse } from '@campus/contracts';
import { nextId } from '../counters/model';
import { notify } from '../notifications/service';
import { AccountApplication } from './model';

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
  await notify({
    userId: adminUserId,
    type: 'account_application',
    actorId: null,
    applicationId: application._id,
  });
  return { id: application._id, status: 'pending', createdAt: application.createdAt.toISOString() };
}
