/** Members' reports, gathered in one open case per target, and the cases' resolution. */
import { trusted } from 'mongoose';
import {
  ALREADY_REPORTED_MESSAGE,
  type ReportAction,
  type ReportCategory,
  type ReportRequest,
  type ReportResponse,
  type ReportStatus,
} from '@campus/contracts';
import type { AppContext } from '../../context';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { isDuplicateKey } from '../../platform/mongo-errors';
import { commentsForModeration } from '../comments/queries';
import { isPostVisible } from '../posts/queries';
import { findPublicUser } from '../users/queries';
import { reportCasesOf, reportsOf, type ReportCaseDoc, type ReportDoc } from './model';

export const REPORT_NOT_FOUND = 'Report not found';

export const REPORT_ALREADY_RESOLVED = 'This report has already been resolved';

export const CANNOT_REPORT_YOURSELF = 'You cannot report yourself';

const POST_NOT_FOUND = 'Post not found';

const COMMENT_NOT_FOUND = 'Comment not found';

/** 404 (or 400 for oneself) unless the target is something a member can see and report. */
async function checkTarget(
  ctx: AppContext,
  reporterId: number,
  input: ReportRequest,
): Promise<void> {
  switch (input.targetType) {
    case 'post':
      if (!(await isPostVisible(ctx, input.targetId))) throw notFound(POST_NOT_FOUND);
      return;
    case 'comment': {
      const comment = (await commentsForModeration(ctx, [input.targetId])).get(input.targetId);
      if (!comment || comment.deleted || !(await isPostVisible(ctx, comment.postId))) {
        throw notFound(COMMENT_NOT_FOUND);
      }
      return;
    }
    case 'user':
      if (input.targetId === reporterId) throw badRequest(CANNOT_REPORT_YOURSELF);
      await findPublicUser(ctx, input.targetId); // 404 'User not found'
      return;
  }
}

/**
 * A member reports a post, a comment or a member: the report joins the target's open case (one
 * is opened if there is none), in one transaction. Once per member and target: 409 after that.
 */
export async function submitReport(
  ctx: AppContext,
  reporterId: number,
  input: ReportRequest,
): Promise<ReportResponse> {
  await checkTarget(ctx, reporterId, input);
  const { targetType, targetId } = input;
  // A client older than categories sends words only: "Something else".
  const category = input.category ?? 'other';
  // Ids come from sequences outside the transaction (a retried attempt leaves a gap).
  const [reportId, newCaseId] = await Promise.all([
    ctx.ids.nextId('reports'),
    ctx.ids.nextId('report_cases'),
  ]);
  try {
    const report = await ctx.transaction(async () => {
      const now = new Date();
      const openCase = await reportCasesOf(ctx)
        .findOneAndUpdate(
          { targetType, targetId, status: 'open' },
          {
            $setOnInsert: { _id: newCaseId, resolution: null, createdAt: now },
            $inc: { reportCount: 1 },
            $set: { lastReportedAt: now },
            $addToSet: { categories: category },
          },
          { upsert: true, returnDocument: 'after' },
        )
        .lean<ReportCaseDoc>();
      const created = await reportsOf(ctx).create({
        _id: reportId,
        reporterId,
        targetType,
        targetId,
        category,
        reason: input.reason ?? '',
        caseId: openCase!._id,
        createdAt: now,
      });
      ctx.publish({ type: 'report.filed', caseId: openCase!._id, targetType, targetId });
      return created.toObject<ReportDoc>();
    });
    return {
      id: report._id,
      targetType: report.targetType,
      targetId: report.targetId,
      createdAt: report.createdAt.toISOString(),
    };
  } catch (err) {
    if (
      isDuplicateKey(err) &&
      (await reportsOf(ctx).exists({ reporterId, targetType, targetId })) !== null
    ) {
      throw conflict(ALREADY_REPORTED_MESSAGE);
    }
    throw err;
  }
}

/**
 * The administrator's queue: cases of one status, most recently reported first; with
 * `category`, only those reported for it (cases from before categories count as `other`).
 */
export async function listCases(
  ctx: AppContext,
  query: { status: ReportStatus; category?: ReportCategory },
  page: { skip: number; limit: number },
): Promise<{ items: ReportCaseDoc[]; total: number }> {
  const { status, category } = query;
  const filter: Record<string, unknown> =
    category === undefined
      ? { status }
      : category === 'other'
        ? { status, $or: [{ categories: 'other' }, { categories: trusted({ $exists: false }) }] }
        : { status, categories: category };
  const [items, total] = await Promise.all([
    reportCasesOf(ctx)
      .find(filter)
      .sort({ lastReportedAt: -1, _id: -1 })
      .skip(page.skip)
      .limit(page.limit)
      .lean<ReportCaseDoc[]>(),
    reportCasesOf(ctx).countDocuments(filter),
  ]);
  return { items, total };
}

/** The reports of these cases, oldest first (reasons only reach the administrator). */
export async function reportsOfCases(
  ctx: AppContext,
  caseIds: number[],
): Promise<Map<number, ReportDoc[]>> {
  const byCase = new Map<number, ReportDoc[]>(caseIds.map((id) => [id, []]));
  if (caseIds.length === 0) return byCase;
  const reports = await reportsOf(ctx)
    .find({ caseId: trusted({ $in: caseIds }) })
    .sort({ createdAt: 1, _id: 1 })
    .lean<ReportDoc[]>();
  for (const report of reports) byCase.get(report.caseId)?.push(report);
  return byCase;
}

export function countOpenCases(ctx: AppContext): Promise<number> {
  return reportCasesOf(ctx).countDocuments({ status: 'open' });
}

/**
 * Marks an open case resolved, once (one conditional update). Run inside the transaction that
 * carries the action out, so a failed action leaves it open. 404 unknown, 409 resolved.
 */
export async function closeCase(
  ctx: AppContext,
  id: number,
  resolution: {
    action: ReportAction;
    adminId: number;
    now: Date;
    reason?: { category: ReportCategory; text: string | null } | null;
  },
): Promise<ReportCaseDoc> {
  const closed = await reportCasesOf(ctx)
    .findOneAndUpdate(
      { _id: id, status: 'open' },
      {
        $set: {
          status: 'resolved',
          resolution: {
            action: resolution.action,
            resolvedAt: resolution.now,
            resolvedBy: resolution.adminId,
            category: resolution.reason?.category ?? null,
            reasonText: resolution.reason?.text ?? null,
          },
        },
      },
      { returnDocument: 'after' },
    )
    .lean<ReportCaseDoc>();
  if (closed) {
    ctx.publish({ type: 'report.resolved', caseId: id, action: resolution.action });
    return closed;
  }
  if (await reportCasesOf(ctx).exists({ _id: id })) throw conflict(REPORT_ALREADY_RESOLVED);
  throw notFound(REPORT_NOT_FOUND);
}
