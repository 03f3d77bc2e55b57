import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import { notificationsOf } from './model';

/**
 * Withdraws the notifications about these comments (their author deleted them: a comment or
 * reply notification no longer points at anything said), in the caller's transaction.
 */
export async function withdrawCommentNotifications(
  ctx: AppContext,
  commentIds: number[],
): Promise<void> {
  if (commentIds.length === 0) return;
  const Notification = notificationsOf(ctx);
  const filter = { commentId: trusted({ $in: commentIds }) };
  const found = await Notification.find(filter, { userId: 1 }).lean();
  if (found.length === 0) return;
  const recipients = new Set(found.map((n) => n.userId));
  await Notification.deleteMany(filter);
  for (const userId of recipients) ctx.publish({ type: 'notification.withdrawn', userId });
}
