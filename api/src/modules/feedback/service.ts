import type { FeedbackResponse } from '@campus/contracts';
import { nextId } from '../counters/model';
import { notify } from '../notifications/service';
import { Feedback } from './model';

/** Stores feedback as 'pending' and notifies the administrator. */
export async function submitFeedback(
  userId: number,
  message: string,
  adminUserId: number,
): Promise<FeedbackResponse> {
  const feedback = await Feedback.create({ _id: await nextId('feedback'), userId, message });
  await notify({
    userId: adminUserId,
    type: 'feedback',
    actorId: userId,
    feedbackId: feedback._id,
  });
  return {
    id: feedback._id,
    message: feedback.message,
    status: feedback.status,
    createdAt: feedback.createdAt.toISOString(),
  };
}
