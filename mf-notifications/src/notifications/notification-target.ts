import type { Notification, NotificationGroup } from '@campus/contracts';

/** The fragment the post page scrolls to for one of its comments (agreed with mf-feed). */
export const commentAnchor = (commentId: number) => `#comment-${commentId}`;

/**
 * Where choosing a notification leads (issue 20): the post it is about (at the comment, for a
 * comment, a reply or a mention in one), the follower's profile
 * (the member's followers when several followed that day), the admin's applications or feedback
 * page. Null when there is nowhere to go: a reply to feedback or a removal say all there is.
 */
export function notificationTarget(
  notification: Notification,
  options: { actorsCount?: number; viewerId?: number } = {},
): string | null {
  const { actorsCount = 1, viewerId } = options;
  switch (notification.type) {
    case 'like':
    case 'repost':
      return notification.post ? `/post/${notification.post.id}` : null;
    case 'comment':
    case 'reply':
    case 'mention':
      // At the comment (issue 41: the post page scrolls to it and highlights it), while it exists.
      if (!notification.post) return null;
      return notification.commentId !== null
        ? `/post/${notification.post.id}${commentAnchor(notification.commentId)}`
        : `/post/${notification.post.id}`;
    case 'follow':
      if (actorsCount > 1 && viewerId !== undefined) return `/profile/${viewerId}/followers`;
      return notification.actor ? `/profile/${notification.actor.id}` : null;
    case 'feedback':
      return '/admin/feedback';
    case 'account_application':
      return '/admin/applications';
    case 'feedback_reply':
    case 'content_removed':
    case 'appeal_decided':
      return null;
    default: {
      // a type from a newer API: its post, if it names one
      const post = (notification as { post?: { id?: unknown } | null }).post;
      return typeof post?.id === 'number' ? `/post/${post.id}` : null;
    }
  }
}

/** Where a group leads: its newest member's target, the followers list for several follows. */
export function groupTarget(group: NotificationGroup, viewerId?: number): string | null {
  return notificationTarget(group.latest, { actorsCount: group.actorsCount, viewerId });
}

/**
 * Who did it, for a group: 'Ada Okafor', 'Ada Okafor and Ben Larsen', 'Ada Okafor and 3 others'.
 * `single` is what the newest notification alone would say (for groups without actors).
 */
export function groupActors(group: NotificationGroup, single: string): string {
  const [first, second] = group.actors;
  if (!first || group.actorsCount <= 1) return first?.name ?? single;
  if (group.actorsCount === 2 && second) return `${first.name} and ${second.name}`;
  const others = group.actorsCount - 1;
  return `${first.name} and ${others} ${others === 1 ? 'other' : 'others'}`;
}
