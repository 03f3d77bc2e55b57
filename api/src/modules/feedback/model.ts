import { Schema, type Connection, type Model } from 'mongoose';
import { FEEDBACK_STATUSES, type FeedbackStatus } from '@campus/contracts';

export interface FeedbackDoc {
  _id: number;
  userId: number;
  message: string;
  status: FeedbackStatus;
  /** The administrator's latest reply (sent to the member as a `feedback_reply` notification). */
  reply?: string | null;
  repliedAt?: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const feedbackSchema = new Schema<FeedbackDoc>(
  {
    _id: { type: Number, required: true },
    userId: { type: Number, required: true, index: true },
    message: { type: String, required: true },
    status: { type: String, enum: FEEDBACK_STATUSES, default: 'pending' },
    reply: { type: String, default: null },
    repliedAt: { type: Date, default: null },
  },
  { versionKey: false, timestamps: true },
);
// The administrator's queue: one status, newest first.
feedbackSchema.index({ status: 1, createdAt: -1, _id: -1 });

export type FeedbackModel = Model<FeedbackDoc>;

/** The Feedback model on `connection` (each app binds its own: see src/models.ts). */
export function feedbackModel(connection: Connection): FeedbackModel {
  return connection.model<FeedbackDoc>('Feedback', feedbackSchema, 'feedback');
}

/** This module's Feedback model from the app context: only the feedback module reads it (lint). */
export const feedbackOf = (ctx: { models: { Feedback: FeedbackModel } }): FeedbackModel =>
  ctx.models.Feedback;
