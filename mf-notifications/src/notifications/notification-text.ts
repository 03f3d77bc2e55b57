import type { Notification } from '@campus/contracts';
import { truncate } from '@campus/kit/format';

/** Spec §2/§9: post previews are cut to 100 characters, feedback to 200. */
export const POST_PREVIEW_LENGTH = 100;
export const FEEDBACK_PREVIEW_LENGTH = 200;

export function notificationText(notification: Notification): { action: string; preview?: string } {
  const post = notification.post?.content
    ? truncate(notification.post.content, POST_PREVIEW_LENGTH)
    : undefined;
  switch (notification.type) {
    case 'like':
      return { action: 'liked your post', preview: post };
    case 'comment':
      return { action: 'commented on your post', preview: post };
    case 'repost':
      return { action: 'reposted your post', preview: post };
    case 'follow':
      return { action: 'started following you' };
    case 'feedback':
      return {
        action: 'sent feedback',
        preview: notification.feedback?.message
          ? truncate(notification.feedback.message, FEEDBACK_PREVIEW_LENGTH)
          : undefined,
      };
    default:
      return { action: 'sent you a notification', preview: post };
  }
}
