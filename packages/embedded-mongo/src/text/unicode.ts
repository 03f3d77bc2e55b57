/**
 * The Unicode rules of mongod's text indexes (version 3): which code points separate words,
 * case folding and diacritic removal, each per code point as mongod's generated tables do.
 *
 * mongod generates its tables from the Unicode 8.0 character database; here the same
 * properties are read from the JavaScript engine's own tables (a later Unicode version), so a
 * code point assigned or re-classified after Unicode 8.0 may be treated differently. Results
 * are cached per code point.
 */

/**
 * A delimiter has one of the properties White_Space, Dash, Hyphen, Quotation_Mark,
 * Terminal_Punctuation, Pattern_Syntax or Sentence_Terminal (mongod's gen_delimiter_list.py).
 * Hyphen is not a property JavaScript regular expressions know: its code points are listed.
 */
const DELIMITER =
  /[\p{White_Space}\p{Dash}\p{Quotation_Mark}\p{Terminal_Punctuation}\p{Pattern_Syntax}\p{Sentence_Terminal}\u002d\u00ad\u058a\u1806\u2010\u2011\u2e17\u30fb\ufe63\uff0d\uff65]/u;
const DIACRITIC = /\p{Diacritic}/u;

/** 0: not computed yet, 1: not a delimiter, 2: a delimiter (code points up to U+FFFF). */
const delimiterCache = new Uint8Array(0x10000);
const APOSTROPHE = 0x27;

/**
 * Whether a code point separates words. In English the apostrophe does not ("don't", "o'neil"
 * stay one word, as mongod's English delimiter table says); in other languages it does.
 */
export function isDelimiter(cp: number, english: boolean): boolean {
  if (cp === APOSTROPHE) return !english;
  if (cp < 0x10000) {
    let c = delimiterCache[cp]!;
    if (c === 0) {
      c = DELIMITER.test(String.fromCharCode(cp)) ? 2 : 1;
      delimiterCache[cp] = c;
    }
    return c === 2;
  }
  return DELIMITER.test(String.fromCodePoint(cp));
}

const foldCache = new Map<number, number>();

/**
 * Simple (one code point to one) case folding, mongod's `codepointToLower` outside Turkish: the
 * lower case of the upper case when both are single code points (so that final sigma, long s,
 * the micro sign... fold like their letters), else the lower case when it is one code point,
 * else the code point itself (İ stays İ, as in mongod's table).
 */
export function foldCase(cp: number): number {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp | 0x20 : cp;
  let f = foldCache.get(cp);
  if (f === undefined) {
    const s = String.fromCodePoint(cp);
    const upper = s.toUpperCase();
    const viaUpper =
      singleCodePoint(upper) !== undefined ? singleCodePoint(upper.toLowerCase()) : undefined;
    f = viaUpper ?? singleCodePoint(s.toLowerCase()) ?? cp;
    foldCache.set(cp, f);
  }
  return f;
}

function singleCodePoint(s: string): number | undefined {
  const cp = s.codePointAt(0);
  if (cp === undefined) return undefined;
  return s.length === (cp > 0xffff ? 2 : 1) ? cp : undefined;
}

const diacriticCache = new Map<number, number>();

/**
 * mongod's `codepointRemoveDiacritics`: a diacritic (Unicode property Diacritic) is removed (0);
 * a letter whose canonical decomposition without its diacritics recomposes to one code point
 * becomes that code point (é → e, ñ → n); anything else is unchanged.
 */
export function removeDiacritics(cp: number): number {
  if (cp < 0x80) return cp === 0x5e || cp === 0x60 ? 0 : cp; // ^ and ` are ASCII's diacritics
  let r = diacriticCache.get(cp);
  if (r === undefined) {
    const s = String.fromCodePoint(cp);
    if (DIACRITIC.test(s)) r = 0;
    else {
      let stripped = '';
      for (const ch of s.normalize('NFD')) if (!DIACRITIC.test(ch)) stripped += ch;
      const c = singleCodePoint(stripped.normalize('NFC'));
      r = c !== undefined && c !== cp ? c : cp;
    }
    diacriticCache.set(cp, r);
  }
  return r;
}

/** Whether a string is ASCII without upper case letters, `^` or `` ` `` (folding leaves it as is). */
// eslint-disable-next-line no-control-regex -- the ASCII range
const FOLDED_ASCII = /^[\x00-\x40\x5b-\x5d\x5f\x61-\x7f]*$/;

// eslint-disable-next-line no-control-regex -- the ASCII range
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_DIACRITICS = /[\^`]/g;

/**
 * mongod's `caseFoldAndStripDiacritics`: each code point case-folded unless `caseSensitive`,
 * then stripped of diacritics unless `diacriticSensitive`.
 */
export function foldString(s: string, caseSensitive: boolean, diacriticSensitive: boolean): string {
  if ((caseSensitive && diacriticSensitive) || FOLDED_ASCII.test(s)) return s;
  if (ASCII.test(s)) {
    // The common case, without a loop over code points: ASCII's case folding is its lower case
    // and its only diacritics are ^ and ` (NUL is kept, as FOLDED_ASCII keeps it).
    const folded = caseSensitive ? s : s.toLowerCase();
    return diacriticSensitive ? folded : folded.replace(ASCII_DIACRITICS, '');
  }
  let out = '';
  for (const ch of s) {
    let cp = ch.codePointAt(0)!;
    if (!caseSensitive) cp = foldCase(cp);
    if (!diacriticSensitive) {
      cp = removeDiacritics(cp);
      if (cp === 0) continue;
    }
    out += String.fromCodePoint(cp);
  }
  return out;
}
