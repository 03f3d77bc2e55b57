// Writing an @mention (issue 40): where the member is typing one, what picking a member puts in
// the text, and which picked members the text still mentions. Pure, so the rules are tested alone.
import { MAX_MENTIONS_PER_TEXT } from '@campus/contracts';

/** A member picked in the autocomplete: the writing call sends their id (`mentions`). */
export interface MentionPick {
  id: number;
  name: string;
}

/** The '@…' being typed: where its '@' is and what follows it up to the caret. */
export interface ActiveMention {
  start: number;
  query: string;
}

/** What the API matches a query against at most (contracts' mentionSuggestionsQuerySchema). */
const MAX_QUERY_LENGTH = 50;
/**
 * '@' where a word starts (not in `ada@campus.edu`), then up to three words of a name as typed so
 * far, one space apart: 'Ada Ok' still looks for Ada Okafor.
 */
const TYPING_MENTION = /(?<![\p{L}\p{M}\p{N}_@])@((?:[^\s@]+ ?){0,3})$/u;

/** The mention being typed before the caret, if any (none inside a selection). */
export function activeMention(text: string, caret: number): ActiveMention | null {
  // Only the last characters can hold it: a short window keeps the pattern's work small.
  const from = Math.max(0, caret - MAX_QUERY_LENGTH - 1);
  const match = TYPING_MENTION.exec(text.slice(from, caret));
  if (!match) return null;
  const start = from + match.index;
  if (match.index === 0 && start > 0 && /[\p{L}\p{M}\p{N}_@]/u.test(text[start - 1]!)) return null;
  return { start, query: match[1] ?? '' };
}

/** The text with the typed '@…' (from `start` to `caret`) replaced by '@Name ', and the caret after it. */
export function insertMention(
  text: string,
  { start, caret }: { start: number; caret: number },
  name: string,
): { text: string; caret: number } {
  const inserted = `@${name} `;
  const rest = text.slice(caret).replace(/^ /, '');
  return { text: text.slice(0, start) + inserted + rest, caret: start + inserted.length };
}

const NAME_CHARACTER = /[\p{L}\p{M}\p{N}_]/u;

/** Where '@' + name stands in the text as a whole word, or -1. */
function mentionIndex(text: string, name: string): number {
  const written = `@${name}`;
  for (let at = text.indexOf(written); at >= 0; at = text.indexOf(written, at + 1)) {
    const after = text[at + written.length];
    const before = at > 0 ? text[at - 1] : undefined;
    if (
      (after === undefined || !NAME_CHARACTER.test(after)) &&
      !(before && NAME_CHARACTER.test(before))
    )
      return at;
  }
  return -1;
}

/**
 * The `mentions` of a writing call: the picked members whose '@Name' is still in the text, in the
 * order they appear, each once, at most `MAX_MENTIONS_PER_TEXT` (the API ignores the rest); empty
 * when the member deleted them all.
 */
export function mentionIdsIn(text: string, picks: readonly MentionPick[]): number[] {
  const found = new Map<number, number>();
  for (const { id, name } of picks) {
    const at = mentionIndex(text, name);
    if (at >= 0 && !found.has(id)) found.set(id, at);
  }
  return [...found]
    .sort(([, a], [, b]) => a - b)
    .map(([id]) => id)
    .slice(0, MAX_MENTIONS_PER_TEXT);
}
