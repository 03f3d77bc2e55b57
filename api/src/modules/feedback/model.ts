import { Schema, type Connection, type Model } from 'mongoose';

export interface FeedbackDoc {
  _id: number;
  userId: number;
  message: string;
  status: 'pending' | 'reviewed' | 'resolved';
  createdAt: Date;
  updatedAt: Date;
}

const feedbackSchema = new Schema<FeedbackDoc>(
  {
    _id: { type: Number, required: true },
    userId: { type: Number, required: true, index: true },
    message: { type: String, required: true },
    status: { type: String, enum: ['pending', 'reviewed', 'resolved'], default: 'pending' },
  },
  { versionKey: false, timestamps: true },
);

export type FeedbackModel = Model<FeedbackDoc>;

/** The Feedback model on `connection` (each app binds its own: see src/models.ts). */
export function feedbackModel(connection: Connection): FeedbackModel {
  return connection.model<FeedbackDoc>('Feedback', feedbackSchema, 'feedback');
}
