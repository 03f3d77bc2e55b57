import { z } from 'zod';
import { decisionKindSchema } from './appeals';
import { idSchema, isoDateSchema } from './common';
import { moderationReasonSchema } from './moderation-reasons';

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
  'appeal_decided',
  'mention',
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

/** How much of a comment or reply a notification quotes. */
export const NOTIFICATION_COMMENT_TEXT_LENGTH = 100;
/**
 * What was said: the first 100 characters of the comment or reply; null once it is deleted (or
 * for notifications stored before comments were recorded on them).
 */
const commentText = z.string().max(NOTIFICATION_COMMENT_TEXT_LENGTH).nullable();

/**
 * The comment or reply itself, which the post page scrolls to (`/post/<id>#comment-<commentId>`,
 * issue 41); null once it is deleted, like `commentText`.
 */
const commentId = idSchema.nullable();

const likeNotificationSchema = member('like', { actor, post });
const commentNotificationSchema = member('comment', { actor, post, commentText, commentId });
/** A reply to the recipient's comment; `post` is the post commented on. */
const replyNotificationSchema = member('reply', { actor, post, commentText, commentId });
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
 * `reason` is the administrator's (issue 38) and `decisionId` what an appeal names (both null on
 * notifications stored before reasons).
 */
const contentRemovedNotificationSchema = member('content_removed', {
  actor: z.null(),
  targetType: z.enum(['post', 'comment']),
  content: z.string(),
  decisionId: idSchema.nullable(),
  reason: moderationReasonSchema.nullable(),
  /** True once the member appealed this decision: there is one appeal per decision. */
  appealed: z.boolean().optional(),
});
/**
 * Sent to a member when the administrator decided their appeal (issue 38): `lifted` undid the
 * decision (the post or comment is back, the account active), `upheld` kept it. `content` is the
 * start of the removed post or comment (null for a suspension); `response` the administrator's
 * words, if any.
 */
const appealDecidedNotificationSchema = member('appeal_decided', {
  actor: z.null(),
  outcome: z.enum(['lifted', 'upheld']),
  decisionKind: decisionKindSchema,
  content: z.string().nullable(),
  response: z.string().nullable(),
});

/**
 * The recipient was @mentioned (issue 40): in the post `post` (`commentText` null), or in a
 * comment or reply on it (`commentText` its start, `commentId` it).
 */
const mentionNotificationSchema = member('mention', {
  actor,
  post,
  commentText,
  commentId: idSchema.nullable(),
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
  appealDecidedNotificationSchema,
  mentionNotificationSchema,
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

/** `GET /api/notifications?grouped=true` page size: default and largest. */
export const NOTIFICATION_GROUPS_PAGE_SIZE = 20;
export const NOTIFICATION_GROUPS_MAX_PAGE_SIZE = 50;
/** How many actors a group names (the newest first); `actorsCount` says how many there are. */
export const NOTIFICATION_GROUP_ACTORS = 3;

/**
 * `GET /api/notifications` query. Without `grouped=true` the answer is the plain list (the newest
 * 100, `notificationListSchema`); with it, one page of groups (`notificationGroupPageSchema`):
 * `before` is the previous page's `nextCursor`.
 */
export const notificationListQuerySchema = z.object({
  grouped: z.enum(['true', 'false'], 'grouped must be true or false').optional(),
  before: z.coerce
    .number('before must be a notification group cursor')
    .int('before must be a notification group cursor')
    .positive('before must be a notification group cursor')
    .optional(),
  limit: z.coerce
    .number('limit must be a number')
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(
      NOTIFICATION_GROUPS_MAX_PAGE_SIZE,
      `limit must be at most ${NOTIFICATION_GROUPS_MAX_PAGE_SIZE}`,
    )
    .default(NOTIFICATION_GROUPS_PAGE_SIZE),
});
export type NotificationListQuery = z.infer<typeof notificationListQuerySchema>;

/**
 * The same query, as each of the two calls on `GET /api/notifications` reads it (the call table,
 * calls.ts): `grouped=true` selects the page of groups; absent or `false`, the plain list (which
 * checks `before` and `limit` as well, and uses neither).
 */
export const notificationPlainListQuerySchema = notificationListQuerySchema.extend({
  grouped: z.enum(['false'], 'grouped must be true or false').optional(),
});
export const notificationGroupsQuerySchema = notificationListQuerySchema.extend({
  grouped: z.literal('true', 'grouped must be true or false'),
});

const actorSummary = z.object({ id: idSchema, name: z.string(), avatarUrl: z.string().nullable() });

/**
 * Notifications shown as one row: likes of the same post, reposts of the same post, follows of
 * the same day (in the API's TIMEZONE); every other notification is a group of one. The group's
 * place in the list is its newest member's.
 */
export const notificationGroupSchema = z.object({
  /**
   * Stable while the group grows: `like:<postId>`, `repost:<postId>`, `follow:<YYYY-MM-DD>`, or
   * `<type>#<notificationId>` for a group of one. `PUT /api/notifications/read` takes it.
   */
  key: z.string(),
  type: notificationTypeSchema,
  /** The newest member, in its client shape (its post, feedback, comment text...). */
  latest: notificationSchema,
  /** Up to 3 distinct actors, the most recent first. */
  actors: z.array(actorSummary).max(NOTIFICATION_GROUP_ACTORS),
  /** How many distinct actors the group has ('Ada Okafor and 3 others': actorsCount - 1 others). */
  actorsCount: z.number().int().nonnegative(),
  /** Every member's id, newest first. */
  ids: z.array(idSchema).min(1),
  /** True when every member is read. */
  isRead: z.boolean(),
  /** The newest member's time. */
  createdAt: isoDateSchema,
});
export type NotificationGroup = z.infer<typeof notificationGroupSchema>;

/** `GET /api/notifications?grouped=true` response. */
export const notificationGroupPageSchema = z.object({
  groups: z.array(notificationGroupSchema),
  /** Pass as `before` for the next page; null on the last page. */
  nextCursor: idSchema.nullable(),
});
export type NotificationGroupPage = z.infer<typeof notificationGroupPageSchema>;

/** A group key as `notificationGroupSchema.key` spells it. */
export const notificationGroupKeySchema = z
  .string('Group keys must be text')
  .regex(
    /^(?:(?:like|repost):[1-9][0-9]{0,15}|follow:\d{4}-\d{2}-\d{2}|[a-z_]+#[1-9][0-9]{0,15})$/,
    'Invalid notification group key',
  );

/**
 * `PUT /api/notifications/read` payload: marks read the recipient's own notifications with these
 * ids and every member of these groups (someone else's ids or groups change nothing).
 */
export const markNotificationsReadRequestSchema = z
  .strictObject({
    ids: z.array(idSchema, 'ids must be a list of notification ids').max(500).optional(),
    keys: z
      .array(notificationGroupKeySchema, 'keys must be a list of group keys')
      .max(100)
      .optional(),
  })
  .refine((body) => (body.ids?.length ?? 0) + (body.keys?.length ?? 0) > 0, {
    message: 'Give the ids or the group keys to mark read',
  });
export type MarkNotificationsReadRequest = z.infer<typeof markNotificationsReadRequestSchema>;
