import { model, Schema } from 'mongoose';
import type { NotificationType } from '@campus/contracts';

export interface NotificationDoc {
  _id: number;
  /** Recipient. */
  userId: number;
  type: NotificationType;
  /** The user who acted; null for `account_application` (the applicant has no account). */
  actorId: number | null;
  postId: number | null;
  feedbackId: number | null;
  /** Set for `account_application`. */
  applicationId: number | null;
  isRead: boolean;
  createdAt: Date;
}

const notificationSchema = new Schema<NotificationDoc>(
  {
    _id: { type: Number, required: true },
    userId: { type: Number, required: true },
    type: { type: String, required: true },
    actorId: { type: Number, default: null },
    postId: { type: Number, default: null },
    feedbackId: { type: Number, default: null },
    applicationId: { type: Number, default: null },
    isRead: { type: Boolean, default: false },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
  },
  { versionKey: false },
);
notificationSchema.index({ userId: 1, createdAt: -1 });
notificationSchema.index({ userId: 1, isRead: 1 });

export const Notification = model<NotificationDoc>(
  'Notification',
  notificationSchema,
  'notifications',
);
