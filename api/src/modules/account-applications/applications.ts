import { trusted } from 'mongoose';
import type { AccountApplicationRequest, AccountApplicationResponse } from '@campus/contracts';
import type { AppContext } from '../../context';
import { conflict, notFound } from '../../platform/errors';
import { notify } from '../notifications/notify';
import { userPolicy } from '../users/policy';
import { applicationsOf, type AccountApplicationDoc, type AccountApplicationModel } from './model';

export const APPLICATION_NOT_FOUND = 'Application not found';
export const APPLICATION_ALREADY_DECIDED = 'This application has already been decided';

/** Matches an e-mail address written anywhere in free text (the first one is taken). */
const EMAIL_IN_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;

/** The e-mail address in an application's contact information (lowercased), or null. */
export function emailInContactInfo(contactInfo: string): string | null {
  return EMAIL_IN_TEXT.exec(contactInfo)?.[0].toLowerCase() ?? null;
}

/**
 * Who applied, as their applications are grouped (issue 41): the e-mail address in the contact
 * information, else the contact information itself, in lower case with its spaces collapsed.
 */
export function applicantOf(contactInfo: string): string {
  return emailInContactInfo(contactInfo) ?? contactInfo.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Applications stored before `applicant` get theirs, a batch at a time; answers how many. */
export async function backfillApplicants(Application: AccountApplicationModel): Promise<number> {
  let updated = 0;
  for (;;) {
    const found = await Application.find(
      { applicant: trusted({ $exists: false }) },
      { contactInfo: 1 },
    )
      .limit(BACKFILL_BATCH)
      .lean();
    if (found.length === 0) return updated;
    await Application.bulkWrite(
      found.map((a) => ({
        updateOne: {
          filter: { _id: a._id },
          update: { $set: { applicant: applicantOf(a.contactInfo) } },
        },
      })),
    );
    updated += found.length;
    if (found.length < BACKFILL_BATCH) return updated;
  }
}

const BACKFILL_BATCH = 500;

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
    const created = await applicationsOf(ctx).create({
      _id: id,
      ...input,
      applicant: applicantOf(input.contactInfo),
    });
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
    await decideAlong(ctx, decided, decision);
    return decided;
  }
  if (await applicationsOf(ctx).exists({ _id: id })) throw conflict(APPLICATION_ALREADY_DECIDED);
  throw notFound(APPLICATION_NOT_FOUND);
}

/**
 * The same applicant's other pending applications are decided with this one (issue 41: they are
 * one row of the queue; one invitation, or one rejection, answers them all).
 */
async function decideAlong(
  ctx: AppContext,
  decided: AccountApplicationDoc,
  decision: { status: 'approved' | 'rejected'; adminId: number; reason?: string | null },
): Promise<void> {
  const applicant = decided.applicant ?? applicantOf(decided.contactInfo);
  const others = await applicationsOf(ctx)
    .find({ applicant, status: 'pending', _id: trusted({ $ne: decided._id }) }, { _id: 1 })
    .lean();
  if (others.length === 0) return;
  const ids = others.map((o) => o._id);
  await applicationsOf(ctx).updateMany(
    { _id: trusted({ $in: ids }), status: 'pending' },
    {
      $set: {
        status: decision.status,
        decidedAt: decided.decidedAt ?? new Date(),
        decidedBy: decision.adminId,
        rejectionReason: decision.reason ?? null,
      },
    },
  );
  for (const applicationId of ids) {
    ctx.publish({ type: 'application.decided', applicationId, status: decision.status });
  }
}
