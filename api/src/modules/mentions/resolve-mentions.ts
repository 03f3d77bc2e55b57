/**
 * The mentions a write stores (issue 40): the members its writer picked in the autocomplete
 * (`mentions: [ids]`), found in the text by their current name. Unknown, unverified or
 * suspended members, members blocked either way with the writer and picks not found in the text
 * are plain text. On an edit, a member mentioned before is also found as their name was written
 * then (they may have been renamed since); without `mentions`, an edit keeps the earlier
 * mentions whose text is still there.
 */
import type { AppContext } from '../../context';
import { blockedAmong } from '../safety/relations';
import { mentionableNames } from '../users/mention-candidates';
import { placeMentions, type MentionPick } from './find-mentions';
import type { StoredMention } from './stored';

/** A text as it was before an edit, with its mentions. */
export interface EarlierText {
  text: string;
  mentions?: readonly StoredMention[] | null;
}

export async function resolveMentions(
  ctx: AppContext,
  writerId: number,
  text: string,
  picked: readonly number[] | undefined,
  earlier?: EarlierText,
): Promise<StoredMention[]> {
  const before = new Map<number, string[]>();
  for (const m of earlier?.mentions ?? []) {
    const written = earlier!.text.slice(m.start, m.end);
    before.set(m.userId, [...(before.get(m.userId) ?? []), written]);
  }
  const ids = picked ?? [...before.keys()];
  if (ids.length === 0) return [];
  const distinct = [...new Set(ids)];
  const [names, blocked] = await Promise.all([
    mentionableNames(ctx, distinct),
    blockedAmong(ctx, writerId, distinct),
  ]);
  const pickOf = (userId: number): MentionPick[] => {
    const name = names.get(userId);
    if (name === undefined || blocked.has(userId)) return [];
    const earlierTexts = before.get(userId) ?? [];
    // Kept from before: as written then. Picked now: by the name now, or as written before.
    return [{ userId, written: picked ? [`@${name}`, ...earlierTexts] : earlierTexts }];
  };
  const picks = picked
    ? picked.flatMap(pickOf)
    : (earlier?.mentions ?? []).flatMap((m) =>
        pickOf(m.userId).map((p) => ({ ...p, written: [earlier!.text.slice(m.start, m.end)] })),
      );
  return placeMentions(text, picks);
}

/** Whether two lists of mentions are the same. */
export function sameMentions(
  a: readonly StoredMention[] | null | undefined,
  b: readonly StoredMention[] | null | undefined,
): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return (
    x.length === y.length &&
    x.every((m, i) => m.userId === y[i]!.userId && m.start === y[i]!.start && m.end === y[i]!.end)
  );
}
