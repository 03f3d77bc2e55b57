import type { FeedbackStatus } from '@campus/contracts';

export const FEEDBACK_STATUS_LABELS: Record<FeedbackStatus, string> = {
  pending: 'Pending',
  in_progress: 'In progress',
  resolved: 'Resolved',
};
