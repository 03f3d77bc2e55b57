import { z } from 'zod';
import { idSchema, isoDateSchema } from './common';

/** Every notification type the API creates; the API's registry has one entry per type. */
export const NOTIFICATION_TYPES = [
  'like',
  'comment',
  'reply',
  'repost',
  'follow',
  'feedback',
  'account_application',
  'feedback_reply',
  'content_removed',
] as const;
export const notificationTypeSchema = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof notificationTypeSchema>;

/** The member who acted; null only when their account cannot be found. */
const actor = z
  .object({ id: idSchema, name: z.string(), avatarUrl: z.string().nullable() })
  .nullable();
/** The post acted on; null once it is deleted. */
const post = z.object({ id: idSchema, content: z.string() }).nullable();

function member<T extends NotificationType, F extends z.ZodRawShape>(type: T, fields: F) {
  return z.object({
    id: idSchema,
    type: z.literal(type),
    isRead: z.boolean(),
    createdAt: isoDateSchema,
    ...fields,
  });
}

const likeNotificationSchema = member('like', { actor, post });
const commentNotificationSchema = member('comment', { actor, post });
/** A reply to the recipient's comment; `post` is the post commented on. */
const replyNotificationSchema = member('reply', { actor, post });
const repostNotificationSchema = member('repost', { actor, post });
const followNotificationSchema = member('follow', { actor });
/** Sent to the administrator; `feedback` is null if the feedback cannot be found. */
const feedbackNotificationSchema = member('feedback', {
  actor,
  feedback: z.object({ message: z.string() }).nullable(),
});
/**
 * Sent to the administrator. The applicant has no account: `actor` is always null and
 * `application` carries who applied (null if the application cannot be found).
 */
const accountApplicationNotificationSchema = member('account_application', {
  actor: z.null(),
  application: z
    .object({ name: z.string(), contactInfo: z.string(), message: z.string() })
    .nullable(),
});

/**
 * Sent to a member when the administrator replies to their feedback: `reply` is the reply's text,
 * `feedback` the member's own message (null if it cannot be found); `actor` is the administrator.
 */
const feedbackReplyNotificationSchema = member('feedback_reply', {
  actor,
  feedback: z.object({ message: z.string() }).nullable(),
  reply: z.string(),
});
/**
 * Sent to a member when the administrator removed their post or comment after reports. It never
 * names who reported: `actor` is always null; `content` is the start of what was removed.
 */
const contentRemovedNotificationSchema = member('content_removed', {
  actor: z.null(),
  targetType: z.enum(['post', 'comment']),
  content: z.string(),
});

/**
 * Client view of a notification (spec §3): one member per type with exactly its fields, so a
 * `switch (notification.type)` narrows each case and the compiler finds a forgotten type. A newer
 * API may send a type this build does not know yet: clients that render notifications keep a
 * run-time default for it (e.g. when `notificationSchema.safeParse` fails).
 */
export const notificationSchema = z.discriminatedUnion('type', [
  likeNotificationSchema,
  commentNotificationSchema,
  replyNotificationSchema,
  repostNotificationSchema,
  followNotificationSchema,
  feedbackNotificationSchema,
  accountApplicationNotificationSchema,
  feedbackReplyNotificationSchema,
  contentRemovedNotificationSchema,
]);
export type Notification = z.infer<typeof notificationSchema>;
/** One type's notification, e.g. `NotificationOf<'like'>`. */
export type NotificationOf<T extends NotificationType> = Extract<Notification, { type: T }>;
export const notificationListSchema = z.array(notificationSchema);

/** `PUT /api/notifications/:id/read` response. */
export const notificationReadResponseSchema = z.object({ id: idSchema, isRead: z.literal(true) });
export type NotificationReadResponse = z.infer<typeof notificationReadResponseSchema>;

/** `PUT /api/notifications/read-all` response: how many were unread. */
export const markAllReadResponseSchema = z.object({ updated: z.number().int().nonnegative() });
export type MarkAllReadResponse = z.infer<typeof markAllReadResponseSchema>;
