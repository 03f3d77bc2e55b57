/**
 * Words of a text as mongod's text index version 3 makes them (its UnicodeFTSTokenizer): runs of
 * non-delimiter code points (see unicode.ts), case-folded, English stop words dropped, stemmed
 * with Snowball's English stemmer (Porter2, from the `porter2` package: the algorithm of the
 * libstemmer mongod bundles), then stripped of diacritics. Only the languages `english` (alias
 * `en`) and `none` (no stop words, no stemming) are implemented; mongod's other languages are
 * refused by the callers with mongod's error for an unknown language.
 */
import { stem as porter2 } from 'porter2';
import { ENGLISH_STOP_WORDS } from './stop-words-english';
import { foldCase, foldString, isDelimiter } from './unicode';

export type TextLanguage = 'english' | 'none';

/** The languages mongod 7.0 knows for text index version 3, with their aliases. */
const MONGOD_LANGUAGES = new Set(
  (
    'danish da dutch nl english en finnish fi french fr german de hungarian hu italian it ' +
    'norwegian nb portuguese pt romanian ro russian ru spanish es swedish sv turkish tr none'
  ).split(' '),
);

/** The language a name stands for (case-insensitive, as mongod looks them up), if implemented. */
export function textLanguage(name: string): TextLanguage | undefined {
  const n = name.toLowerCase();
  if (n === 'english' || n === 'en') return 'english';
  if (n === 'none') return 'none';
  return undefined;
}

/** Whether mongod knows the language (then a refusal says it is this server that lacks it). */
export function isMongodLanguage(name: string): boolean {
  return MONGOD_LANGUAGES.has(name.toLowerCase());
}

/** What the message of a refused language adds, when mongod itself would have accepted it. */
export function languageNote(name: string): string {
  return isMongodLanguage(name)
    ? ` (this server's text search implements only the languages english and none)`
    : '';
}

export interface TokenOptions {
  /** Drop stop words (index keys and query terms do; the matcher's checks do not). */
  stopWords: boolean;
  caseSensitive: boolean;
  diacriticSensitive: boolean;
}

// eslint-disable-next-line no-control-regex -- the ASCII range
const NON_ASCII = /[^\x00-\x7f]/;

/** mongod's `toLowerToBuf`: every code point case-folded (diacritics kept). */
function lowerFold(s: string): string {
  if (!NON_ASCII.test(s)) return s.toLowerCase();
  let out = '';
  for (const ch of s) out += String.fromCodePoint(foldCase(ch.codePointAt(0)!));
  return out;
}

/**
 * The term of one word under the options; null for a stop word. The word is folded to lower
 * case for the stop-word check (stop words are diacritic-sensitive), kept as written when
 * case-sensitive, stemmed (the stemmer is diacritic-sensitive), then stripped of diacritics.
 */
function term(raw: string, language: TextLanguage, opts: TokenOptions): string | null {
  const lower = lowerFold(raw);
  if (opts.stopWords && language === 'english' && ENGLISH_STOP_WORDS.has(lower)) return null;
  const word = opts.caseSensitive ? raw : lower;
  const stemmed = language === 'english' ? porter2(word) : word;
  return opts.diacriticSensitive ? stemmed : foldString(stemmed, true, false);
}

/**
 * Terms of the default options (index keys, query bounds) by word, per language: a text index
 * over many documents meets the same words again and again. Cleared when it grows too large.
 */
const termCache: Record<TextLanguage, Map<string, string | null>> = {
  english: new Map(),
  none: new Map(),
};
const TERM_CACHE_LIMIT = 200_000;

const DEFAULT_OPTIONS: TokenOptions = {
  stopWords: true,
  caseSensitive: false,
  diacriticSensitive: false,
};

/** ASCII delimiters (the common case, read from a table): English, then other languages. */
const ASCII_DELIMITERS = [true, false].map((english) => {
  const table = new Uint8Array(128);
  for (let c = 0; c < 128; c++) table[c] = isDelimiter(c, english) ? 1 : 0;
  return table;
});

/** The end of the run of delimiters (`delimiters`) or of non-delimiters starting at `i`. */
function runEnd(
  text: string,
  i: number,
  delimiters: boolean,
  ascii: Uint8Array,
  english: boolean,
): number {
  const n = text.length;
  const want = delimiters ? 1 : 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (ascii[c] !== want) return i;
      i++;
      continue;
    }
    const cp = text.codePointAt(i)!;
    if (isDelimiter(cp, english) !== delimiters) return i;
    i += cp > 0xffff ? 2 : 1;
  }
  return n;
}

/** The terms of a text in order (repeated terms repeated), as mongod's tokenizer yields them. */
export function tokenize(
  text: string,
  language: TextLanguage,
  opts: TokenOptions = DEFAULT_OPTIONS,
): string[] {
  const english = language === 'english';
  const ascii = ASCII_DELIMITERS[english ? 0 : 1]!;
  const cached =
    opts.stopWords && !opts.caseSensitive && !opts.diacriticSensitive
      ? termCache[language]
      : undefined;
  const out: string[] = [];
  const n = text.length;
  let i = runEnd(text, 0, true, ascii, english);
  while (i < n) {
    const end = runEnd(text, i, false, ascii, english);
    const raw = text.slice(i, end);
    i = runEnd(text, end, true, ascii, english);
    let t: string | null | undefined = cached?.get(raw);
    if (t === undefined) {
      t = term(raw, language, opts);
      if (cached) {
        if (cached.size >= TERM_CACHE_LIMIT) cached.clear();
        cached.set(raw, t);
      }
    }
    if (t !== null) out.push(t);
  }
  return out;
}
