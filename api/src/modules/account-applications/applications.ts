import type { AccountApplicationRequest, AccountApplicationResponse } from '@campus/contracts';
import type { AppContext } from '../../context';
import { conflict, notFound } from '../../platform/errors';
import { notify } from '../notifications/notify';
import { userPolicy } from '../users/policy';
import { applicationsOf, type AccountApplicationDoc } from './model';

export const APPLICATION_NOT_FOUND = 'Application not found';
export const APPLICATION_ALREADY_DECIDED = 'This application has already been decided';

/** Matches an e-mail address written anywhere in free text (the first one is taken). */
const EMAIL_IN_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;

/** The e-mail address in an application's contact information (lowercased), or null. */
export function emailInContactInfo(contactInfo: string): string | null {
  return EMAIL_IN_TEXT.exec(contactInfo)?.[0].toLowerCase() ?? null;
}

/**
 * Stores an application for access and notifies the administrator. The applicant has no account,
 * so the notification has no actor (`actorId: null`) and points at the application instead.
 */
export async function submitApplication(
  ctx: AppContext,
  input: AccountApplicationRequest,
): Promise<AccountApplicationResponse> {
  const adminUserId = userPolicy.administratorId(ctx);
  const id = await ctx.ids.nextId('account_applications');
  const application = await ctx.transaction(async () => {
    const created = await applicationsOf(ctx).create({ _id: id, ...input });
    ctx.publish({ type: 'application.submitted', applicationId: id });
    await notify(ctx, 'account_application', adminUserId, { applicationId: id });
    return created;
  });
  return {
    id: application._id,
    status: 'pending',
    createdAt: application.createdAt.toISOString(),
  };
}

/**
 * Approves or rejects a pending application, once, in the caller's transaction: the status moves
 * only from pending (one conditional update, so two admins' tabs cannot both decide). 404
 * unknown, 409 decided.
 */
export async function decideApplication(
  ctx: AppContext,
  id: number,
  decision: { status: 'approved' | 'rejected'; adminId: number; reason?: string | null },
): Promise<AccountApplicationDoc> {
  const decided = await applicationsOf(ctx)
    .findOneAndUpdate(
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
    )
    .lean<AccountApplicationDoc>();
  if (decided) {
    ctx.publish({ type: 'application.decided', applicationId: id, status: decision.status });
    return decided;
  }
  if (await applicationsOf(ctx).exists({ _id: id })) throw conflict(APPLICATION_ALREADY_DECIDED);
  throw notFound(APPLICATION_NOT_FOUND);
}
