/** Applications as the administrator and the notifications read them. */
import { trusted, type PipelineStage } from 'mongoose';
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

/** An application's applicant, or itself alone when stored before applicants (until backfilled). */
const APPLICANT = { $ifNull: ['$applicant', { $concat: ['#', { $toString: '$_id' }] }] };

/**
 * The administrator's queue (issue 41: one row per applicant): of one status, each applicant's
 * newest application, newest first, one page, and how many applicants in all; with each, the
 * applicant's other applications of any status, newest first (at most `HISTORY`).
 */
export async function listApplications(
  ctx: AppContext,
  status: ApplicationStatus,
  page: { skip: number; limit: number },
): Promise<{
  items: Array<AccountApplicationDoc & { earlier: AccountApplicationDoc[] }>;
  total: number;
}> {
  const Application = applicationsOf(ctx);
  const grouped: PipelineStage[] = [
    { $match: { status } },
    { $sort: { createdAt: -1, _id: -1 } },
    { $group: { _id: APPLICANT, newest: { $first: '$$ROOT' } } },
  ];
  const [groups, counted] = await Promise.all([
    Application.aggregate<{ newest: AccountApplicationDoc }>([
      ...grouped,
      { $sort: { 'newest.createdAt': -1, 'newest._id': -1 } },
      { $skip: page.skip },
      { $limit: page.limit },
    ]),
    Application.aggregate<{ total: number }>([...grouped, { $count: 'total' }]),
  ]);
  const newest = groups.map((g) => g.newest);
  const applicants = newest.flatMap((a) => (a.applicant ? [a.applicant] : []));
  const others = applicants.length
    ? await Application.find({
        applicant: trusted({ $in: applicants }),
        _id: trusted({ $nin: newest.map((a) => a._id) }),
      })
        .sort({ createdAt: -1, _id: -1 })
        .lean<AccountApplicationDoc[]>()
    : [];
  return {
    items: newest.map((a) => ({
      ...a,
      earlier: others.filter((o) => o.applicant === a.applicant).slice(0, HISTORY),
    })),
    total: counted[0]?.total ?? 0,
  };
}

/** The earlier applications shown with an applicant's newest. */
const HISTORY = 20;

/** How many applicants have an application of this status (the Admin section's count). */
export async function countApplications(
  ctx: AppContext,
  status: ApplicationStatus,
): Promise<number> {
  const [counted] = await applicationsOf(ctx).aggregate<{ total: number }>([
    { $match: { status } },
    { $group: { _id: APPLICANT } },
    { $count: 'total' },
  ]);
  return counted?.total ?? 0;
}
