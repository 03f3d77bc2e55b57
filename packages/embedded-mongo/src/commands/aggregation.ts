/** The aggregate command: pipelines over collections, views and $documents, $out and $merge. */
import { Aggregator } from '../mingo';
import type { Collection } from '../collection';
import type { Engine } from '../engine';
import { badValue, MongoServerError, serverError } from '../errors';
import { coveredCount } from '../planner';
import { Aggregator as BaseAggregator } from 'mingo/aggregator';
import { Lazy, type Iterator } from 'mingo/lazy';
import { checkCollatedPipeline, collatedContext } from '../collation';
import { mentionsText } from '../text/search';
import {
  applyUpdate,
  evalLet,
  findDocs,
  guard,
  noTextScore,
  parseSort,
  sortDocs,
  textCount,
  textNotFirst,
  type FindOptions,
} from '../query';
import { normalizeTimezones } from '../timezones';
import { isPlainObject, type Doc } from '../values';
import { collStatsOf } from './admin';
import { checkPipeline } from './pipelines';
import { checkHint, collName, readCollator, type CommandContext, type Handler } from './context';
import { cursorBatchSize, cursorReply } from './cursors';
import { SERVER_VERSION, SESSION_UID } from './handshake';
import { prepareInsert } from './writes';
import { allDocs, isView, readDocs, resolver } from './views';

export const aggregate: Handler = (cmd, db, ctx) => {
  const { engine } = ctx;
  const pipeline = cmd.pipeline;
  if (!Array.isArray(pipeline))
    throw serverError('TypeMismatch', "'pipeline' option must be specified as an array");
  if (cmd.cursor === undefined && cmd.explain !== true) {
    throw serverError(
      'FailedToParse',
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  }
  const stages = pipeline as Doc[];
  checkPipeline(stages);
  const variables = evalLet(cmd.let);
  const isDbLevel = cmd.aggregate === 1;
  const name = isDbLevel ? '$cmd.aggregate' : collName(cmd, 'aggregate');
  const collator = readCollator(cmd.collation, engine.collection(db, name));
  if (collator) checkCollatedPipeline(stages);
  // $text only in a first $match (mongod's rule), which the text index runs (see below).
  for (const stage of stages.slice(1))
    if (isPlainObject(stage) && isPlainObject(stage.$match) && mentionsText(stage.$match))
      throw textNotFirst();
  if (cmd.explain === true) return explainAggregate(cmd, db, ctx, 'queryPlanner');
  if (!isDbLevel) {
    const coll = engine.collection(db, name);
    checkHint(coll, cmd.hint);
    const counted = collator ? undefined : countFromIndex(coll, cmd);
    if (counted) return cursorReply(ctx, `${db}.${name}`, counted, cursorBatchSize(cmd));
  }
  /** The text scores of a first `$match` with `$text`, for `{ $meta: 'textScore' }` after it. */
  let textScores: Map<Doc, number> | undefined;
  let input: Doc[];
  let rest = stages;
  const first = stages[0];
  if (isDbLevel && first && '$listLocalSessions' in first) {
    input = [...(ctx.sessions?.values() ?? [])].map((s) => ({
      _id: { id: s.id, uid: SESSION_UID },
      lastUse: s.lastUse,
    }));
    rest = stages.slice(1);
  } else if (isDbLevel) {
    if (!first || !('$documents' in first))
      throw badValue('aggregate: 1 needs a $documents or $listLocalSessions first stage');
    input = guard(
      () =>
        new Aggregator([{ $replaceWith: { d: normalizeTimezones(first.$documents) } }], {
          variables,
        }).run([{}]) as Doc[],
    ).flatMap((x) => (Array.isArray(x.d) ? (x.d as Doc[]) : []));
    rest = stages.slice(1);
  } else if (first && '$collStats' in first) {
    input = [collStatsStage(engine, db, name, first.$collStats, ctx)];
    rest = stages.slice(1);
  } else {
    const coll = engine.collection(db, name);
    const match =
      first && '$match' in first && isPlainObject(first.$match) ? first.$match : undefined;
    const text = match !== undefined && mentionsText(match);
    if (match && (text || !containsExpr(match))) {
      const second = stages[1];
      const sort = second && '$sort' in second ? parseSort(second.$sort) : [];
      if (text) textScores = new Map();
      input = readDocs(engine, db, name, match, {
        sort,
        variables,
        hint: cmd.hint,
        collator,
        textScores,
        ns: `${db}.${name}`,
      });
      rest = stages.slice(sort.length ? 2 : 1);
    } else {
      input = isView(coll)
        ? allDocs(engine, db, name)
        : cmd.hint !== undefined
          ? readDocs(engine, db, name, {}, { hint: cmd.hint })
          : coll
            ? [...coll.docs.values()]
            : [];
    }
  }
  const last = rest[rest.length - 1];
  const outTarget = last && '$out' in last ? last.$out : undefined;
  const mergeSpec = last && '$merge' in last ? last.$merge : undefined;
  const body = outTarget !== undefined || mergeSpec !== undefined ? rest.slice(0, -1) : rest;
  let pipelineBody = body;
  const scored = body.some(usesTextScore);
  if (scored) {
    if (!textScores) throw noTextScore();
    const scores = textScores;
    input = input.map((d) => ({ ...d, [SCORE_FIELD]: scores.get(d) ?? 0 }));
    pipelineBody = body.map(withScoreField);
  }
  const options = {
    collectionResolver: resolver(engine, db),
    variables,
    // Clone inputs, so stages never mutate stored documents, unless no stage can: cloning
    // every matched document is most of the cost of a count or a $group over many.
    processingMode: pipelineBody.every(readsOnly) ? 0 : 1,
  };
  const normalized = normalizeTimezones(pipelineBody);
  let results = guard(
    () =>
      (collator
        ? new BaseAggregator(normalized, {
            ...options,
            // $sort as find sorts (mingo's reverses the ties of a descending collated sort).
            context: collatedContext(collator, {
              $sort: (coll: Iterator, spec: unknown) =>
                coll.transform((docs) =>
                  Lazy(sortDocs(docs as Doc[], parseSort(spec), undefined, collator)),
                ),
            }),
          } as never)
        : new Aggregator(normalized, options)
      ).run(input) as Doc[],
  );
  if (scored) results = results.map((d) => withoutScoreField(d) as Doc);
  if (outTarget !== undefined) {
    writeOut(engine, db, outTarget, results);
    return cursorReply(ctx, `${db}.${name}`, [], undefined);
  }
  if (mergeSpec !== undefined) {
    writeMerge(engine, db, mergeSpec, results);
    return cursorReply(ctx, `${db}.${name}`, [], undefined);
  }
  return cursorReply(ctx, `${db}.${name}`, results, cursorBatchSize(cmd));
};

/**
 * The field the documents of a pipeline after a `$text` match carry their text score in, for the
 * stages that read it (`{ $meta: 'textScore' }`, rewritten to read this field). A name with a
 * NUL byte, which no stored field has; removed from the results.
 */
const SCORE_FIELD = '\u0000textScore';

function isTextScoreMeta(v: unknown): boolean {
  return isPlainObject(v) && Object.keys(v).length === 1 && v.$meta === 'textScore';
}

function usesTextScore(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(usesTextScore);
  if (!isPlainObject(v)) return false;
  return isTextScoreMeta(v) || Object.values(v).some(usesTextScore);
}

/** `{ $meta: 'textScore' }` anywhere in an expression, as a reference to SCORE_FIELD. */
function metaToField(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(metaToField);
  if (!isPlainObject(v)) return v;
  if (isTextScoreMeta(v)) return `$${SCORE_FIELD}`;
  const out: Doc = {};
  for (const [k, x] of Object.entries(v)) out[k] = metaToField(x);
  return out;
}

/**
 * A stage reading SCORE_FIELD where it says `{ $meta: 'textScore' }`: a `$sort` key sorts by it
 * (descending, as mongod's textScore sort); an inclusion `$project` keeps it, since mongod keeps
 * a document's metadata through projections.
 */
function withScoreField(stage: Doc): Doc {
  const [name, spec] = stageOf(stage) ?? [];
  if (name === '$sort' && isPlainObject(spec)) {
    const sort: Doc = {};
    for (const [k, v] of Object.entries(spec)) {
      if (isTextScoreMeta(v)) sort[SCORE_FIELD] = -1;
      else sort[k] = v;
    }
    return { $sort: sort };
  }
  const out = metaToField(stage) as Doc;
  if (name === '$project' && isPlainObject(spec)) {
    // An exclusion projection names only excluded fields (`{ _id: 0 }` alone excludes too).
    const excluded = (v: unknown) => v === 0 || v === false;
    const others = Object.entries(spec).filter(([k]) => k !== '_id');
    const exclusion = others.length > 0 ? others.every(([, v]) => excluded(v)) : excluded(spec._id);
    if (!exclusion) (out.$project as Doc)[SCORE_FIELD] = 1;
  }
  return out;
}

function withoutScoreField(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutScoreField);
  if (!isPlainObject(v)) return v;
  const out: Doc = {};
  for (const [k, x] of Object.entries(v)) if (k !== SCORE_FIELD) out[k] = withoutScoreField(x);
  return out;
}

/** The only key of a one-stage document, with its argument. */
function stageOf(stage: unknown): [string, unknown] | undefined {
  const entries = isPlainObject(stage) ? Object.entries(stage) : [];
  return entries.length === 1 ? entries[0] : undefined;
}

/** `{ $group: { _id: <constant>, <name>: { $sum: 1 } } }`: its constant and output field. */
function countGroup(stage: unknown): { id: unknown; field: string } | undefined {
  const [op, spec] = stageOf(stage) ?? [];
  if (op !== '$group' || !isPlainObject(spec)) return undefined;
  const id = spec._id;
  const constant =
    id === null ||
    (typeof id === 'number' && Number.isFinite(id)) ||
    (typeof id === 'string' && !id.startsWith('$'));
  const fields = Object.entries(spec).filter(([k]) => k !== '_id');
  if (!constant || fields.length !== 1) return undefined;
  const [field, acc] = fields[0] as [string, unknown];
  const [accOp, accArg] = stageOf(acc) ?? [];
  if (field.startsWith('$') || field.includes('.') || accOp !== '$sum' || accArg !== 1)
    return undefined;
  return { id, field };
}

/**
 * countDocuments() runs `[{ $match }, { $skip }?, { $limit }?, { $group: { _id: 1, n: { $sum: 1 } } }]`.
 * When the planner can count the matches from index keys alone, the reply is built from that
 * count (no document at all when it is 0, as mongod's $group returns); undefined otherwise.
 */
function countFromIndex(coll: Collection | undefined, cmd: Doc): Doc[] | undefined {
  if (!coll || isView(coll) || cmd.let !== undefined || cmd.explain === true) return undefined;
  const stages = cmd.pipeline as unknown[];
  const group = countGroup(stages[stages.length - 1]);
  const [op, filter] = stageOf(stages[0]) ?? [];
  if (!group || stages.length < 2 || op !== '$match' || !isPlainObject(filter)) return undefined;
  const paging = stages.slice(1, -1).map(stageOf);
  // Anything but a plain count ($limit: 0, fractions...) keeps its usual handling and errors.
  const plain = paging.every(
    (p) =>
      typeof p?.[1] === 'number' &&
      Number.isInteger(p[1]) &&
      ((p[0] === '$skip' && p[1] >= 0) || (p[0] === '$limit' && p[1] > 0)),
  );
  let n = plain ? (coveredCount(coll, filter) ?? textCount(coll, filter)) : undefined;
  if (n === undefined) return undefined;
  for (const [pageOp, arg] of paging as Array<[string, number]>) {
    n = pageOp === '$skip' ? Math.max(n - arg, 0) : Math.min(n, arg);
  }
  return n === 0 ? [] : [{ _id: group.id, [group.field]: n }];
}

/** Stages that build new documents or pass their inputs on untouched, never changing them. */
const READ_ONLY_STAGES = new Set(['$match', '$group', '$count', '$sort', '$skip', '$limit']);

function readsOnly(stage: Doc): boolean {
  const keys = Object.keys(stage);
  return keys.length === 1 && READ_ONLY_STAGES.has(keys[0] as string);
}

function containsExpr(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(containsExpr);
  if (!isPlainObject(v)) return false;
  return Object.entries(v).some(([k, x]) => k === '$expr' || k === '$where' || containsExpr(x));
}

function target(db: string, spec: unknown): { db: string; coll: string } {
  if (typeof spec === 'string') return { db, coll: spec };
  if (isPlainObject(spec) && typeof spec.coll === 'string') {
    return { db: typeof spec.db === 'string' ? spec.db : db, coll: spec.coll };
  }
  if (isPlainObject(spec) && typeof spec.into === 'string') return { db, coll: spec.into };
  if (isPlainObject(spec) && isPlainObject(spec.into)) return target(db, spec.into);
  throw badValue('invalid $out/$merge target');
}

function writeOut(engine: Engine, db: string, spec: unknown, docs: Doc[]): void {
  const t = target(db, spec);
  const old = engine.collection(t.db, t.coll);
  const indexes = old ? old.indexes.slice(1).map((i) => i.spec) : [];
  engine.drop(t.db, t.coll);
  const coll = engine.getOrCreate(t.db, t.coll);
  for (const spec of indexes) engine.createIndex(coll, spec);
  for (const d of docs) engine.insert(coll, prepareInsert(d));
}

function writeMerge(engine: Engine, db: string, spec: unknown, docs: Doc[]): void {
  const t = target(db, spec);
  const opts = isPlainObject(spec) ? spec : {};
  const on =
    opts.on === undefined
      ? ['_id']
      : Array.isArray(opts.on)
        ? (opts.on as string[])
        : [String(opts.on)];
  const whenMatched = opts.whenMatched ?? 'merge';
  const whenNotMatched = opts.whenNotMatched ?? 'insert';
  const coll = engine.getOrCreate(t.db, t.coll);
  for (const raw of docs) {
    const doc = prepareInsert(raw);
    const filter: Doc = {};
    for (const f of on) filter[f] = doc[f] ?? null;
    const [existing] = findDocs(coll, filter, { limit: 1 });
    if (!existing) {
      if (whenNotMatched === 'insert') engine.insert(coll, doc);
      else if (whenNotMatched === 'fail')
        throw serverError(
          'BadValue',
          '$merge could not find a matching document in the target collection',
        );
      continue;
    }
    if (whenMatched === 'keepExisting') continue;
    if (whenMatched === 'fail') throw coll.indexes[0]!.duplicateError([existing._id]);
    let next: Doc;
    if (whenMatched === 'replace') next = { ...doc, _id: existing._id };
    else if (whenMatched === 'merge') next = { ...existing, ...doc, _id: existing._id };
    else if (Array.isArray(whenMatched)) {
      next = applyUpdate(existing, whenMatched, { variables: { new: doc } });
    } else throw badValue(`unsupported $merge whenMatched: ${String(whenMatched)}`);
    engine.replace(coll, existing, next);
  }
}

/**
 * `$collStats` (first stage): one document with the collection's `ns`, `host`, `localTime` and
 * what was asked of `storageStats` (collStats' figures, with its `scale`) and `count`.
 * `latencyStats` and `queryExecStats` are not kept by this server and are refused.
 */
function collStatsStage(
  engine: Engine,
  db: string,
  name: string,
  spec: unknown,
  ctx: CommandContext,
): Doc {
  if (!isPlainObject(spec))
    throw serverError(
      'FailedToParse',
      '$collStats must take a nested object but found: ' + String(spec),
    );
  const out: Doc = {
    ns: `${db}.${name}`,
    host: ctx.server?.address() ?? '',
    localTime: new Date(),
  };
  for (const [k, v] of Object.entries(spec)) {
    if (k === 'storageStats') {
      const scale = isPlainObject(v) && v.scale !== undefined ? Number(v.scale) : 1;
      if (!Number.isInteger(scale) || scale < 1) throw badValue('scale has to be >= 1');
      out.storageStats = collStatsOf(engine, db, name, scale);
    } else if (k === 'count') {
      const coll = engine.collection(db, name);
      if (!coll || isView(coll))
        throw serverError(
          'NamespaceNotFound',
          `Unable to retrieve count in $collStats stage :: caused by :: Collection [${db}.${name}] not found.`,
        );
      out.count = coll.docs.size;
    } else if (k === 'latencyStats' || k === 'queryExecStats') {
      throw badValue(`$collStats ${k} is not supported by this server`);
    } else {
      throw new MongoServerError(40168, 'Location40168', `unrecognized option to $collStats: ${k}`);
    }
  }
  return out;
}

/**
 * explain of an aggregate (the `explain` command wrapping one, or `explain: true`): the plan of
 * its leading `$match` (and `$sort`) as find's explain reports it, in a `$cursor` stage, then the
 * other stages as given. With `executionStats` the leading read runs and its counts are reported.
 */
export function explainAggregate(
  cmd: Doc,
  db: string,
  ctx: CommandContext,
  verbosity: unknown,
): Doc {
  const pipeline = Array.isArray(cmd.pipeline) ? (cmd.pipeline as Doc[]) : [];
  checkPipeline(pipeline);
  const isDbLevel = cmd.aggregate === 1;
  const name = isDbLevel ? '$cmd.aggregate' : collName(cmd, 'aggregate');
  const first = pipeline[0];
  const match = first && '$match' in first && isPlainObject(first.$match) ? first.$match : {};
  const second = pipeline[first && '$match' in first ? 1 : 0];
  const sort = second && '$sort' in second ? parseSort(second.$sort) : [];
  const stats: NonNullable<FindOptions['stats']> = { docsExamined: 0, plan: '' };
  const started = Date.now();
  const coll = isDbLevel ? undefined : ctx.engine.collection(db, name);
  if (coll) checkHint(coll, cmd.hint);
  const read =
    coll && !isView(coll) && !containsExpr(match)
      ? findDocs(coll, match, {
          sort,
          stats,
          hint: cmd.hint,
          collator: readCollator(cmd.collation, coll),
          ns: `${db}.${name}`,
        })
      : undefined;
  const [stage, indexName] = (stats.plan || 'COLLSCAN').split(' ');
  const cursor: Doc = {
    queryPlanner: {
      namespace: `${db}.${name}`,
      parsedQuery: match,
      winningPlan: {
        stage,
        ...(indexName ? { indexName } : {}),
        summary: stats.plan || 'COLLSCAN',
      },
      rejectedPlans: [],
    },
  };
  if (verbosity !== 'queryPlanner' && read) {
    cursor.executionStats = {
      executionSuccess: true,
      nReturned: read.length,
      executionTimeMillis: Date.now() - started,
      totalDocsExamined: stats.docsExamined,
    };
  }
  const consumed = (first && '$match' in first ? 1 : 0) + (sort.length ? 1 : 0);
  return {
    explainVersion: '1',
    stages: [{ $cursor: cursor }, ...pipeline.slice(consumed)],
    serverInfo: { host: ctx.server?.address() ?? '', version: SERVER_VERSION },
    command: cmd,
    ok: 1,
  };
}
