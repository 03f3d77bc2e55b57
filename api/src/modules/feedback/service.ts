import { trusted } from 'mongoose';
import type { FeedbackResponse } from '@campus/contracts';
import type { CounterService } from '../counters/service';
import type { NotificationService } from '../notifications/service';
import type { FeedbackModel } from './model';

export interface FeedbackServiceDeps {
  models: { Feedback: FeedbackModel };
  counters: CounterService;
  notifications: NotificationService;
}

export function createFeedbackService({
  models: { Feedback },
  counters,
  notifications,
}: FeedbackServiceDeps) {
  const { nextId } = counters;
  const { notify } = notifications;

  /** Stores feedback as 'pending' and notifies the administrator. */
  async function submitFeedback(
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
  async function feedbackMessages(ids: number[]): Promise<Map<number, { message: string }>> {
    const found = await Feedback.find({ _id: trusted({ $in: ids }) }, { message: 1 }).lean();
    return new Map(found.map((f) => [f._id, { message: f.message }]));
  }

  /** Account deletion: the member's feedback. */
  async function removeFeedbackOf(userId: number): Promise<void> {
    await Feedback.deleteMany({ userId });
  }

  return { submitFeedback, feedbackMessages, removeFeedbackOf };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
