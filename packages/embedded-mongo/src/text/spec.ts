/**
 * Text index specifications as mongod 7.0 stores them (its FTSSpec::fixSpec, text index
 * version 3), the strings of a document a text index reads (FTSElementIterator: weighted
 * fields, dotted paths through arrays, the wildcard `$**`, per-document language), and the
 * score of each term in a document (FTSSpec::scoreDocument).
 */
import { serverError } from '../errors';
import { isPlainObject, valueKey, type Doc } from '../values';
import { languageNote, textLanguage, tokenize, type TextLanguage } from './tokenizer';

/** mongod's MAX_WORD_WEIGHT: weights lie in the open interval (0, 100000). */
const MAX_WORD_WEIGHT = 100_000;
const WILDCARD = '$**';

/** Whether an index key pattern (as given or as stored) makes a text index. */
export function isTextIndexKey(key: Doc): boolean {
  return Object.entries(key).some(([k, v]) => v === 'text' || k === '_fts');
}

function cannotCreate(message: string): Error {
  return serverError('CannotCreateIndex', message);
}

/**
 * The spec mongod stores for a text index: key `{ <prefix>, _fts: 'text', _ftsx: 1, <suffix> }`,
 * `weights` (integers, by field name), `default_language` (as given, `english` when absent),
 * `language_override` (`language`) and `textIndexVersion: 3`, the other options kept in their
 * place. Throws mongod's CannotCreateIndex errors for an invalid spec, and for the languages and
 * versions this server does not implement.
 */
export function normalizeTextIndexSpec(raw: Doc): Doc {
  const rawKey = raw.key as Doc;
  const weights = new Map<string, number>();
  const key: Doc = {};
  let addedFts = false;
  for (const [k, v] of Object.entries(rawKey)) {
    if (k === '_fts') {
      if (v !== 'text') throw cannotCreate('expecting _fts:"text"');
      addedFts = true;
      key._fts = 'text';
    } else if (k === '_ftsx') {
      if (Math.trunc(Number(v)) !== 1) throw cannotCreate('expecting _ftsx:1');
      key._ftsx = 1;
    } else if (v === 'text') {
      if (!addedFts) {
        key._fts = 'text';
        key._ftsx = 1;
        addedFts = true;
      }
      weights.set(k, 1);
    } else {
      const n = typeof v === 'number' ? Math.trunc(v) : NaN;
      if (n !== 1 && n !== -1)
        throw cannotCreate('expected value 1 or -1 for non-text key in compound index');
      key[k] = n;
    }
  }
  checkKeyLayout(rawKey);

  const w = raw.weights;
  if (isPlainObject(w)) {
    for (const [field, value] of Object.entries(w)) {
      if (typeof value !== 'number') throw cannotCreate('weight for text index needs numeric type');
      weights.set(field, Math.trunc(value));
    }
  } else if (w === WILDCARD) {
    weights.set(WILDCARD, 1);
  } else if (w !== undefined) {
    throw cannotCreate("text index option 'weights' must be an object");
  }
  if (weights.size === 0)
    throw cannotCreate("text index option 'weights' must specify fields or the wildcard");
  const sortedWeights: Doc = {};
  for (const field of [...weights.keys()].sort(compareBytes)) {
    const weight = weights.get(field)!;
    if (weight <= 0 || weight >= MAX_WORD_WEIGHT)
      throw cannotCreate(
        `text index weight must be in the exclusive interval (0,${MAX_WORD_WEIGHT}) but found: ${weight}`,
      );
    if (field !== WILDCARD) {
      if (field === '') throw cannotCreate('weight cannot be on an empty field');
      for (const part of field.split('.')) {
        if (part === '') throw cannotCreate('weight cannot have empty path component');
        if (part.startsWith('$'))
          throw cannotCreate('weight cannot have path component with $ prefix');
      }
    }
    sortedWeights[field] = weight;
  }

  let defaultLanguage = raw.default_language;
  if (defaultLanguage === undefined) defaultLanguage = 'english';
  else if (typeof defaultLanguage !== 'string')
    throw cannotCreate('default_language needs a string type');
  else if (!textLanguage(defaultLanguage))
    throw cannotCreate(`default_language is not valid${languageNote(defaultLanguage)}`);

  let override = raw.language_override;
  if (override === undefined) override = 'language';
  else if (typeof override !== 'string') throw cannotCreate('language_override must be a string');
  else if (override === '' || override.startsWith('$') || override.includes('.'))
    throw cannotCreate('language_override is not valid');

  if (raw.textIndexVersion !== undefined) {
    if (typeof raw.textIndexVersion !== 'number')
      throw cannotCreate("text index option 'textIndexVersion' must be a number");
    const version = Math.trunc(raw.textIndexVersion);
    if (version === 2)
      throw cannotCreate(
        'textIndexVersion 2 is not supported by this server: its text indexes are version 3',
      );
    if (version !== 3) throw cannotCreate(`bad textIndexVersion: ${version}`);
  }

  // The fields in their place, the text options where given (else at the end), as fixSpec does.
  const out: Doc = {};
  const pending: Doc = {
    weights: sortedWeights,
    default_language: defaultLanguage,
    language_override: override,
  };
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'key') out.key = key;
    else if (k in pending) {
      out[k] = pending[k];
      delete pending[k];
    } else if (k === 'v' || k === 'textIndexVersion') continue;
    else out[k] = v;
  }
  Object.assign(out, pending);
  out.textIndexVersion = 3;
  return out;
}

/** mongod's layout check: prefix fields, the text fields together, then suffix fields. */
function checkKeyLayout(rawKey: Doc): void {
  const entries = Object.entries(rawKey);
  let i = 0;
  const isText = ([k, v]: [string, unknown]) => typeof v === 'string' || k === '_fts';
  const checkName = (k: string) => {
    if (k === '_fts' || k === '_ftsx')
      throw cannotCreate('text index with reserved fields _fts/_ftsx not allowed');
  };
  for (; i < entries.length && !isText(entries[i]!); i++) checkName(entries[i]![0]);
  if (i >= entries.length)
    throw cannotCreate('expected additional fields in text index key pattern');
  if (entries[i]![0] === '_fts') {
    if (entries[i + 1]?.[0] !== '_ftsx') throw cannotCreate('expected _ftsx after _fts');
    i += 2;
  } else {
    for (; i < entries.length && typeof entries[i]![1] === 'string'; i++) checkName(entries[i]![0]);
  }
  for (; i < entries.length; i++) {
    if (typeof entries[i]![1] === 'string')
      throw cannotCreate("'text' fields in index must all be adjacent");
    checkName(entries[i]![0]);
  }
}

/** std::string's order (bytes), which orders mongod's weights: UTF-16 code units here. */
function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One string a text index reads, with the language and weight it is read with. */
export interface TextValue {
  text: string;
  language: TextLanguage;
  weight: number;
}

/** A stored text index spec, read once (mongod's FTSSpec). */
export class TextSpec {
  /** Weighted fields (not the wildcard), sorted by name. */
  readonly weights: Array<{ name: string; weight: number }>;
  readonly wildcard: boolean;
  readonly defaultLanguage: TextLanguage;
  readonly languageOverride: string;
  /** The key's fields before `_fts` (equalities a $text query must give) and after `_ftsx`. */
  readonly extraBefore: string[];
  readonly extraAfter: string[];

  constructor(spec: Doc) {
    const weights = (spec.weights ?? {}) as Doc;
    this.wildcard = WILDCARD in weights;
    this.weights = Object.entries(weights)
      .filter(([name]) => name !== WILDCARD)
      .map(([name, weight]) => ({ name, weight: Number(weight) }))
      .sort((a, b) => compareBytes(a.name, b.name));
    this.defaultLanguage = textLanguage(String(spec.default_language ?? 'english')) ?? 'english';
    this.languageOverride = String(spec.language_override ?? 'language');
    const before: string[] = [];
    const after: string[] = [];
    let passed = false;
    for (const k of Object.keys(spec.key as Doc)) {
      if (k === '_fts' || k === '_ftsx') passed = true;
      else (passed ? after : before).push(k);
    }
    this.extraBefore = before;
    this.extraAfter = after;
  }

  /** The top-level fields whose values the index reads (all of them with the wildcard). */
  get readsEverything(): boolean {
    return this.wildcard;
  }

  /** Every top-level field name the index's keys depend on (unless `readsEverything`). */
  topLevelFields(): string[] {
    const names = new Set<string>([this.languageOverride]);
    for (const { name } of this.weights) names.add(name.split('.')[0]!);
    for (const f of [...this.extraBefore, ...this.extraAfter]) names.add(f.split('.')[0]!);
    return [...names];
  }

  /**
   * The language of a (sub)document: its language override field when present (a string naming
   * an implemented language, else mongod's errors 17261 / 17262), else its parent's.
   */
  languageOf(obj: Doc, parent: TextLanguage): TextLanguage {
    const v = obj[this.languageOverride];
    if (v === undefined) return parent;
    if (typeof v !== 'string')
      throw serverError(
        'Location17261',
        'found language override field in document with non-string type',
      );
    const language = textLanguage(v);
    if (!language)
      throw serverError('Location17262', `language override unsupported: ${v}${languageNote(v)}`);
    return language;
  }

  /** The first weight whose name is ≥ `name`, as std::map::lower_bound finds it. */
  private lowerBound(name: string): number {
    let lo = 0;
    let hi = this.weights.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.weights[mid]!.name < name) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The strings the index reads in a document (mongod's FTSElementIterator). */
  values(doc: Doc): TextValue[] {
    const out: TextValue[] = [];
    this.walk(doc, this.languageOf(doc, this.defaultLanguage), '', false, out);
    return out;
  }

  private walk(
    obj: Doc | unknown[],
    language: TextLanguage,
    parentPath: string,
    isArray: boolean,
    out: TextValue[],
  ): void {
    const entries: Array<[string, unknown]> = Array.isArray(obj)
      ? obj.map((v, i) => [String(i), v])
      : Object.entries(obj);
    for (const [name, value] of entries) {
      if (this.wildcard && name === this.languageOverride && !isArray) continue;
      const dotted = parentPath === '' ? name : isArray ? parentPath : `${parentPath}.${name}`;
      const isObject = isPlainObject(value);
      const i = this.lowerBound(isObject ? `${dotted}.` : dotted);
      const candidate = this.weights[i];
      if (!this.wildcard) {
        if (!candidate) continue;
        if (candidate.name !== dotted && !candidate.name.startsWith(`${dotted}.`)) continue;
      }
      const exact = candidate !== undefined && candidate.name === dotted;
      // As mongod: with the wildcard, a field takes the weight lower_bound lands on, if any.
      const weight = candidate ? candidate.weight : 1;
      if (typeof value === 'string') {
        if (exact || this.wildcard) out.push({ text: value, language, weight });
      } else if (isObject) {
        if (!exact || this.wildcard)
          this.walk(value, this.languageOf(value, language), dotted, false, out);
      } else if (Array.isArray(value)) {
        if (!isArray || this.wildcard) this.walk(value, language, dotted, true, out);
      }
    }
  }

  /**
   * The score of each term of a document (mongod's scoreDocument / _scoreStringV2): per string,
   * a term seen n times weighs 1 + 1/2 + ... + 1/2^(n-1), times 0.5 + 0.5 * n / (terms in the
   * string), times 1.1 when the whole string is the term, times the field's weight; summed over
   * the strings.
   */
  scoreDocument(doc: Doc): Map<string, number> {
    const scores = new Map<string, number>();
    for (const { text, language, weight } of this.values(doc)) {
      const tokens = tokenize(text, language);
      if (tokens.length === 0) continue;
      const terms = new Map<string, { count: number; freq: number; exp: number }>();
      for (const t of tokens) {
        let data = terms.get(t);
        if (!data) {
          data = { count: 0, freq: 0, exp: 0 };
          terms.set(t, data);
        }
        data.exp = data.exp ? data.exp * 2 : 1;
        data.count += 1;
        data.freq += 1 / data.exp;
      }
      for (const [t, data] of terms) {
        const coeff = (0.5 * data.count) / tokens.length + 0.5;
        const adjustment = text.length === t.length && asciiCaseEqual(text, t) ? 1.1 : 1;
        scores.set(t, (scores.get(t) ?? 0) + weight * data.freq * coeff * adjustment);
      }
    }
    return scores;
  }

  /**
   * The values of the prefix (or suffix) fields of a document: null when missing; an array
   * anywhere on the path is mongod's CannotBuildIndexKeys.
   */
  extraValues(doc: Doc, fields: string[]): unknown[] {
    return fields.map((path) => {
      let cur: unknown = doc;
      for (const part of path.split('.')) {
        if (Array.isArray(cur)) throw arrayInKey(path, doc);
        if (!isPlainObject(cur)) return null;
        cur = cur[part];
      }
      if (Array.isArray(cur)) throw arrayInKey(path, doc);
      return cur === undefined ? null : cur;
    });
  }

  /** The key under which a document's terms are filed: its prefix values, if any. */
  prefixKey(values: unknown[]): string {
    return values.length === 0 ? '' : `${values.map(valueKey).join('\u0001')}\u0000`;
  }
}

function arrayInKey(path: string, doc: Doc): Error {
  return serverError(
    'CannotBuildIndexKeys',
    `Field '${path}' of text index contains an array in document: ${JSON.stringify(doc)}`,
  );
}

/** std::string::equalCaseInsensitive: equal up to the case of ASCII letters. */
function asciiCaseEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x >= 0x41 && x <= 0x5a) x |= 0x20;
    if (y >= 0x41 && y <= 0x5a) y |= 0x20;
    if (x !== y) return false;
  }
  return true;
}
