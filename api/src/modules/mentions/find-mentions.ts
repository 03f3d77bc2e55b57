/**
 * Where the picked members' mentions stand in a text (issue 40, contracts' text-entities.ts): for
 * each member, the first occurrence of '@' + their name, at a word boundary, not already taken by
 * another mention. Pure: the callers read the names.
 */
import { MAX_MENTIONS_PER_TEXT } from '@campus/contracts';
import type { StoredMention } from './stored';

/** One pick: the member, and the texts that mention them ('@' + the name now, then as written before). */
export interface MentionPick {
  userId: number;
  written: string[];
}

/** What may not stand right before '@' ('ann@example.org' mentions no one)... */
const WORD_BEFORE = /[\p{L}\p{M}\p{N}_@.+-]/u;
/** ...nor right after the name ('@Ann' is not in '@Anna'). */
const WORD_AFTER = /[\p{L}\p{M}\p{N}_]/u;

/** The code point that ends just before `index` (a surrogate pair as one). */
function codePointBefore(text: string, index: number): string {
  if (index <= 0) return '';
  const low = text.charCodeAt(index - 1);
  if (index >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(index - 2, index);
  }
  return text[index - 1]!;
}

function codePointAt(text: string, index: number): string {
  const code = text.codePointAt(index);
  return code === undefined ? '' : String.fromCodePoint(code);
}

/** Whether `written` stands alone at `start` of `text`. */
function atWordBoundary(text: string, start: number, written: string): boolean {
  const before = codePointBefore(text, start);
  const after = codePointAt(text, start + written.length);
  const lastOfName = codePointBefore(written, written.length);
  return (
    (before === '' || !WORD_BEFORE.test(before)) &&
    // A name that ends in punctuation ('Ann Jr.') needs no boundary after it.
    (after === '' || !WORD_AFTER.test(after) || !WORD_AFTER.test(lastOfName))
  );
}

/**
 * The mentions of `picks` in `text`, in text order, at most `MAX_MENTIONS_PER_TEXT` (the first
 * ones in the text; later ones stay plain text). A member picked twice takes two occurrences; a
 * pick found nowhere is left out. Longer names are placed first, so '@Ann Lee' is not taken by
 * a pick of '@Ann'.
 */
export function placeMentions(text: string, picks: readonly MentionPick[]): StoredMention[] {
  const taken: StoredMention[] = [];
  const overlaps = (start: number, end: number) =>
    taken.some((m) => start < m.end && m.start < end);
  const longestFirst = picks
    .map((pick, order) => ({
      pick,
      order,
      length: Math.max(0, ...pick.written.map((w) => w.length)),
    }))
    .sort((a, b) => b.length - a.length || a.order - b.order);
  for (const { pick } of longestFirst) {
    for (const written of new Set(pick.written)) {
      if (written.length < 2 || !written.startsWith('@')) continue;
      let found: StoredMention | undefined;
      for (let at = text.indexOf(written); at !== -1; at = text.indexOf(written, at + 1)) {
        const end = at + written.length;
        if (!overlaps(at, end) && atWordBoundary(text, at, written)) {
          found = { userId: pick.userId, start: at, end };
          break;
        }
      }
      if (found) {
        taken.push(found);
        break;
      }
    }
  }
  return taken.sort((a, b) => a.start - b.start).slice(0, MAX_MENTIONS_PER_TEXT);
}
