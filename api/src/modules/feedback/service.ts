import { trusted } from 'mongoose';
import type { FeedbackResponse, FeedbackStatus } from '@campus/contracts';
import type { DomainEvent } from '../../domain-events';
import { notFound } from '../../platform/errors';
import type { Transactions } from '../../platform/transactions';
import type { CounterService } from '../counters/service';
import type { NotificationService } from '../notifications/service';
import type { FeedbackDoc, FeedbackModel } from './model';

export const FEEDBACK_NOT_FOUND = 'Feedback not found';

export interface FeedbackServiceDeps {
  models: { Feedback: FeedbackModel };
  counters: CounterService;
  notifications: NotificationService;
  writes: Transactions<DomainEvent>;
}

export function createFeedbackService({
  models: { Feedback },
  counters,
  notifications,
  writes: { transaction, publish },
}: FeedbackServiceDeps) {
  const { nextId } = counters;
  const { notify } = notifications;

  /** Stores feedback as 'pending' and notifies the administrator. */
  async function submitFeedback(
    userId: number,
    message: string,
    adminUserId: number,
  ): Promise<FeedbackResponse> {
    const id = await nextId('feedback');
    const feedback = await transaction(async () => {
      const created = await Feedback.create({ _id: id, userId, message });
      publish({ type: 'feedback.sent', feedbackId: id, userId });
      await notify('feedback', adminUserId, { actorId: userId, feedbackId: id });
      return created;
    });
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

  /** Account deletion (in its transaction, told by `account.deleted`): the member's feedback. */
  async function removeFeedbackOf(userId: number): Promise<void> {
    await Feedback.deleteMany({ userId });
  }

  /** The administrator's queue: one status, newest first, one page, and how many in all. */
  async function listFeedback(
    status: FeedbackStatus,
    page: { skip: number; limit: number },
  ): Promise<{ items: FeedbackDoc[]; total: number }> {
    const [items, total] = await Promise.all([
      Feedback.find({ status })
        .sort({ createdAt: -1, _id: -1 })
        .skip(page.skip)
        .limit(page.limit)
        .lean<FeedbackDoc[]>(),
      Feedback.countDocuments({ status }),
    ]);
    return { items, total };
  }

  function countFeedback(status: FeedbackStatus): Promise<number> {
    return Feedback.countDocuments({ status });
  }

  /**
   * The administrator sets the status and may reply (in the caller's transaction, with the audit
   * entry): the reply is kept on the feedback (the latest one) and sent to its author as a
   * `feedback_reply` notification. 404 when none.
   */
  async function updateFeedback(
    id: number,
    update: { status: FeedbackStatus; reply?: string },
    adminId: number,
  ): Promise<{ before: FeedbackDoc; after: FeedbackDoc }> {
    const now = new Date();
    const before = await Feedback.findOneAndUpdate(
      { _id: id },
      {
        $set: {
          status: update.status,
          ...(update.reply !== undefined ? { reply: update.reply, repliedAt: now } : {}),
        },
      },
      { returnDocument: 'before' },
    ).lean<FeedbackDoc>();
    if (!before) throw notFound(FEEDBACK_NOT_FOUND);
    publish({ type: 'feedback.updated', feedbackId: id, userId: before.userId });
    const after = await Feedback.findById(id).lean<FeedbackDoc>();
    if (update.reply !== undefined) {
      await notify('feedback_reply', before.userId, {
        actorId: adminId,
        feedbackId: id,
        reply: update.reply,
      });
    }
    return { before, after: after ?? { ...before, status: update.status } };
  }

  return {
    submitFeedback,
    feedbackMessages,
    removeFeedbackOf,
    listFeedback,
    countFeedback,
    updateFeedback,
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
