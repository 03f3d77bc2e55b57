import { model, Schema } from 'mongoose';

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

export const Feedback = model<FeedbackDoc>('Feedback', feedbackSchema, 'feedback');
