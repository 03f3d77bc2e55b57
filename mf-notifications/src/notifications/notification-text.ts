import type { Notification } from '@campus/contracts';
import { truncate } from '@campus/kit/format';

/** Spec §2/§9: post previews are cut to 100 characters, feedback to 200. */
export const POST_PREVIEW_LENGTH = 100;
export const FEEDBACK_PREVIEW_LENGTH = 200;

export interface NotificationText {
  /** Who did it: the actor, the applicant of an account application, or 'Someone'. */
  who: string;
  action: string;
  preview?: string;
}

/** How each notification type reads; any type this client does not know gets a default wording. */
export function notificationText(notification: Notification): NotificationText {
  const who = notification.actor?.name ?? notification.application?.name ?? 'Someone';
  const post = notification.post?.content
    ? truncate(notification.post.content, POST_PREVIEW_LENGTH)
    : undefined;
  switch (notification.type) {
    case 'like':
      return { who, action: 'liked your post', preview: post };
    case 'comment':
      return { who, action: 'commented on your post', preview: post };
    case 'reply':
      return { who, action: 'replied to your comment', preview: post };
    case 'repost':
      return { who, action: 'reposted your post', preview: post };
    case 'follow':
      return { who, action: 'started following you' };
    case 'feedback':
      return {
        who,
        action: 'sent feedback',
        preview: notification.feedback?.message
          ? truncate(notification.feedback.message, FEEDBACK_PREVIEW_LENGTH)
          : undefined,
      };
    case 'account_application':
      return {
        who,
        action: 'applied for account access',
        preview: notification.application
          ? truncate(
              `${notification.application.contactInfo} · ${notification.application.message}`,
              FEEDBACK_PREVIEW_LENGTH,
            )
          : undefined,
      };
    default:
      return { who, action: 'sent you a notification', preview: post };
  }
}
