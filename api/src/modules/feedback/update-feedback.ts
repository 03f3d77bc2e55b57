import type { FeedbackStatus } from '@campus/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../platform/errors';
import { notify } from '../notifications/notify';
import { feedbackOf, type FeedbackDoc } from './model';

export const FEEDBACK_NOT_FOUND = 'Feedback not found';

/**
 * The administrator sets the status and may reply (in the caller's transaction, with the audit
 * entry): the reply is kept on the feedback (the latest one) and sent to its author as a
 * `feedback_reply` notification. 404 when none.
 */
export async function updateFeedback(
  ctx: AppContext,
  id: number,
  update: { status: FeedbackStatus; reply?: string },
  adminId: number,
): Promise<{ before: FeedbackDoc; after: FeedbackDoc }> {
  const now = new Date();
  const before = await feedbackOf(ctx)
    .findOneAndUpdate(
      { _id: id },
      {
        $set: {
          status: update.status,
          ...(update.reply !== undefined ? { reply: update.reply, repliedAt: now } : {}),
        },
      },
      { returnDocument: 'before' },
    )
    .lean<FeedbackDoc>();
  if (!before) throw notFound(FEEDBACK_NOT_FOUND);
  ctx.publish({ type: 'feedback.updated', feedbackId: id, userId: before.userId });
  const after = await feedbackOf(ctx).findById(id).lean<FeedbackDoc>();
  if (update.reply !== undefined) {
    await notify(ctx, 'feedback_reply', before.userId, {
      actorId: adminId,
      feedbackId: id,
      reply: update.reply,
    });
  }
  return { before, after: after ?? { ...before, status: update.status } };
}
