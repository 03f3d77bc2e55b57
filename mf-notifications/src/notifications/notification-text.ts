import {
  REPORT_CATEGORY_LABELS,
  type DecisionKind,
  type ModerationReason,
  type Notification,
  type NotificationType,
} from '@campus/contracts';
import { truncate } from '@campus/kit/format';

/** Spec §2/§9: post previews are cut to 100 characters, feedback to 200. */
export const POST_PREVIEW_LENGTH = 100;
export const FEEDBACK_PREVIEW_LENGTH = 200;

export interface NotificationText {
  /** Who did it: the actor, the applicant of an account application, or 'Someone'. */
  who: string;
  action: string;
  preview?: string;
  /** The post to link to ('View post'), when the notification is about one that still exists. */
  postId?: number;
  /** A line under the preview: a removal's reason, an appeal's answer (issue 38). */
  detail?: string;
}

/** 'Reason: Harassment or bullying. Mocks a classmate' (issue 38). */
export function reasonText(reason: ModerationReason): string {
  const category = REPORT_CATEGORY_LABELS[reason.category] ?? 'Something else';
  return reason.text ? `Reason: ${category}. ${reason.text}` : `Reason: ${category}`;
}

const APPEAL_OUTCOMES: Record<DecisionKind, { lifted: string; upheld: string }> = {
  post_removal: {
    lifted: 'restored your post after your appeal',
    upheld: 'reviewed your appeal and kept your post removed',
  },
  comment_removal: {
    lifted: 'restored your comment after your appeal',
    upheld: 'reviewed your appeal and kept your comment removed',
  },
  suspension: {
    lifted: 'lifted your suspension after your appeal',
    upheld: 'reviewed your appeal and kept your suspension',
  },
};

/**
 * The types this build knows. A Record over contracts' union, so the compiler asks for a new type
 * here too; checked at run time because a newer API may already send types this build lacks
 * (without bundling the zod schemas for it).
 */
const KNOWN_TYPES: Record<NotificationType, true> = {
  like: true,
  comment: true,
  reply: true,
  repost: true,
  follow: true,
  feedback: true,
  account_application: true,
  feedback_reply: true,
  content_removed: true,
  appeal_decided: true,
  mention: true,
};

function isKnown(notification: { type: string }): notification is Notification {
  return Object.hasOwn(KNOWN_TYPES, notification.type);
}

const postPreview = (post: { content: string } | null | undefined) =>
  post?.content ? truncate(post.content, POST_PREVIEW_LENGTH) : undefined;

/** What a comment or reply said (issue 20): the comment's words, never the post's. */
const saidPreview = (commentText: string | null | undefined) =>
  commentText ? truncate(commentText, POST_PREVIEW_LENGTH) : undefined;

const actorName = (actor: { name: string } | null | undefined) => actor?.name ?? 'Someone';

/** A notification whose type this build does not know: what any notification may carry. */
function unknownText(notification: {
  actor?: { name?: unknown } | null;
  post?: { id?: unknown; content?: unknown } | null;
}): NotificationText {
  const name = notification.actor?.name;
  const content = notification.post?.content;
  const postId = notification.post?.id;
  return {
    who: typeof name === 'string' ? name : 'Someone',
    action: 'sent you a notification',
    preview: typeof content === 'string' ? postPreview({ content }) : undefined,
    postId: typeof postId === 'number' ? postId : undefined,
  };
}

/**
 * How each notification type reads. The switch covers contracts' union (the `never` check makes a
 * forgotten type a compile error); a type from a newer API gets a default wording at run time.
 */
export function notificationText(notification: Notification): NotificationText {
  if (!isKnown(notification)) return unknownText(notification);
  switch (notification.type) {
    case 'like':
      return {
        who: actorName(notification.actor),
        action: 'liked your post',
        preview: postPreview(notification.post),
        postId: notification.post?.id,
      };
    case 'comment':
      return {
        who: actorName(notification.actor),
        action: 'commented on your post',
        preview: saidPreview(notification.commentText),
        postId: notification.post?.id,
      };
    case 'reply':
      return {
        who: actorName(notification.actor),
        action: 'replied to your comment',
        preview: saidPreview(notification.commentText),
        postId: notification.post?.id,
      };
    case 'repost':
      return {
        who: actorName(notification.actor),
        action: 'reposted your post',
        preview: postPreview(notification.post),
        postId: notification.post?.id,
      };
    case 'follow':
      return { who: actorName(notification.actor), action: 'started following you' };
    case 'mention':
      // Issue 40: in a post (its text), or in a comment or reply on it (the comment's words).
      return notification.commentId === null
        ? {
            who: actorName(notification.actor),
            action: 'mentioned you in a post',
            preview: postPreview(notification.post),
            postId: notification.post?.id,
          }
        : {
            who: actorName(notification.actor),
            action: 'mentioned you in a comment',
            preview: saidPreview(notification.commentText),
            postId: notification.post?.id,
          };
    case 'feedback':
      return {
        who: actorName(notification.actor),
        action: 'sent feedback',
        preview: notification.feedback?.message
          ? truncate(notification.feedback.message, FEEDBACK_PREVIEW_LENGTH)
          : undefined,
      };
    case 'account_application':
      return {
        who: notification.application?.name ?? 'Someone',
        action: 'applied for account access',
        preview: notification.application
          ? truncate(
              `${notification.application.contactInfo} · ${notification.application.message}`,
              FEEDBACK_PREVIEW_LENGTH,
            )
          : undefined,
      };
    case 'feedback_reply':
      return {
        who: actorName(notification.actor),
        action: 'replied to your feedback',
        preview: notification.reply,
      };
    case 'content_removed':
      return {
        who: 'Campus',
        action:
          notification.targetType === 'post'
            ? 'removed your post after reports'
            : 'removed your comment after reports',
        preview: notification.content
          ? truncate(notification.content, POST_PREVIEW_LENGTH)
          : undefined,
        detail: notification.reason ? reasonText(notification.reason) : undefined,
      };
    case 'appeal_decided':
      return {
        who: 'Campus',
        action:
          APPEAL_OUTCOMES[notification.decisionKind]?.[notification.outcome] ??
          'decided your appeal',
        preview: notification.content
          ? truncate(notification.content, POST_PREVIEW_LENGTH)
          : undefined,
        detail: notification.response
          ? `From the Campus team: ${notification.response}`
          : undefined,
      };
    default: {
      const forgotten: never = notification;
      return unknownText(forgotten);
    }
  }
}
