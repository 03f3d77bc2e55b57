// Hashtags and @mentions in the text of posts, quotes and comments (issue 40). Pure functions and
// constants shared by the API (which stores them) and the clients (which link them), so both
// read the same tags out of the same text.
import { z } from 'zod';
import { idSchema } from './common';

/** At most this many distinct tags of a text count; later ones stay plain text. */
export const MAX_TAGS_PER_TEXT = 10;
/** At most this many mentions of a text count (notify, link); later ones stay plain text. */
export const MAX_MENTIONS_PER_TEXT = 10;
/** A longer run after '#' is not a tag (plain text). */
export const TAG_MAX_LENGTH = 64;

/**
 * A hashtag: '#' followed by letters (with their combining marks), digits and '_' in any script,
 * not preceded by a letter, digit, '_', '#' or '&' (so `a#b`, `##x` and `&#39;` are not tags).
 * Global: use with `matchAll`, or reset `lastIndex`.
 */
export const TAG_PATTERN = /(?<![\p{L}\p{M}\p{N}_#&])#([\p{L}\p{M}\p{N}_]+)/gu;

/**
 * A tag as stored and compared: compatibility-decomposed, non-spacing marks (accents, Arabic
 * harakat) and the Arabic tatweel removed, lowercased, recomposed. '#Café' and '#cafe' are one
 * tag; so are 'مَدرسة' and 'مدرسة'.
 */
export function normalizeTag(raw: string): string {
  return raw
    .normalize('NFKD')
    .replace(/[\p{Mn}\u0640]/gu, '')
    .toLowerCase()
    .normalize('NFC');
}

/** Whether a normalized string is a tag: 1–64 characters of the tag alphabet, not only digits and '_'. */
export function isTag(tag: string): boolean {
  return (
    tag.length > 0 &&
    tag.length <= TAG_MAX_LENGTH &&
    /^[\p{L}\p{M}\p{N}_]+$/u.test(tag) &&
    /[\p{L}]/u.test(tag)
  );
}

/** One tag as it is written in a text: where, what was written, and the tag it counts as. */
export interface TagInText {
  /** UTF-16 offset of the '#'. */
  start: number;
  /** UTF-16 offset just after the tag. */
  end: number;
  /** The tag normalized (`normalizeTag`). */
  tag: string;
}

/**
 * The tags of a text that count, in order of appearance: every occurrence of the first
 * `MAX_TAGS_PER_TEXT` distinct tags. Clients link exactly these; the API stores their distinct
 * `tag`s on the post.
 */
export function tagsInText(text: string): TagInText[] {
  const found: TagInText[] = [];
  const distinct = new Set<string>();
  for (const match of text.matchAll(TAG_PATTERN)) {
    const tag = normalizeTag(match[1]!);
    if (!isTag(tag)) continue;
    if (!distinct.has(tag)) {
      if (distinct.size >= MAX_TAGS_PER_TEXT) continue;
      distinct.add(tag);
    }
    found.push({ start: match.index, end: match.index + match[0].length, tag });
  }
  return found;
}

/** The distinct tags of a text that count (at most `MAX_TAGS_PER_TEXT`), normalized. */
export function extractTags(text: string): string[] {
  return [...new Set(tagsInText(text).map((t) => t.tag))];
}

/**
 * A mention as the API answers it: `text.slice(start, end)` is '@' followed by the member's name
 * as it was when written; it links to the member `id` (so a rename keeps the link). Offsets are
 * UTF-16 code units into the text the mention belongs to (a post's `content`, a quote's
 * `repostComment`, a comment's `content`), never overlapping, in order.
 */
export const textMentionSchema = z.object({
  id: idSchema,
  start: z.number().int().nonnegative(),
  end: z.number().int().positive(),
});
export type TextMention = z.infer<typeof textMentionSchema>;

/**
 * What a writing call (`createPost`, `repost`, `addComment`, `editPost`, `editComment`) takes:
 * the ids of the members the writer picked in the autocomplete. The API finds '@' + each
 * member's current name in the (trimmed) text, at a word boundary, the first occurrence not
 * already taken, and stores a mention there; an id it cannot find in the text, an unknown or
 * inactive member, and everything after the first `MAX_MENTIONS_PER_TEXT` are ignored (plain
 * text). On an edit, a missing `mentions` keeps the earlier mentions whose text is still there.
 */
export const mentionIdsSchema = z
  .array(idSchema, 'mentions must be a list of member ids')
  .max(50, 'mentions must list at most 50 members');
