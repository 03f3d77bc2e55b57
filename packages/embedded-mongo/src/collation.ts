/**
 * Collations. This server implements the simple binary comparison (`{ locale: 'simple' }`, or no
 * collation) and the case-insensitive ICU collations of English, `{ locale: 'en' }` (or
 * `'en_US'`, the same rules) with `strength: 1` (letters compare by their base: case and
 * accents ignored) or `strength: 2` (case ignored, accents significant), every other option at
 * its default. Any other collation is refused (BadValue) by `checkCollation` wherever a command
 * takes one.
 *
 * Comparisons use the JavaScript engine's ICU (`Intl.Collator('en', { sensitivity })`), the
 * library mongod's collations use too (mongod 7.0 ships ICU 57.1, reported as `version`; the
 * engine's is newer, so rare characters added or re-ordered since may compare differently).
 * Strings compare through the collator where a collated command compares values: filters
 * (`$eq`, `$ne`, `$in`, `$nin`, `$gt`/`$gte`/`$lt`/`$lte`, `$all`, also inside arrays and
 * embedded documents), sorts, `distinct`, unique and collated index keys; field names, `$regex`
 * and `$text` stay binary, as in mongod. What this server would compare binary under a
 * collation is refused instead: `checkCollatedFilter` ($expr), `checkCollatedPipeline`
 * (stages and expressions), `checkCollatedUpdate` (update operators), and a change stream with
 * a collation (change-streams.ts).
 *
 * Where collations are read: the `collation` option of find, count, distinct (commands/reads.ts),
 * aggregate (commands/aggregation.ts), findAndModify and each update and delete statement
 * (commands/writes.ts), all through `readCollator` (commands/context.ts) and
 * `operationCollator` here, which fall back to the collection's default; `create` (the
 * collection's default) and `createIndexes` (an index's own, else the collection's default;
 * `indexSpec` in commands/indexes-collections.ts); a `$changeStream` aggregate
 * (change-streams.ts, refused).
 */
import { Context } from 'mingo';
import { Query as BaseQuery } from 'mingo/query';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import type { Collection } from './collection';
import { badValue, serverError } from './errors';
import { matchOperators } from './match-operators';
import { compareValues, isPlainObject, typeRank, type Doc } from './values';

/** mongod 7.0's ICU version, which it reports in every collation spec. */
export const ICU_VERSION = '57.1';

/** A collation spec as mongod stores and reports it (every field, in mongod's order). */
export interface CollationSpec {
  locale: string;
  caseLevel: boolean;
  caseFirst: string;
  strength: number;
  numericOrdering: boolean;
  alternate: string;
  maxVariable: string;
  normalization: boolean;
  backwards: boolean;
  version: string;
}

/** The locales implemented: ICU's English (`en_US` has the same collation rules as `en`). */
const ENGLISH_LOCALES = new Set(['en', 'en_US']);

/** The options this server implements, at the only values it implements. */
const DEFAULTS: Omit<CollationSpec, 'locale' | 'strength' | 'version'> = {
  caseLevel: false,
  caseFirst: 'off',
  numericOrdering: false,
  alternate: 'non-ignorable',
  maxVariable: 'punct',
  normalization: false,
  backwards: false,
};

const FIELD_TYPES: Record<string, 'string' | 'bool' | 'number'> = {
  locale: 'string',
  caseLevel: 'bool',
  caseFirst: 'string',
  strength: 'number',
  numericOrdering: 'bool',
  alternate: 'string',
  maxVariable: 'string',
  normalization: 'bool',
  backwards: 'bool',
  version: 'string',
};

function typeOfValue(v: unknown): string {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'double';
  if (typeof v === 'string') return 'string';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

/** A collation spec as mongod prints it in messages: `{ locale: "en", strength: 2 }`. */
export function displayCollation(spec: Doc | CollationSpec): string {
  const fields = Object.entries(spec).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return `{ ${fields.join(', ')} }`;
}

function unsupported(spec: Doc, why: string): Error {
  return badValue(
    `collation ${displayCollation(spec)} is not supported by this server (${why}): it implements ` +
      `only { locale: "simple" } and the case-insensitive { locale: "en", strength: 1 } and ` +
      `{ locale: "en", strength: 2 } (also with locale "en_US")`,
  );
}

/**
 * Checks a `collation` option. Returns undefined when it is absent (or null), null for the simple
 * collation (`{ locale: 'simple' }`), else the full spec as mongod stores it. Malformed specs
 * get mongod's parse errors; well-formed collations this server does not implement (another
 * locale, strength 3 to 5, any option away from its default) are refused with BadValue.
 */
export function checkCollation(
  collation: unknown,
  field = 'collation',
): CollationSpec | null | undefined {
  if (collation === undefined || collation === null) return undefined;
  if (!isPlainObject(collation))
    throw serverError(
      'TypeMismatch',
      `BSON field '${field}' is the wrong type '${typeOfValue(collation)}', expected type 'object'`,
    );
  for (const [k, v] of Object.entries(collation)) {
    const type = FIELD_TYPES[k];
    if (!type)
      throw serverError('Location40415', `BSON field '${field}.${k}' is an unknown field.`);
    const actual = typeOfValue(v);
    const ok = type === 'number' ? actual === 'int' || actual === 'double' : actual === type;
    if (!ok)
      throw serverError(
        'TypeMismatch',
        `BSON field '${field}.${k}' is the wrong type '${actual}', expected type '${type}'`,
      );
  }
  const locale = collation.locale as string | undefined;
  if (locale === undefined)
    throw serverError(
      'Location40414',
      `BSON field '${field}.locale' is missing but a required field`,
    );
  if (locale === 'simple') {
    if (Object.keys(collation).length > 1)
      throw unsupported(collation, 'the simple collation takes no other option');
    return null;
  }
  if (!ENGLISH_LOCALES.has(locale)) throw unsupported(collation, `locale "${locale}"`);
  const strength = collation.strength ?? 3;
  if (!Number.isInteger(strength) || (strength as number) < 1 || (strength as number) > 5)
    throw badValue(`Field 'strength' must be an integer 1 through 5. Got: ${String(strength)}`);
  if (strength !== 1 && strength !== 2)
    throw unsupported(collation, `strength ${String(strength)}: only 1 and 2 are implemented`);
  for (const [k, v] of Object.entries(DEFAULTS)) {
    const given = collation[k];
    if (given !== undefined && given !== v)
      throw unsupported(collation, `${k}: ${JSON.stringify(given)}`);
  }
  if (collation.version !== undefined && collation.version !== ICU_VERSION)
    throw serverError(
      'BadValue',
      `Requested collation version ${String(collation.version)} but the only available collator version was ${ICU_VERSION}. Requested collation spec: ${displayCollation(collation)}`,
    );
  return {
    locale,
    caseLevel: false,
    caseFirst: 'off',
    strength: strength as number,
    numericOrdering: false,
    alternate: 'non-ignorable',
    maxVariable: 'punct',
    normalization: false,
    backwards: false,
    version: ICU_VERSION,
  };
}

/** A collation this server implements: string comparison and BSON comparison through it. */
export class Collator {
  /** Compares two strings. */
  readonly compareStrings: (a: string, b: string) => number;
  /** Compares two BSON values in MongoDB's order, strings (also nested ones) by the collation. */
  readonly compare: (a: unknown, b: unknown) => number;

  constructor(readonly spec: CollationSpec) {
    const intl = new Intl.Collator('en', {
      sensitivity: spec.strength === 1 ? 'base' : 'accent',
      usage: 'sort',
    });
    const strings = intl.compare;
    this.compareStrings = strings;
    const compare = (a: unknown, b: unknown): number => {
      if (typeof a === 'string' && typeof b === 'string') return strings(a, b);
      if (Array.isArray(a) && Array.isArray(b)) {
        for (let i = 0; i < Math.min(a.length, b.length); i++) {
          const c = compare(a[i], b[i]);
          if (c !== 0) return c;
        }
        return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
      }
      if (isPlainObject(a) && isPlainObject(b)) {
        // As mongod: per field, its type, then its name (binary), then its value (collated).
        const ea = Object.entries(a);
        const eb = Object.entries(b);
        for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
          const [ka, va] = ea[i]!;
          const [kb, vb] = eb[i]!;
          const t = typeRank(va) - typeRank(vb);
          if (t !== 0) return t < 0 ? -1 : 1;
          if (ka !== kb) return ka < kb ? -1 : 1;
          const c = compare(va, vb);
          if (c !== 0) return c;
        }
        return ea.length === eb.length ? 0 : ea.length < eb.length ? -1 : 1;
      }
      return compareValues(a, b);
    };
    this.compare = compare;
  }

  equals(a: unknown, b: unknown): boolean {
    return this.compare(a, b) === 0;
  }
}

const collators = new Map<string, Collator>();

/** The collator of a checked spec (undefined for the simple collation), one per spec. */
export function collatorFor(spec: CollationSpec | Doc | null | undefined): Collator | undefined {
  if (!spec) return undefined;
  const key = `${String(spec.locale)}/${Number(spec.strength)}`;
  let c = collators.get(key);
  if (!c) {
    c = new Collator({ ...(spec as CollationSpec) });
    collators.set(key, c);
  }
  return c;
}

/**
 * Whether two collations (undefined: simple) are the same, as mongod decides whether an index
 * of one serves a query of the other.
 */
export function sameCollation(a: Collator | undefined, b: Collator | undefined): boolean {
  return a === b;
}

/**
 * The collation an operation runs with: its own `collation` option (checked; `{ locale:
 * 'simple' }` is the simple collation), else the collection's default; undefined for simple.
 */
export function operationCollator(
  collation: unknown,
  coll: Collection | undefined,
): Collator | undefined {
  const spec = checkCollation(collation);
  if (spec === null) return undefined;
  if (spec) return collatorFor(spec);
  const fallback = coll?.options.collation;
  return isPlainObject(fallback) ? collatorFor(fallback) : undefined;
}

export { holdsString } from './values';

const contexts = new Map<Collator, Context>();

/**
 * A mingo Context whose query operators (match-operators.ts, mongod's semantics) compare
 * strings through the collator; `pipeline`: stage operators to use instead of mingo's (the
 * context is then made for this call only).
 */
export function collatedContext(c: Collator, pipeline?: Record<string, unknown>): Context {
  let ctx = pipeline ? undefined : contexts.get(c);
  if (ctx) return ctx;
  ctx = Context.init({
    accumulator: accumulatorOperators as never,
    expression: expressionOperators as never,
    pipeline: { ...(pipelineOperators as Record<string, unknown>), ...pipeline } as never,
    projection: projectionOperators as never,
    query: { ...(queryOperators as Record<string, unknown>), ...matchOperators(c) } as never,
    window: windowOperators as never,
  });
  if (!pipeline) contexts.set(c, ctx);
  return ctx;
}

/** A compiled filter whose comparisons go through the collator (see compileFilter). */
export function collatedQuery(filter: Doc, c: Collator, variables?: Doc): BaseQuery {
  return new BaseQuery(filter, {
    context: collatedContext(c),
    ...(variables ? { variables } : {}),
  } as never);
}

/**
 * Aggregation expression operators that compare values: in a pipeline run with a collation
 * mongod compares their strings through it; this server refuses them there (see
 * `checkCollatedPipeline`) rather than compare binary.
 */
const COMPARING_EXPRESSIONS = new Set([
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$cmp',
  '$in',
  '$indexOfArray',
  '$setEquals',
  '$setIntersection',
  '$setUnion',
  '$setDifference',
  '$setIsSubset',
  '$min',
  '$max',
  '$minN',
  '$maxN',
  '$sortArray',
  '$top',
  '$topN',
  '$bottom',
  '$bottomN',
  '$addToSet',
  '$switch',
]);

function comparingOperator(v: unknown): string | undefined {
  if (Array.isArray(v)) {
    for (const x of v) {
      const op = comparingOperator(x);
      if (op) return op;
    }
    return undefined;
  }
  if (!isPlainObject(v)) return undefined;
  for (const [k, x] of Object.entries(v)) {
    if (COMPARING_EXPRESSIONS.has(k)) return k;
    const op = comparingOperator(x);
    if (op) return op;
  }
  return undefined;
}

/** Stages whose results a collation changes only through their filters and sort keys. */
const COLLATION_SAFE_STAGES = new Set([
  '$match',
  '$sort',
  '$skip',
  '$limit',
  '$count',
  '$project',
  '$addFields',
  '$set',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
  '$unwind',
  '$sample',
  '$group',
]);

function refusedStage(what: string): Error {
  return badValue(
    `${what} is not supported with a collation by this server: it compares strings through a ` +
      `collation only in filters, sorts, unique indexes, distinct and the aggregation stages ` +
      `$match and $sort`,
  );
}

/** Refuses a filter that compares values in `$expr` (mingo would compare them binary). */
export function checkCollatedFilter(filter: Doc): void {
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!isPlainObject(v)) return;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$expr') {
        const op = comparingOperator(x);
        if (op) throw refusedStage(`$expr with ${op}`);
      } else visit(x);
    }
  };
  visit(filter);
}

/**
 * Refuses, for a pipeline run with a (non-simple) collation, every stage and expression whose
 * result the collation would change but this server would compute binary: stages other than
 * those above, `$group` by a key or with comparing accumulators, comparing expressions.
 */
export function checkCollatedPipeline(stages: Doc[]): void {
  for (const stage of stages) {
    const [name, spec] = Object.entries(stage)[0] ?? [];
    if (name === undefined) continue;
    if (!COLLATION_SAFE_STAGES.has(name)) throw refusedStage(`the stage ${name}`);
    if (name === '$match') {
      if (isPlainObject(spec)) checkCollatedFilter(spec);
      continue;
    }
    if (name === '$sort' || name === '$skip' || name === '$limit' || name === '$count') continue;
    if (name === '$group' && isPlainObject(spec) && holdsFieldPath(spec._id))
      throw refusedStage('$group by a key computed from the documents');
    const op = comparingOperator(spec);
    if (op) throw refusedStage(`the expression ${op}`);
  }
}

function holdsFieldPath(v: unknown): boolean {
  if (typeof v === 'string') return v.startsWith('$');
  if (Array.isArray(v)) return v.some(holdsFieldPath);
  if (isPlainObject(v)) return Object.values(v).some(holdsFieldPath);
  return false;
}

/** Update operators whose result depends on comparing values (mongod compares them collated). */
const COMPARING_UPDATES = ['$pull', '$pullAll', '$addToSet', '$min', '$max'];

/**
 * Refuses, for an update run with a (non-simple) collation, what this server would compare
 * binary where mongod compares through the collation: `$pull`, `$pullAll`, `$addToSet`, `$min`,
 * `$max`, `$push` with `$sort`, `arrayFilters`, comparing expressions of a pipeline update.
 */
export function checkCollatedUpdate(update: unknown, arrayFilters: unknown): void {
  if (Array.isArray(arrayFilters) && arrayFilters.length > 0) throw refusedStage('arrayFilters');
  if (Array.isArray(update)) {
    checkCollatedPipeline(update.filter(isPlainObject));
    return;
  }
  if (!isPlainObject(update)) return;
  for (const op of COMPARING_UPDATES)
    if (op in update) throw refusedStage(`the update operator ${op}`);
  const push = update.$push;
  if (isPlainObject(push) && Object.values(push).some((v) => isPlainObject(v) && '$sort' in v))
    throw refusedStage('$push with $sort');
}
