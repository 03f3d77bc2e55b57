/** Feedback as the administrator and the notifications read it. */
import { trusted } from 'mongoose';
import type { FeedbackStatus } from '@campus/contracts';
import type { AppContext } from '../../context';
import { feedbackOf, type FeedbackDoc } from './model';

/** Feedback messages by id (for the administrator's notifications). */
export async function feedbackMessages(
  ctx: AppContext,
  ids: number[],
): Promise<Map<number, { message: string }>> {
  const found = await feedbackOf(ctx)
    .find({ _id: trusted({ $in: ids }) }, { message: 1 })
    .lean();
  return new Map(found.map((f) => [f._id, { message: f.message }]));
}

/** The administrator's queue: one status, newest first, one page, and how many in all. */
export async function listFeedback(
  ctx: AppContext,
  status: FeedbackStatus,
  page: { skip: number; limit: number },
): Promise<{ items: FeedbackDoc[]; total: number }> {
  const [items, total] = await Promise.all([
    feedbackOf(ctx)
      .find({ status })
      .sort({ createdAt: -1, _id: -1 })
      .skip(page.skip)
      .limit(page.limit)
      .lean<FeedbackDoc[]>(),
    feedbackOf(ctx).countDocuments({ status }),
  ]);
  return { items, total };
}

export function countFeedback(ctx: AppContext, status: FeedbackStatus): Promise<number> {
  return feedbackOf(ctx).countDocuments({ status });
}

/** Account deletion (in its transaction, told by `account.deleted`): the member's feedback. */
export async function removeFeedbackOf(ctx: AppContext, userId: number): Promise<void> {
  await feedbackOf(ctx).deleteMany({ userId });
}
