import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import { notificationsOf } from './model';
import { mentionKeyPrefix } from './registry';

/**
 * Withdraws the mention notifications (issue 40) about a post, in it or in comments under it:
 * the post was deleted or removed, so nothing is left to be mentioned in. In the caller's
 * transaction. Found by their keys' prefix (the unique `dedupeKey` index), not by a scan.
 * (A comment deleted alone: `withdrawCommentNotifications`.)
 */
export async function withdrawMentionNotifications(ctx: AppContext, postId: number): Promise<void> {
  const Notification = notificationsOf(ctx);
  const prefix = mentionKeyPrefix(postId);
  const filter = { dedupeKey: trusted({ $gte: prefix, $lt: `${prefix}\uffff` }) };
  const found = await Notification.find(filter, { userId: 1 }).lean();
  if (found.length === 0) return;
  await Notification.deleteMany(filter);
  for (const userId of new Set(found.map((n) => n.userId)))
    ctx.publish({ type: 'notification.withdrawn', userId });
}
