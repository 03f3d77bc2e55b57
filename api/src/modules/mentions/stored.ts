/**
 * How a mention is stored on a post or a comment (issue 40): the member's id and where '@Name'
 * stands in the text (UTF-16 offsets), so a rename keeps the link. Posts and comments declare
 * the field with `storedMentionsField`; clients see `{ id, start, end }` (`presentMentions`).
 */
import { Schema } from 'mongoose';
import type { TextMention } from '@campus/contracts';

export interface StoredMention {
  userId: number;
  start: number;
  end: number;
}

/** The `mentions` field of a model: absent on texts without mentions (most). */
export const storedMentionsField = {
  type: [
    new Schema<StoredMention>(
      {
        userId: { type: Number, required: true },
        start: { type: Number, required: true },
        end: { type: Number, required: true },
      },
      { _id: false },
    ),
  ],
  default: undefined,
};

/** The client's view of stored mentions; undefined when there are none. */
export function presentMentions(
  mentions: readonly StoredMention[] | null | undefined,
): TextMention[] | undefined {
  if (!mentions?.length) return undefined;
  return mentions.map((m) => ({ id: m.userId, start: m.start, end: m.end }));
}
