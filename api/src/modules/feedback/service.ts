import { trusted } from 'mongoose';
import type { FeedbackResponse } from '@campus/contracts';
import { nextId } from '../counters/service';
import { notify } from '../notifications/service';
import { Feedback } from './model';

/** Stores feedback as 'pending' and notifies the administrator. */
export async function submitFeedback(
  userId: number,
  message: string,
  adminUserId: number,
): Promise<FeedbackResponse> {
  const feedback = await Feedback.create({ _id: await nextId('feedback'), userId, message });
  await notify('feedback', adminUserId, { actorId: userId, feedbackId: feedback._id });
  return {
    id: feedback._id,
    message: feedback.message,
    status: feedback.status,
    createdAt: feedback.createdAt.toISOString(),
  };
}

/** Feedback messages by id (for the administrator's notifications). */
export async function feedbackMessages(ids: number[]): Promise<Map<number, { message: string }>> {
  const found = await Feedback.find({ _id: trusted({ $in: ids }) }, { message: 1 }).lean();
  return new Map(found.map((f) => [f._id, { message: f.message }]));
}
