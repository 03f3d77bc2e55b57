/** Applications as the administrator and the notifications read them. */
import { trusted } from 'mongoose';
import type { ApplicationStatus } from '@campus/contracts';
import type { AppContext } from '../../context';
import { applicationsOf, type AccountApplicationDoc } from './model';

/** Who applied, by application id (for the administrator's notifications). */
export async function applicationsById(
  ctx: AppContext,
  ids: number[],
): Promise<Map<number, Pick<AccountApplicationDoc, 'name' | 'contactInfo' | 'message'>>> {
  const found = await applicationsOf(ctx)
    .find({ _id: trusted({ $in: ids }) }, { name: 1, contactInfo: 1, message: 1 })
    .lean();
  return new Map(
    found.map((a) => [a._id, { name: a.name, contactInfo: a.contactInfo, message: a.message }]),
  );
}

/** The administrator's queue: one status, newest first, one page, and how many in all. */
export async function listApplications(
  ctx: AppContext,
  status: ApplicationStatus,
  page: { skip: number; limit: number },
): Promise<{ items: AccountApplicationDoc[]; total: number }> {
  const [items, total] = await Promise.all([
    applicationsOf(ctx)
      .find({ status })
      .sort({ createdAt: -1, _id: -1 })
      .skip(page.skip)
      .limit(page.limit)
      .lean<AccountApplicationDoc[]>(),
    applicationsOf(ctx).countDocuments({ status }),
  ]);
  return { items, total };
}

export function countApplications(ctx: AppContext, status: ApplicationStatus): Promise<number> {
  return applicationsOf(ctx).countDocuments({ status });
}
