import { z } from 'zod';
import { idSchema, isoDateSchema, requiredText } from './common';

export const FEEDBACK_MAX_LENGTH = 2000;

/** `POST /api/feedback` payload (spec §7: "feedback (text)"). */
export const feedbackRequestSchema = z.strictObject({
  feedback: requiredText('Feedback', FEEDBACK_MAX_LENGTH),
});
export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;

export const FEEDBACK_STATUSES = ['pending', 'in_progress', 'resolved'] as const;
export const feedbackStatusSchema = z.enum(FEEDBACK_STATUSES, {
  error: `Status must be one of ${FEEDBACK_STATUSES.join(', ')}`,
});
export type FeedbackStatus = z.infer<typeof feedbackStatusSchema>;

export const feedbackResponseSchema = z.object({
  id: idSchema,
  message: z.string(),
  status: feedbackStatusSchema,
  createdAt: isoDateSchema,
});
export type FeedbackResponse = z.infer<typeof feedbackResponseSchema>;
