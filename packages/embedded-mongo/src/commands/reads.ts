/** The read commands: find, count and distinct. */
import { commandStats } from '../command-stats';
import { badValue } from '../errors';
import { coveredCount } from '../planner';
import { evalLet, parseSort, project, textCount, type FindOptions } from '../query';
import { checkFindOptions } from '../unsupported';
import { isPlainObject, valueKey, type Doc } from '../values';
import type { Collator } from '../collation';
import { mentionsText } from '../text/search';
import {
  checkHint,
  collName,
  DEFAULT_BATCH,
  num,
  readCollator,
  type CommandContext,
  type Handler,
} from './context';
import { cursorReply } from './cursors';
import { explainAggregate } from './aggregation';
import { isView, readDocs } from './views';

export const find: Handler = (cmd, db, ctx) => {
  const stats = commandStats ? { docsExamined: 0, plan: '' } : undefined;
  const { name, out, limit, single } = runFind(cmd, db, ctx, stats);
  if (stats) {
    commandStats?.add(`plan ${name} ${stats.plan || 'COLLSCAN'}`);
    commandStats?.add(`examined ${name}`, stats.docsExamined);
    commandStats?.add(`returned ${name}`, out.length);
  }
  const batchSize = cmd.batchSize === undefined ? undefined : num(cmd.batchSize, DEFAULT_BATCH);
  return cursorReply(
    ctx,
    `${db}.${name}`,
    out,
    limit && batchSize ? Math.min(limit, batchSize) : (batchSize ?? (limit || undefined)),
    single,
    cmd.noCursorTimeout === true,
  );
};

/** What find reads and returns, shared by find and its explain. */
function runFind(cmd: Doc, db: string, ctx: CommandContext, stats?: FindOptions['stats']) {
  const name = collName(cmd, 'find');
  const filter = (cmd.filter ?? {}) as Doc;
  const limitRaw = num(cmd.limit, 0);
  const single = cmd.singleBatch === true || limitRaw < 0;
  const limit = Math.abs(limitRaw);
  const skip = num(cmd.skip, 0);
  if (skip < 0) throw badValue('skip value must be non-negative');
  const coll = ctx.engine.collection(db, name);
  const collator = readCollator(cmd.collation, coll);
  checkFindOptions(cmd);
  checkHint(coll, cmd.hint);
  const text = isPlainObject(filter) && mentionsText(filter);
  if (text && cmd.hint !== undefined) throw badValue('text and hint not allowed in same query');
  const textScores = text ? new Map<Doc, number>() : undefined;
  const docs = readDocs(ctx.engine, db, name, filter, {
    sort: parseSort(cmd.sort),
    skip,
    limit,
    variables: evalLet(cmd.let),
    stats,
    hint: cmd.hint,
    ns: `${db}.${name}`,
    textScores,
    collator,
  });
  const out = project(docs, filter, cmd.projection, undefined, textScores);
  return { name, out, limit, single };
}

/**
 * `explain` of a find (what `cursor.explain()` sends): runs the find exactly as the find command
 * does and reports the plan and how many documents it examined. Other commands are refused.
 */
export const explain: Handler = (cmd, db, ctx) => {
  const inner = cmd.explain;
  if (isPlainObject(inner) && Object.keys(inner)[0] === 'aggregate')
    return explainAggregate(inner, db, ctx, cmd.verbosity);
  if (!isPlainObject(inner) || Object.keys(inner)[0] !== 'find')
    throw badValue('explain is only supported for find and aggregate on this server');
  const stats = { docsExamined: 0, plan: '' };
  const started = Date.now();
  const { name, out } = runFind(inner, db, ctx, stats);
  const [stage, indexName] = (stats.plan || 'COLLSCAN').split(' ');
  const reply: Doc = {
    queryPlanner: {
      namespace: `${db}.${name}`,
      parsedQuery: inner.filter ?? {},
      winningPlan: { stage, ...(indexName ? { indexName } : {}), summary: stats.plan },
      rejectedPlans: [],
    },
  };
  if (cmd.verbosity !== 'queryPlanner') {
    reply.executionStats = {
      executionSuccess: true,
      nReturned: out.length,
      executionTimeMillis: Date.now() - started,
      totalDocsExamined: stats.docsExamined,
    };
  }
  reply.ok = 1;
  return reply;
};

export const count: Handler = (cmd, db, { engine }) => {
  const name = collName(cmd, 'count');
  const coll = engine.collection(db, name);
  const collator = readCollator(cmd.collation, coll);
  checkHint(coll, cmd.hint);
  const query = (cmd.query ?? {}) as Doc;
  // estimatedDocumentCount(): the count of a whole collection is its size (mongod reads it from
  // its metadata) instead of matching every document.
  if (
    isPlainObject(query) &&
    Object.keys(query).length === 0 &&
    !num(cmd.skip, 0) &&
    !num(cmd.limit, 0) &&
    !isView(coll)
  ) {
    return { n: coll?.docs.size ?? 0, ok: 1 };
  }
  const skip = num(cmd.skip, 0);
  const limit = Math.abs(num(cmd.limit, 0));
  // Fractional or negative values keep findDocs' handling of them.
  const paging = Number.isInteger(skip) && skip >= 0 && Number.isInteger(limit);
  if (coll && !isView(coll) && isPlainObject(query) && paging && !collator) {
    const n = coveredCount(coll, query) ?? textCount(coll, query);
    if (n !== undefined) return { n: Math.min(Math.max(n - skip, 0), limit || Infinity), ok: 1 };
  }
  const docs = readDocs(engine, db, name, query, {
    skip,
    limit,
    hint: cmd.hint,
    ns: `${db}.${name}`,
    collator,
  });
  return { n: docs.length, ok: 1 };
};

export const distinct: Handler = (cmd, db, { engine }) => {
  const name = collName(cmd, 'distinct');
  const coll = engine.collection(db, name);
  const collator = readCollator(cmd.collation, coll);
  checkHint(coll, cmd.hint);
  if (typeof cmd.key !== 'string') throw badValue("'key' must be a string");
  const docs = readDocs(engine, db, name, (cmd.query ?? {}) as Doc, {
    hint: cmd.hint,
    ns: `${db}.${name}`,
    collator,
  });
  if (collator) return { values: collatedDistinct(docs, cmd.key.split('.'), collator), ok: 1 };
  const seen = new Map<string, unknown>();
  const path = cmd.key.split('.');
  const collect = (v: unknown, i: number): void => {
    if (Array.isArray(v)) {
      for (const x of v) collect(x, i);
      return;
    }
    if (i === path.length) {
      if (v !== undefined && !seen.has(valueKey(v))) seen.set(valueKey(v), v);
      return;
    }
    if (isPlainObject(v)) collect(v[path[i] as string], i + 1);
  };
  for (const d of docs) collect(d, 0);
  return { values: [...seen.values()], ok: 1 };
};

/** The values of a path in documents, one per class of values equal through the collation. */
function collatedDistinct(docs: Doc[], path: string[], collator: Collator): unknown[] {
  const out: unknown[] = [];
  const collect = (v: unknown, i: number): void => {
    if (Array.isArray(v)) {
      for (const x of v) collect(x, i);
      return;
    }
    if (i === path.length) {
      if (v !== undefined && !out.some((x) => collator.equals(x, v))) out.push(v);
      return;
    }
    if (isPlainObject(v)) collect(v[path[i] as string], i + 1);
  };
  for (const d of docs) collect(d, 0);
  return out;
}
