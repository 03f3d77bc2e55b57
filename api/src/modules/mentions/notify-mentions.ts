/**
 * Mention notifications (issue 40): one per mentioned member and post or comment, in the write's
 * transaction. Never to the writer, nor to a member blocked either way with the writer (or with
 * an author whose post this one is under or quotes: the member would not see it), nor to one
 * who mutes the writer; never twice for the same post or comment (the registry's key), so an
 * edit notifies only members it newly mentions.
 */
import type { AppContext } from '../../context';
import { notify } from '../notifications/notify';
import { withdrawMentionNotifications } from '../notifications/withdraw-mentions';
import { blockedAmong, viewerSafety } from '../safety/relations';
import type { StoredMention } from './stored';

export interface MentionSource {
  /** Who wrote the text. */
  writerId: number;
  /** The post mentioned in, or the post the comment is under. */
  postId: number;
  /** The comment mentioned in; null for the post's own text. */
  commentId: number | null;
  mentions: readonly StoredMention[] | null | undefined;
  /** Authors whose blocks also keep the text from a member (the post's, the quoted post's). */
  shownWith?: readonly (number | null | undefined)[];
  /** Members this write notifies already (a reply's parent author, the post's author). */
  notified?: ReadonlySet<number>;
}

export async function notifyMentions(ctx: AppContext, source: MentionSource): Promise<void> {
  const { writerId, postId, commentId } = source;
  const recipients = [...new Set((source.mentions ?? []).map((m) => m.userId))].filter(
    (id) => id !== writerId && !source.notified?.has(id),
  );
  if (recipients.length === 0) return;
  const authors = new Set(
    [writerId, ...(source.shownWith ?? [])].filter((id): id is number => typeof id === 'number'),
  );
  const blocked = new Set<number>();
  for (const author of authors)
    for (const id of await blockedAmong(ctx, author, recipients)) blocked.add(id);
  for (const userId of recipients) {
    if (blocked.has(userId)) continue;
    if ((await viewerSafety(ctx, userId)).mutes(writerId)) continue;
    await notify(ctx, 'mention', userId, { actorId: writerId, postId, commentId });
  }
}

/** A post was deleted or removed: the mentions in it and under it notify no more. */
export function withdrawPostMentions(ctx: AppContext, postId: number): Promise<void> {
  return withdrawMentionNotifications(ctx, postId);
}
