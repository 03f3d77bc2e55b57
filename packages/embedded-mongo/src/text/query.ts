/**
 * A `$text` query as mongod reads it: the operator's arguments (ExtensionsCallback), the search
 * string's terms, negated terms and phrases (FTSQueryImpl::parse with FTSQueryParser), and the
 * check a candidate document must pass (FTSMatcher: a positive term when case- or
 * diacritic-sensitive, no negated term, every phrase, no negated phrase).
 */
import { serverError } from '../errors';
import { isPlainObject, type Doc } from '../values';
import { foldString } from './unicode';
import type { TextSpec } from './spec';
import { languageNote, textLanguage, tokenize, type TextLanguage } from './tokenizer';

export interface TextArgs {
  search: string;
  /** `$language`, '' when absent (then the index's default language). */
  language: string;
  caseSensitive: boolean;
  diacriticSensitive: boolean;
}

const TYPE_NAMES: Array<[(v: unknown) => boolean, string]> = [
  [(v) => typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 31, 'int'],
  [(v) => typeof v === 'number', 'double'],
  [(v) => typeof v === 'boolean', 'bool'],
  [(v) => typeof v === 'string', 'string'],
  [(v) => v === null, 'null'],
  [Array.isArray, 'array'],
  [(v) => v instanceof Date, 'date'],
  [isPlainObject, 'object'],
];

function typeName(v: unknown): string {
  return TYPE_NAMES.find(([test]) => test(v))?.[1] ?? 'object';
}

function field(obj: Doc, name: string, type: 'string' | 'bool', required: boolean): unknown {
  const v = obj[name];
  if (v === undefined) {
    if (required) throw serverError('NoSuchKey', `Missing expected field "${name}"`);
    return undefined;
  }
  if (typeName(v) !== type)
    throw serverError(
      'TypeMismatch',
      `"${name}" had the wrong type. Expected ${type}, found ${typeName(v)}`,
    );
  return v;
}

/** The arguments of `$text`, checked as mongod checks them. */
export function parseTextArgs(arg: unknown): TextArgs {
  if (!isPlainObject(arg)) throw serverError('BadValue', '$text expects an object');
  const search = field(arg, '$search', 'string', true) as string;
  let expected = 1;
  const language = field(arg, '$language', 'string', false) as string | undefined;
  if (language !== undefined) expected++;
  const caseSensitive = field(arg, '$caseSensitive', 'bool', false) as boolean | undefined;
  if (caseSensitive !== undefined) expected++;
  const diacriticSensitive = field(arg, '$diacriticSensitive', 'bool', false) as
    boolean | undefined;
  if (diacriticSensitive !== undefined) expected++;
  if (Object.keys(arg).length !== expected) throw serverError('BadValue', 'extra fields in $text');
  return {
    search,
    language: language ?? '',
    caseSensitive: caseSensitive ?? false,
    diacriticSensitive: diacriticSensitive ?? false,
  };
}

export interface TextQuery {
  language: TextLanguage;
  caseSensitive: boolean;
  diacriticSensitive: boolean;
  /** Terms as the index holds them (folded): what is looked up, and what scores. */
  termsForBounds: Set<string>;
  /** Terms as the matcher compares them (case- or diacritic-sensitive when asked). */
  positiveTerms: Set<string>;
  negatedTerms: Set<string>;
  positivePhrases: string[];
  negatedPhrases: string[];
}

type TokenType = 'text' | 'delimiter' | 'whitespace';

/** FTSQueryParser's classes: only LF, VT, FF, CR and space are white space; `-` and `"` delimit. */
function charType(c: string): TokenType {
  switch (c) {
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case ' ':
      return 'whitespace';
    case '-':
    case '"':
      return 'delimiter';
    default:
      return 'text';
  }
}

interface QueryToken {
  type: 'text' | 'delimiter';
  data: string;
  offset: number;
  previousWhiteSpace: boolean;
}

function* queryTokens(raw: string): Generator<QueryToken> {
  let pos = 0;
  const skipWhitespace = (): boolean => {
    const start = pos;
    while (pos < raw.length && charType(raw[pos]!) === 'whitespace') pos++;
    return pos > start;
  };
  skipWhitespace();
  let previousWhiteSpace = true;
  while (pos < raw.length) {
    const start = pos++;
    const type = charType(raw[start]!) as 'text' | 'delimiter';
    if (type === 'text') while (pos < raw.length && charType(raw[pos]!) === 'text') pos++;
    const token = { type, data: raw.slice(start, pos), offset: start, previousWhiteSpace };
    previousWhiteSpace = skipWhitespace();
    yield token;
  }
}

/**
 * The terms and phrases of a search string (FTSQueryImpl::parse): words outside quotes are
 * terms, `-word` (after white space) a negated term, `"..."` a phrase whose words are terms too,
 * `-"..."` a negated phrase (its words are not terms). `language` must be implemented; an
 * unknown one is mongod's BadValue.
 */
export function parseTextQuery(args: TextArgs, defaultLanguage: TextLanguage): TextQuery {
  let language = defaultLanguage;
  if (args.language !== '') {
    const l = textLanguage(args.language);
    if (!l)
      throw serverError(
        'BadValue',
        `unsupported language: "${args.language}" for text index version 3${languageNote(args.language)}`,
      );
    language = l;
  }
  const raw = args.search;
  let positiveSentence = '';
  let negativeSentence = '';
  const positivePhrases: string[] = [];
  const negatedPhrases: string[] = [];
  let inNegation = false;
  let inPhrase = false;
  let quoteOffset = 0;
  for (const t of queryTokens(raw)) {
    if (t.type === 'text') {
      if (inPhrase && inNegation) continue;
      // A negation lasts until the next white space: "-foo-bar" negates both words.
      if (inNegation && t.previousWhiteSpace) inNegation = false;
      if (inNegation) negativeSentence += `${t.data} `;
      else positiveSentence += `${t.data} `;
    } else if (t.data === '-') {
      if (!inPhrase && t.previousWhiteSpace) inNegation = true;
    } else if (inPhrase) {
      const phrase = raw.slice(quoteOffset + 1, t.offset);
      (inNegation ? negatedPhrases : positivePhrases).push(phrase);
      inPhrase = false;
    } else {
      inPhrase = true;
      if (inNegation && t.previousWhiteSpace) inNegation = false;
      quoteOffset = t.offset;
    }
  }

  const termsForBounds = new Set<string>();
  const positiveTerms = new Set<string>();
  const negatedTerms = new Set<string>();
  const sensitive = args.caseSensitive || args.diacriticSensitive;
  const addTerms = (sentence: string, negated: boolean) => {
    const active = negated ? negatedTerms : positiveTerms;
    for (const word of tokenize(sentence, language)) {
      if (!negated) termsForBounds.add(word);
      if (!sensitive) active.add(word);
    }
    if (!sensitive) return;
    const options = {
      stopWords: true,
      caseSensitive: args.caseSensitive,
      diacriticSensitive: args.diacriticSensitive,
    };
    for (const word of tokenize(sentence, language, options)) active.add(word);
  };
  addTerms(positiveSentence, false);
  addTerms(negativeSentence, true);
  return {
    language,
    caseSensitive: args.caseSensitive,
    diacriticSensitive: args.diacriticSensitive,
    termsForBounds,
    positiveTerms,
    negatedTerms,
    positivePhrases,
    negatedPhrases,
  };
}

/** Whether a document found through the index's terms matches the whole query (FTSMatcher). */
export function textMatches(spec: TextSpec, query: TextQuery, doc: Doc): boolean {
  const sensitive = query.caseSensitive || query.diacriticSensitive;
  if (sensitive && !hasTerm(spec, query, doc, query.positiveTerms)) return false;
  if (query.negatedTerms.size > 0 && hasTerm(spec, query, doc, query.negatedTerms)) return false;
  for (const phrase of query.positivePhrases)
    if (!phraseMatches(spec, query, doc, phrase)) return false;
  for (const phrase of query.negatedPhrases)
    if (phraseMatches(spec, query, doc, phrase)) return false;
  return true;
}

/** Whether a document can only be decided by reading it (not by its index terms alone). */
export function needsMatcher(query: TextQuery): boolean {
  return (
    query.caseSensitive ||
    query.diacriticSensitive ||
    query.negatedTerms.size > 0 ||
    query.positivePhrases.length > 0 ||
    query.negatedPhrases.length > 0
  );
}

function hasTerm(spec: TextSpec, query: TextQuery, doc: Doc, terms: Set<string>): boolean {
  const options = {
    stopWords: false,
    caseSensitive: query.caseSensitive,
    diacriticSensitive: query.diacriticSensitive,
  };
  for (const { text, language } of spec.values(doc))
    for (const word of tokenize(text, language, options)) if (terms.has(word)) return true;
  return false;
}

/** A phrase is a substring of one of the strings, both folded as the query asks. */
function phraseMatches(spec: TextSpec, query: TextQuery, doc: Doc, phrase: string): boolean {
  const needle = foldString(phrase, query.caseSensitive, query.diacriticSensitive);
  for (const { text } of spec.values(doc))
    if (foldString(text, query.caseSensitive, query.diacriticSensitive).includes(needle))
      return true;
  return false;
}
