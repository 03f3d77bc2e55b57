import type { FeedbackResponse } from '@campus/contracts';
import type { AppContext } from '../../context';
import { notify } from '../notifications/notify';
import { userPolicy } from '../users/policy';
import { feedbackOf } from './model';

/** Stores feedback as 'pending' and notifies the administrator. */
export async function submitFeedback(
  ctx: AppContext,
  userId: number,
  message: string,
): Promise<FeedbackResponse> {
  const adminUserId = userPolicy.administratorId(ctx);
  const id = await ctx.ids.nextId('feedback');
  const feedback = await ctx.transaction(async () => {
    const created = await feedbackOf(ctx).create({ _id: id, userId, message });
    ctx.publish({ type: 'feedback.sent', feedbackId: id, userId });
    await notify(ctx, 'feedback', adminUserId, { actorId: userId, feedbackId: id });
    return created;
  });
  return {
    id: feedback._id,
    message: feedback.message,
    status: feedback.status,
    createdAt: feedback.createdAt.toISOString(),
  };
}
