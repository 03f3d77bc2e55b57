/**
 * Notifications as a recipient's blocks, mutes and muted words leave them (issue 38): members'
 * activity (likes, comments, replies, reposts, follows, mentions) by a member blocked either way or muted
 * is hidden, and so are comments and replies that contain a muted word. The administrator's
 * notifications (feedback, applications, moderation) are never hidden.
 */
import type { Notification as NotificationView, NotificationType } from '@campus/contracts';
import { foldText } from '../safety/muted-words-match';
import type { ViewerSafety } from '../safety/relations';
import type { NotificationDoc } from './model';

const MEMBER_ACTIVITY: ReadonlySet<NotificationType> = new Set([
  'like',
  'comment',
  'reply',
  'repost',
  'follow',
  'mention',
]);

/** Whether the recipient hides who caused `n`. */
export function hidesActor(
  safety: ViewerSafety,
  n: Pick<NotificationDoc, 'type' | 'actorId'>,
): boolean {
  return MEMBER_ACTIVITY.has(n.type) && n.actorId !== null && safety.hides(n.actorId);
}

/** Whether a notification, as its recipient sees it, is hidden by their blocks, mutes or words. */
export function hidesView(safety: ViewerSafety, view: NotificationView): boolean {
  if (safety.empty || !MEMBER_ACTIVITY.has(view.type)) return false;
  if ('actor' in view && view.actor && safety.hides(view.actor.id)) return true;
  if ('commentText' in view && view.commentText && !safety.words.empty)
    return safety.words.find(foldText(view.commentText)) !== undefined;
  return false;
}

/** `items` without those whose actor the recipient hides. */
export function withoutHiddenActors(safety: ViewerSafety, items: NotificationDoc[]) {
  return safety.empty ? items : items.filter((n) => !hidesActor(safety, n));
}

/** `views` without those the recipient hides. */
export function withoutHiddenViews<V extends NotificationView>(safety: ViewerSafety, views: V[]) {
  return safety.empty ? views : views.filter((v) => !hidesView(safety, v));
}
