/**
 * How muted words and phrases match text (issue 38): whole words, case-insensitively, with
 * diacritics folded (“Café” matches “cafe”), hashtags included (“exam” hides “#exam”), and a
 * phrase's words separated by any run of spaces.
 */

/** Lower case, without combining marks (diacritics), spaces collapsed. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim();
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A word character: what may not touch a muted word on either side. */
const WORD = '[\\p{L}\\p{N}_]';

/** One matcher for a set of folded phrases: the phrase found in a text, or undefined. */
export class PhraseMatcher {
  private readonly pattern: RegExp | undefined;
  private readonly byFolded: Map<string, string>;

  /** `phrases`: folded phrase → the phrase as its owner typed it. */
  constructor(phrases: ReadonlyMap<string, string>) {
    this.byFolded = new Map(phrases);
    const alternatives = [...phrases.keys()]
      // Longest first: "exam week" is named rather than "exam" when both are muted.
      .sort((a, b) => b.length - a.length)
      .map((folded) => escape(folded).replace(/ /g, '\\s+'));
    this.pattern = alternatives.length
      ? new RegExp(`(?<!${WORD})(?:${alternatives.join('|')})(?!${WORD})`, 'u')
      : undefined;
  }

  get empty(): boolean {
    return this.pattern === undefined;
  }

  /** The muted phrase `folded` (a text folded by `foldText`) contains, or undefined. */
  find(folded: string): string | undefined {
    if (!this.pattern) return undefined;
    const match = this.pattern.exec(folded);
    if (!match) return undefined;
    const found = match[0].replace(/\s+/gu, ' ');
    return this.byFolded.get(found) ?? found;
  }
}
