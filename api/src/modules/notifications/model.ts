import { Schema, type Connection, type Model } from 'mongoose';
import type { DecisionKind, NotificationType, ReportCategory } from '@campus/contracts';

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
  /** Set for `comment` and `reply`: the comment or reply itself (its text is shown). */
  commentId?: number | null;
  /**
   * Text the notification carries itself: a `feedback_reply`'s reply, or the start of what a
   * `content_removed` removed (which no reader can load any more).
   */
  detail?: string | null;
  /** Set for `content_removed`: whether a post or a comment was removed. */
  targetType?: 'post' | 'comment' | null;
  /**
   * Reasons and appeals (issue 38): the decision a `content_removed` or `appeal_decided` is
   * about, the reason's category and words, and an appeal's outcome.
   */
  decisionId?: number | null;
  decisionKind?: DecisionKind | null;
  category?: ReportCategory | null;
  reasonText?: string | null;
  outcome?: 'lifted' | 'upheld' | null;
  /** Set on a `content_removed` once its member appealed the decision (one appeal each). */
  appealed?: boolean;
  isRead: boolean;
  /**
   * Set for notifications that must exist at most once (a like: once per liker and post, however
   * often they unlike and like again); a unique sparse index enforces it.
   */
  dedupeKey?: string;
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
    commentId: { type: Number, default: null },
    detail: { type: String, default: null },
    targetType: { type: String, enum: ['post', 'comment', null], default: null },
    decisionId: { type: Number },
    decisionKind: { type: String },
    category: { type: String },
    reasonText: { type: String },
    outcome: { type: String, enum: ['lifted', 'upheld'] },
    appealed: { type: Boolean },
    isRead: { type: Boolean, default: false },
    dedupeKey: { type: String },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
  },
  { versionKey: false },
);
// The newest first (the list, and the grouped list's walk), read in index order: a page reads
// only its own notifications.
notificationSchema.index({ userId: 1, createdAt: -1, _id: -1 });
// A reconnecting stream's replay reads the recipient's notifications by id.
notificationSchema.index({ userId: 1, _id: -1 });
// A group's members: likes and reposts of one post, follows of one day.
notificationSchema.index({ userId: 1, type: 1, postId: 1, createdAt: 1 });
notificationSchema.index({ userId: 1, isRead: 1 });
notificationSchema.index({ dedupeKey: 1 }, { unique: true, sparse: true });

export type NotificationModel = Model<NotificationDoc>;

/** The Notification model on `connection` (each app binds its own: see src/models.ts). */
export function notificationModel(connection: Connection): NotificationModel {
  return connection.model<NotificationDoc>('Notification', notificationSchema, 'notifications');
}

/** This module's Notification model from the app context: only the notifications module reads it (lint). */
export const notificationsOf = (ctx: {
  models: { Notification: NotificationModel };
}): NotificationModel => ctx.models.Notification;
