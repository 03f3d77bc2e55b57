import { z } from 'zod';
import { idSchema, isoDateSchema } from './common';

/**
 * `account_application` has no actor (the applicant has no account): `actor` is null and
 * `application` carries the applicant's name.
 */
export const notificationTypeSchema = z.enum([
  'like',
  'comment',
  'reply',
  'repost',
  'follow',
  'feedback',
  'account_application',
]);
export type NotificationType = z.infer<typeof notificationTypeSchema>;

/** Client view of a notification (spec §3). Unknown types get a default rendering. */
export const notificationSchema = z.object({
  id: idSchema,
  type: z.string(),
  isRead: z.boolean(),
  createdAt: isoDateSchema,
  actor: z.object({ id: idSchema, name: z.string(), avatarUrl: z.string().nullable() }).nullable(),
  post: z.object({ id: idSchema, content: z.string() }).nullable().optional(),
  feedback: z.object({ message: z.string() }).nullable().optional(),
  application: z
    .object({ name: z.string(), contactInfo: z.string(), message: z.string() })
    .nullable()
    .optional(),
});
export type Notification = z.infer<typeof notificationSchema>;
export const notificationListSchema = z.array(notificationSchema);
