/** The aggregate command: pipelines over collections, views and $documents, $out and $merge. */
import { checkCollation } from '../collation';
import { Aggregator } from 'mingo';
import type { Collection } from '../collection';
import type { Engine } from '../engine';
import { badValue, serverError } from '../errors';
import { coveredCount } from '../planner';
import { applyUpdate, evalLet, findDocs, guard, parseSort } from '../query';
import { normalizeTimezones } from '../timezones';
import { isPlainObject, type Doc } from '../values';
import { checkHint, collName, type Handler } from './context';
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
  checkCollation(cmd.collation);
  const stages = pipeline as Doc[];
  const variables = evalLet(cmd.let);
  const isDbLevel = cmd.aggregate === 1;
  const name = isDbLevel ? '$cmd.aggregate' : collName(cmd, 'aggregate');
  if (!isDbLevel) {
    const coll = engine.collection(db, name);
    checkHint(coll, cmd.hint);
    const counted = countFromIndex(coll, cmd);
    if (counted) return cursorReply(ctx, `${db}.${name}`, counted, cursorBatchSize(cmd));
  }
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
  } else {
    const coll = engine.collection(db, name);
    if (first && '$match' in first && isPlainObject(first.$match) && !containsExpr(first.$match)) {
      const second = stages[1];
      const sort = second && '$sort' in second ? parseSort(second.$sort) : [];
      input = readDocs(engine, db, name, first.$match, { sort, variables });
      rest = stages.slice(sort.length ? 2 : 1);
    } else {
      input = isView(coll) ? allDocs(engine, db, name) : coll ? [...coll.docs.values()] : [];
    }
  }
  const last = rest[rest.length - 1];
  const outTarget = last && '$out' in last ? last.$out : undefined;
  const mergeSpec = last && '$merge' in last ? last.$merge : undefined;
  const body = outTarget !== undefined || mergeSpec !== undefined ? rest.slice(0, -1) : rest;
  if (cmd.explain === true) {
    return { explainVersion: '1', stages: stages, serverInfo: { version: SERVER_VERSION }, ok: 1 };
  }
  const results = guard(
    () =>
      new Aggregator(normalizeTimezones(body), {
        collectionResolver: resolver(engine, db),
        variables,
        // Clone inputs, so stages never mutate stored documents, unless no stage can: cloning
        // every matched document is most of the cost of a count or a $group over many.
        processingMode: body.every(readsOnly) ? 0 : 1,
      }).run(input) as Doc[],
  );
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
  let n = plain ? coveredCount(coll, filter) : undefined;
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
