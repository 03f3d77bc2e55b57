/**
 * The database commands this server understands, each taking the command document (with any
 * OP_MSG document sequences merged in) and returning the reply document.
 */
import { Binary, Long, ObjectId, calculateObjectSize } from 'bson';
import { Aggregator } from 'mingo';
import type { Collection, IndexSpec } from './collection';
import type { Engine } from './engine';
import { badValue, serverError, MongoServerError } from './errors';
import { MAX_BSON_BYTES } from './wire';
import { coveredCount } from './planner';
import type { FailPoints } from './failpoints';
import { checkValidatorOptions, validateDocument } from './validation';
import {
  applyUpdate,
  buildUpsert,
  compileFilter,
  evalLet,
  findDocs,
  findInDocs,
  guard,
  parseSort,
  project,
  type FindOptions,
  type SortSpec,
} from './query';
import { cloneDoc, isPlainObject, valueKey, type Doc } from './values';
import { normalizeTimezones } from './timezones';

export const SERVER_VERSION = '7.0.0';
/** The user digest of sessions without authentication: SHA-256 of the empty string. */
const SESSION_UID = new Binary(
  Buffer.from('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'hex'),
);
export const MAX_WIRE_VERSION = 21;
const DEFAULT_BATCH = 101;
const MAX_TRACKED_SESSIONS = 10_000;
const BATCH_BYTES = MAX_BSON_BYTES - 64 * 1024;

interface Cursor {
  ns: string;
  docs: Doc[];
  pos: number;
}

export interface CommandContext {
  engine: Engine;
  cursors: Map<number, Cursor>;
  nextCursorId: () => number;
  connectionId: number;
  /** The client's application name from its handshake. */
  appName?: string;
  /** Logical sessions seen in commands (`lsid`), for $listLocalSessions. */
  sessions?: Map<string, { id: unknown; lastUse: Date }>;
  /** Present when test commands are enabled (see failpoints.ts). */
  failPoints?: FailPoints;
}

type Handler = (cmd: Doc, db: string, ctx: CommandContext) => Doc;

function collName(cmd: Doc, key: string): string {
  const name = cmd[key];
  if (typeof name !== 'string' || name.length === 0) {
    throw serverError('InvalidNamespace', `collection name has invalid type ${typeof name}`);
  }
  return name;
}

function num(v: unknown, fallback: number): number {
  if (v === undefined || v === null) return fallback;
  const n = Number(v instanceof Long ? v.toNumber() : v);
  if (!Number.isFinite(n)) throw badValue(`expected a number, got ${String(v)}`);
  return n;
}

/** Takes up to `count` documents (and at most ~16 MiB) from the cursor. */
function takeBatch(cursor: Cursor, count: number): Doc[] {
  const out: Doc[] = [];
  let bytes = 0;
  while (cursor.pos < cursor.docs.length && out.length < count) {
    const d = cursor.docs[cursor.pos] as Doc;
    const size = calculateObjectSize(d);
    if (out.length > 0 && bytes + size > BATCH_BYTES) break;
    out.push(d);
    bytes += size;
    cursor.pos++;
  }
  return out;
}

function cursorReply(
  ctx: CommandContext,
  ns: string,
  docs: Doc[],
  batchSize: number | undefined,
  single = false,
): Doc {
  const cursor: Cursor = { ns, docs, pos: 0 };
  const first = takeBatch(
    cursor,
    batchSize === undefined || batchSize === 0 ? DEFAULT_BATCH : batchSize,
  );
  let id = 0;
  if (!single && cursor.pos < docs.length) {
    id = ctx.nextCursorId();
    ctx.cursors.set(id, cursor);
  }
  return { cursor: { firstBatch: first, id: Long.fromNumber(id), ns }, ok: 1 };
}

function rejectTransactions(cmd: Doc): void {
  if (
    cmd.txnNumber !== undefined ||
    cmd.startTransaction !== undefined ||
    cmd.autocommit !== undefined
  ) {
    throw serverError(
      'IllegalOperation',
      'Transaction numbers are only allowed on a replica set member or mongos',
    );
  }
}

interface WriteError {
  index: number;
  code: number;
  errmsg: string;
  [k: string]: unknown;
}

function toWriteError(e: unknown, index: number): WriteError {
  if (e instanceof MongoServerError) return { index, code: e.code, errmsg: e.message, ...e.extra };
  return { index, code: 1, errmsg: e instanceof Error ? e.message : String(e) };
}

function validateId(doc: Doc): void {
  const id = doc._id;
  if (Array.isArray(id))
    throw serverError('InvalidIdField', "The '_id' value cannot be of type array");
  if (id instanceof RegExp)
    throw serverError('InvalidIdField', "The '_id' value cannot be of type regex");
  if (isPlainObject(id)) {
    const dollar = dollarPrefixedKey(id);
    if (dollar)
      throw serverError(
        'DollarPrefixedFieldName',
        `_id fields may not contain '$'-prefixed fields: ${dollar} is not valid for storage.`,
      );
  }
}

function dollarPrefixedKey(v: unknown): string | undefined {
  if (Array.isArray(v)) {
    for (const x of v) {
      const k = dollarPrefixedKey(x);
      if (k) return k;
    }
    return undefined;
  }
  if (!isPlainObject(v)) return undefined;
  for (const [k, x] of Object.entries(v)) {
    if (k.startsWith('$')) return k;
    const inner = dollarPrefixedKey(x);
    if (inner) return inner;
  }
  return undefined;
}

function prepareInsert(doc: unknown): Doc {
  if (!isPlainObject(doc)) throw badValue('document to insert must be an object');
  const out = cloneDoc(doc);
  if (out._id === undefined) return { _id: new ObjectId(), ...out };
  validateId(out);
  if (Object.keys(out)[0] !== '_id') {
    const { _id, ...rest } = out;
    return { _id, ...rest };
  }
  return out;
}

const insert: Handler = (cmd, db, { engine }) => {
  rejectTransactions(cmd);
  const docs = cmd.documents;
  if (!Array.isArray(docs))
    throw serverError(
      'FailedToParse',
      "BSON field 'insert.documents' is missing but a required field",
    );
  const ordered = cmd.ordered !== false;
  const name = collName(cmd, 'insert');
  rejectView(engine, db, name);
  const coll = engine.getOrCreate(db, name);
  const bypass = cmd.bypassDocumentValidation === true;
  const writeErrors: WriteError[] = [];
  let n = 0;
  docs.forEach((raw, index) => {
    if (ordered && writeErrors.length) return;
    try {
      const doc = prepareInsert(raw);
      validateDocument(coll, doc, undefined, bypass);
      engine.insert(coll, doc);
      n++;
    } catch (e) {
      writeErrors.push(toWriteError(e, index));
    }
  });
  return writeErrors.length ? { n, writeErrors, ok: 1 } : { n, ok: 1 };
};

/** Updates matching documents; returns counts and the upserted _id if one was inserted. */
function updateDocuments(
  engine: Engine,
  db: string,
  name: string,
  spec: Doc,
): { n: number; nModified: number; upserted?: unknown } {
  const filter = (spec.q ?? {}) as Doc;
  const multi = spec.multi === true;
  const variables = spec.let as Doc | undefined;
  const bypass = spec.bypassDocumentValidation === true;
  const opts = {
    arrayFilters: spec.arrayFilters as Doc[] | undefined,
    variables,
  };
  if (
    multi &&
    isPlainObject(spec.u) &&
    !Object.keys(spec.u).some((k) => k.startsWith('$')) &&
    !Array.isArray(spec.u)
  ) {
    throw serverError(
      'FailedToParse',
      'multi update is not supported for replacement-style update',
    );
  }
  const coll = engine.collection(db, name);
  rejectCollation(spec.collation);
  checkHint(coll, spec.hint);
  const matches = findDocs(coll, filter, { limit: multi ? 0 : 1, variables });
  if (matches.length === 0) {
    compileFilter(filter, variables);
    if (spec.upsert !== true) {
      applyUpdate({}, spec.u, { ...opts, inserting: true }); // surface invalid updates as errors
      return { n: 0, nModified: 0 };
    }
    const doc = buildUpsert(filter, spec.u, opts);
    validateId(doc);
    const target = engine.getOrCreate(db, name);
    validateDocument(target, doc, undefined, bypass);
    engine.insert(target, doc);
    return { n: 1, nModified: 0, upserted: doc._id };
  }
  let nModified = 0;
  for (const old of matches) {
    const updated = applyUpdate(old, spec.u, opts);
    if (sameDocument(old, updated)) continue;
    validateDocument(coll as Collection, updated, old, bypass);
    engine.replace(coll as Collection, old, updated);
    nModified++;
  }
  return { n: matches.length, nModified };
}

function sameDocument(a: Doc, b: Doc): boolean {
  return valueKey(a) === valueKey(b);
}

const update: Handler = (cmd, db, { engine }) => {
  rejectTransactions(cmd);
  const updates = cmd.updates;
  if (!Array.isArray(updates))
    throw serverError(
      'FailedToParse',
      "BSON field 'update.updates' is missing but a required field",
    );
  const name = collName(cmd, 'update');
  rejectView(engine, db, name);
  const ordered = cmd.ordered !== false;
  for (const spec of updates) {
    // MongoDB 7.0 (the version this server reports) has no `sort` for update statements (8.0 does).
    if (isPlainObject(spec) && spec.sort !== undefined)
      throw serverError('Location40415', "BSON field 'update.updates.sort' is an unknown field.");
  }
  const variables = evalLet(cmd.let);
  const writeErrors: WriteError[] = [];
  const upserted: Doc[] = [];
  let n = 0;
  let nModified = 0;
  updates.forEach((spec, index) => {
    if (ordered && writeErrors.length) return;
    try {
      if (!isPlainObject(spec)) throw badValue('update statement must be an object');
      const r = updateDocuments(engine, db, name, {
        ...spec,
        let: variables,
        bypassDocumentValidation: cmd.bypassDocumentValidation,
      });
      n += r.n;
      nModified += r.nModified;
      if (r.upserted !== undefined) upserted.push({ index, _id: r.upserted });
    } catch (e) {
      writeErrors.push(toWriteError(e, index));
    }
  });
  const reply: Doc = { n, nModified };
  if (upserted.length) reply.upserted = upserted;
  if (writeErrors.length) reply.writeErrors = writeErrors;
  reply.ok = 1;
  return reply;
};

const del: Handler = (cmd, db, { engine }) => {
  rejectTransactions(cmd);
  const deletes = cmd.deletes;
  if (!Array.isArray(deletes))
    throw serverError(
      'FailedToParse',
      "BSON field 'delete.deletes' is missing but a required field",
    );
  const name = collName(cmd, 'delete');
  rejectView(engine, db, name);
  const ordered = cmd.ordered !== false;
  const variables = evalLet(cmd.let);
  const writeErrors: WriteError[] = [];
  let n = 0;
  deletes.forEach((spec, index) => {
    if (ordered && writeErrors.length) return;
    try {
      if (!isPlainObject(spec)) throw badValue('delete statement must be an object');
      const coll = engine.collection(db, name);
      rejectCollation(spec.collation);
      checkHint(coll, spec.hint);
      const limit = num(spec.limit, 0);
      const matches = findDocs(coll, (spec.q ?? {}) as Doc, {
        limit: limit === 1 ? 1 : 0,
        variables,
      });
      for (const d of matches) engine.remove(coll as Collection, d);
      n += matches.length;
    } catch (e) {
      writeErrors.push(toWriteError(e, index));
    }
  });
  return writeErrors.length ? { n, writeErrors, ok: 1 } : { n, ok: 1 };
};

const find: Handler = (cmd, db, ctx) => {
  const name = collName(cmd, 'find');
  const filter = (cmd.filter ?? {}) as Doc;
  const limitRaw = num(cmd.limit, 0);
  const single = cmd.singleBatch === true || limitRaw < 0;
  const limit = Math.abs(limitRaw);
  const skip = num(cmd.skip, 0);
  if (skip < 0) throw badValue('skip value must be non-negative');
  rejectCollation(cmd.collation);
  checkHint(ctx.engine.collection(db, name), cmd.hint);
  const docs = readDocs(ctx.engine, db, name, filter, {
    sort: parseSort(cmd.sort),
    skip,
    limit,
    variables: evalLet(cmd.let),
  });
  const out = project(docs, filter, cmd.projection);
  const batchSize = cmd.batchSize === undefined ? undefined : num(cmd.batchSize, DEFAULT_BATCH);
  return cursorReply(
    ctx,
    `${db}.${name}`,
    out,
    limit && batchSize ? Math.min(limit, batchSize) : (batchSize ?? (limit || undefined)),
    single,
  );
};

const getMore: Handler = (cmd, db, ctx) => {
  const id = num(cmd.getMore, 0);
  const cursor = ctx.cursors.get(id);
  if (!cursor) throw serverError('CursorNotFound', `cursor id ${id} not found`);
  const batch = takeBatch(cursor, cmd.batchSize ? num(cmd.batchSize, 0) : Infinity);
  const done = cursor.pos >= cursor.docs.length;
  if (done) ctx.cursors.delete(id);
  return { cursor: { nextBatch: batch, id: Long.fromNumber(done ? 0 : id), ns: cursor.ns }, ok: 1 };
};

const killCursors: Handler = (cmd, _db, ctx) => {
  const ids = Array.isArray(cmd.cursors) ? cmd.cursors : [];
  const killed: Long[] = [];
  const notFound: Long[] = [];
  for (const raw of ids) {
    const id = num(raw, 0);
    (ctx.cursors.delete(id) ? killed : notFound).push(Long.fromNumber(id));
  }
  return {
    cursorsKilled: killed,
    cursorsNotFound: notFound,
    cursorsAlive: [],
    cursorsUnknown: [],
    ok: 1,
  };
};

const count: Handler = (cmd, db, { engine }) => {
  const name = collName(cmd, 'count');
  rejectCollation(cmd.collation);
  const coll = engine.collection(db, name);
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
  if (coll && !isView(coll) && isPlainObject(query) && paging) {
    const n = coveredCount(coll, query);
    if (n !== undefined) return { n: Math.min(Math.max(n - skip, 0), limit || Infinity), ok: 1 };
  }
  const docs = readDocs(engine, db, name, query, { skip, limit });
  return { n: docs.length, ok: 1 };
};

const distinct: Handler = (cmd, db, { engine }) => {
  const name = collName(cmd, 'distinct');
  rejectCollation(cmd.collation);
  if (typeof cmd.key !== 'string') throw badValue("'key' must be a string");
  const docs = readDocs(engine, db, name, (cmd.query ?? {}) as Doc);
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

const findAndModify: Handler = (cmd, db, { engine }) => {
  rejectTransactions(cmd);
  const name = collName(cmd, 'findAndModify');
  const filter = (cmd.query ?? {}) as Doc;
  const remove = cmd.remove === true;
  if (remove && cmd.update !== undefined)
    throw serverError('FailedToParse', 'Cannot specify both an update and remove=true');
  if (!remove && cmd.update === undefined)
    throw serverError('FailedToParse', 'Either an update or remove=true must be specified');
  if (remove && cmd.upsert === true)
    throw serverError('FailedToParse', 'Cannot specify both upsert=true and remove=true');
  rejectView(engine, db, name);
  const coll = engine.collection(db, name);
  rejectCollation(cmd.collation);
  checkHint(coll, cmd.hint);
  const variables = evalLet(cmd.let);
  const bypass = cmd.bypassDocumentValidation === true;
  const [old] = findDocs(coll, filter, { sort: parseSort(cmd.sort), limit: 1, variables });
  const shape = (d: Doc | undefined) =>
    (d && cmd.fields ? project([d], {}, cmd.fields)[0] : d) ?? null;
  const opts = {
    arrayFilters: cmd.arrayFilters as Doc[] | undefined,
    variables,
  };
  if (remove) {
    if (old) engine.remove(coll as Collection, old);
    return { lastErrorObject: { n: old ? 1 : 0 }, value: shape(old), ok: 1 };
  }
  if (!old) {
    compileFilter(filter, variables);
    if (cmd.upsert !== true) {
      applyUpdate({}, cmd.update, { ...opts, inserting: true });
      return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
    }
    const doc = buildUpsert(filter, cmd.update, opts);
    validateId(doc);
    const target = engine.getOrCreate(db, name);
    validateDocument(target, doc, undefined, bypass);
    engine.insert(target, doc);
    return {
      lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id },
      value: cmd.new === true ? shape(doc) : null,
      ok: 1,
    };
  }
  const updated = applyUpdate(old, cmd.update, opts);
  if (!sameDocument(old, updated)) {
    validateDocument(coll as Collection, updated, old, bypass);
    engine.replace(coll as Collection, old, updated);
  }
  return {
    lastErrorObject: { n: 1, updatedExisting: true },
    value: shape(cmd.new === true ? updated : old),
    ok: 1,
  };
};

function resolver(engine: Engine, db: string) {
  return (name: string) => allDocs(engine, db, name);
}

/** Every document of a collection, or of a view (its pipeline run over its source). */
function allDocs(engine: Engine, db: string, name: string, depth = 0): Doc[] {
  const coll = engine.collection(db, name);
  if (!coll) return [];
  if (!isView(coll)) return [...coll.docs.values()];
  if (depth > 20)
    throw serverError(
      'ViewDepthLimitExceeded',
      'View depth too deep or view cycle detected; maximum depth is 20',
    );
  const input = allDocs(engine, db, String(coll.options.viewOn), depth + 1);
  return guard(
    () =>
      new Aggregator(normalizeTimezones(coll.options.pipeline as Doc[]), {
        collectionResolver: resolver(engine, db),
        processingMode: 1,
      }).run(input) as Doc[],
  );
}

function isView(coll: Collection | undefined): boolean {
  return coll !== undefined && typeof coll.options.viewOn === 'string';
}

/** find/count/distinct input: the planner over a collection, or a filter over a view's output. */
function readDocs(
  engine: Engine,
  db: string,
  name: string,
  filter: Doc,
  opts: FindOptions = {},
): Doc[] {
  const coll = engine.collection(db, name);
  if (isView(coll)) return findInDocs(allDocs(engine, db, name), filter, opts);
  return findDocs(coll, filter, opts);
}

/**
 * mongod refuses a hint naming no existing index (by name or key pattern) with BadValue;
 * `$natural` hints and hints on a collection that does not exist are accepted.
 */
function checkHint(coll: Collection | undefined, hint: unknown): void {
  if (hint === undefined || hint === null || !coll || isView(coll)) return;
  if (typeof hint === 'string') {
    if (coll.index(hint)) return;
  } else if (isPlainObject(hint)) {
    if (Object.keys(hint).length === 0 || '$natural' in hint) return;
    const key = valueKey(hint);
    if (coll.indexes.some((i) => valueKey(i.spec.key) === key)) return;
  } else {
    throw badValue('hint must be a string or an object');
  }
  throw badValue('hint provided does not correspond to an existing index');
}

/** Collations are not supported (see the package README): refuse rather than compare binary. */
function rejectCollation(collation: unknown): void {
  if (collation !== undefined && collation !== null)
    throw badValue('collation is not supported by this server');
}

function rejectView(engine: Engine, db: string, name: string): void {
  if (isView(engine.collection(db, name)))
    throw serverError(
      'CommandNotSupportedOnView',
      `Namespace ${db}.${name} is a view, not a collection`,
    );
}

const aggregate: Handler = (cmd, db, ctx) => {
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
  rejectCollation(cmd.collation);
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

function cursorBatchSize(cmd: Doc): number | undefined {
  return isPlainObject(cmd.cursor) && cmd.cursor.batchSize !== undefined
    ? num(cmd.cursor.batchSize, DEFAULT_BATCH)
    : undefined;
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

function indexSpecOut(spec: IndexSpec): Doc {
  return { v: 2, ...spec };
}

const createIndexes: Handler = (cmd, db, { engine }) => {
  const name = collName(cmd, 'createIndexes');
  const specs = cmd.indexes;
  if (!Array.isArray(specs) || specs.length === 0)
    throw badValue('Must specify at least one index to create');
  const existed = engine.collection(db, name) !== undefined;
  const coll = engine.getOrCreate(db, name);
  const before = coll.indexes.length;
  for (const raw of specs) {
    if (!isPlainObject(raw) || !isPlainObject(raw.key) || Object.keys(raw.key).length === 0) {
      throw serverError('FailedToParse', 'index specification must have a non-empty key document');
    }
    for (const v of Object.values(raw.key)) {
      if (v !== 1 && v !== -1 && !(typeof v === 'number' && v !== 0)) {
        throw serverError(
          'InvalidOptions',
          `index type ${JSON.stringify(v)} is not supported by this server`,
        );
      }
    }
    const key: Doc = {};
    for (const [k, v] of Object.entries(raw.key)) key[k] = (v as number) > 0 ? 1 : -1;
    const spec = {
      ...raw,
      key,
      name:
        typeof raw.name === 'string'
          ? raw.name
          : Object.entries(key)
              .map(([k, v]) => `${k}_${v}`)
              .join('_'),
    } as IndexSpec;
    delete spec.v;
    const sameName = coll.index(spec.name);
    const sameKey = coll.indexes.find((i) => valueKey(i.spec.key) === valueKey(spec.key));
    if (sameName) {
      if (valueKey(sameName.spec.key) !== valueKey(spec.key)) {
        throw serverError(
          'IndexKeySpecsConflict',
          `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName.spec)}`,
        );
      }
      if (Boolean(sameName.spec.unique) !== Boolean(spec.unique)) {
        throw serverError(
          'IndexOptionsConflict',
          `An equivalent index already exists with the same name but different options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName.spec)}`,
        );
      }
      continue;
    }
    if (
      sameKey &&
      Boolean(sameKey.spec.unique) === Boolean(spec.unique) &&
      !spec.partialFilterExpression
    ) {
      throw serverError(
        'IndexOptionsConflict',
        `Index already exists with a different name: ${sameKey.name}`,
      );
    }
    engine.createIndex(coll, spec);
  }
  const reply: Doc = {
    numIndexesBefore: before,
    numIndexesAfter: coll.indexes.length,
    createdCollectionAutomatically: !existed,
  };
  if (before === coll.indexes.length) reply.note = 'all indexes already exist';
  reply.ok = 1;
  return reply;
};

const listIndexes: Handler = (cmd, db, ctx) => {
  const name = collName(cmd, 'listIndexes');
  const coll = ctx.engine.collection(db, name);
  if (!coll) throw serverError('NamespaceNotFound', `ns does not exist: ${db}.${name}`);
  const batch =
    isPlainObject(cmd.cursor) && cmd.cursor.batchSize !== undefined
      ? num(cmd.cursor.batchSize, DEFAULT_BATCH)
      : undefined;
  return cursorReply(
    ctx,
    `${db}.${name}`,
    coll.indexes.map((i) => indexSpecOut(i.spec)),
    batch,
  );
};

const dropIndexes: Handler = (cmd, db, { engine }) => {
  const name = collName(cmd, 'dropIndexes');
  const coll = engine.collection(db, name);
  if (!coll) throw serverError('NamespaceNotFound', `ns not found ${db}.${name}`);
  const was = coll.indexes.length;
  const which = cmd.index;
  const names: string[] = [];
  if (which === '*') names.push(...coll.indexes.slice(1).map((i) => i.name));
  else if (typeof which === 'string') names.push(which);
  else if (Array.isArray(which)) names.push(...which.map(String));
  else if (isPlainObject(which)) {
    const ix = coll.indexes.find((i) => valueKey(i.spec.key) === valueKey(which));
    if (!ix)
      throw serverError('IndexNotFound', `can't find index with key: ${JSON.stringify(which)}`);
    names.push(ix.name);
  } else throw badValue('dropIndexes needs an index name, key pattern or "*"');
  for (const n of names) {
    if (n === '_id_') throw serverError('InvalidOptions', 'cannot drop _id index');
    if (!coll.index(n)) throw serverError('IndexNotFound', `index not found with name [${n}]`);
  }
  for (const n of names) engine.dropIndex(coll, n);
  return { nIndexesWas: was, ok: 1 };
};

const listCollections: Handler = (cmd, db, ctx) => {
  const colls = [...(ctx.engine.dbs.get(db)?.values() ?? [])];
  const infos: Doc[] = colls.map((c) =>
    cmd.nameOnly === true
      ? { name: c.name, type: isView(c) ? 'view' : 'collection' }
      : isView(c)
        ? { name: c.name, type: 'view', options: c.options, info: { readOnly: true } }
        : {
            name: c.name,
            type: 'collection',
            options: c.options,
            info: { readOnly: false },
            idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
          },
  );
  const filter = isPlainObject(cmd.filter) ? cmd.filter : {};
  const query = compileFilter(filter);
  const batch =
    isPlainObject(cmd.cursor) && cmd.cursor.batchSize !== undefined
      ? num(cmd.cursor.batchSize, DEFAULT_BATCH)
      : undefined;
  return cursorReply(
    ctx,
    `${db}.$cmd.listCollections`,
    infos.filter((i) => query.test(i)),
    batch,
  );
};

const listDatabases: Handler = (cmd, _db, { engine }) => {
  const dbs = [...engine.dbs.entries()].map(([name, colls]) => ({
    name,
    sizeOnDisk: 0,
    empty: colls.size === 0,
  }));
  if (cmd.nameOnly === true) return { databases: dbs.map((d) => ({ name: d.name })), ok: 1 };
  return { databases: dbs, totalSize: 0, totalSizeMb: 0, ok: 1 };
};

const create: Handler = (cmd, db, { engine }) => {
  const name = collName(cmd, 'create');
  const options: Doc = {};
  for (const [k, v] of Object.entries(cmd))
    if (!GENERIC_FIELDS.has(k) && k !== 'create') options[k] = v;
  checkValidatorOptions(options);
  if (options.viewOn !== undefined) {
    if (typeof options.viewOn !== 'string' || options.viewOn === '')
      throw serverError('TypeMismatch', "'viewOn' must be a non-empty string");
    if (options.pipeline === undefined) options.pipeline = [];
    if (!Array.isArray(options.pipeline))
      throw serverError('TypeMismatch', "'pipeline' must be an array");
  } else if (options.pipeline !== undefined) {
    throw badValue("'pipeline' requires 'viewOn' to also be specified");
  }
  engine.createCollection(db, name, options);
  return { ok: 1 };
};

/** Fields every command may carry that are not options of the command itself. */
const GENERIC_FIELDS = new Set([
  '$db',
  'lsid',
  '$clusterTime',
  'writeConcern',
  'readConcern',
  '$readPreference',
  'comment',
  'maxTimeMS',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'txnNumber',
  'autocommit',
  'startTransaction',
]);

const collMod: Handler = (cmd, db, { engine }) => {
  const name = collName(cmd, 'collMod');
  const coll = engine.collection(db, name);
  if (!coll) throw serverError('NamespaceNotFound', `ns does not exist: ${db}.${name}`);
  const next: Doc = { ...coll.options };
  for (const [k, v] of Object.entries(cmd)) {
    if (GENERIC_FIELDS.has(k) || k === 'collMod') continue;
    if (
      isView(coll)
        ? k !== 'viewOn' && k !== 'pipeline'
        : !['validator', 'validationLevel', 'validationAction'].includes(k)
    )
      throw serverError('InvalidOptions', `collMod option '${k}' is not supported by this server`);
    next[k] = v;
  }
  checkValidatorOptions(next);
  engine.setOptions(coll, next);
  return { ok: 1 };
};

const drop: Handler = (cmd, db, { engine }) => {
  const name = collName(cmd, 'drop');
  const coll = engine.collection(db, name);
  const nIndexesWas = coll?.indexes.length ?? 0;
  engine.drop(db, name);
  return { nIndexesWas, ns: `${db}.${name}`, ok: 1 };
};

const dropDatabase: Handler = (_cmd, db, { engine }) => {
  engine.dropDatabase(db);
  return { dropped: db, ok: 1 };
};

function hello(cmd: Doc, ctx: CommandContext, legacy: boolean): Doc {
  const reply: Doc = {
    helloOk: true,
    maxBsonObjectSize: MAX_BSON_BYTES,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
    ok: 1,
  };
  if (legacy && cmd.helloOk !== true) return { ismaster: true, ...reply };
  return { isWritablePrimary: true, ...reply };
}

const buildInfo: Handler = () => ({
  version: SERVER_VERSION,
  gitVersion: 'campus-embedded-mongo',
  versionArray: [7, 0, 0, 0],
  bits: 64,
  debug: false,
  maxBsonObjectSize: MAX_BSON_BYTES,
  storageEngines: ['embedded'],
  ok: 1,
});

const getParameter: Handler = (cmd) => {
  const reply: Doc = {};
  if (cmd.featureCompatibilityVersion !== undefined || cmd.getParameter === '*') {
    reply.featureCompatibilityVersion = { version: '7.0' };
  }
  reply.ok = 1;
  return reply;
};

const ok: Handler = () => ({ ok: 1 });

const configureFailPoint: Handler = (cmd, db, ctx) => {
  if (!ctx.failPoints)
    throw serverError('CommandNotFound', "no such command: 'configureFailPoint'");
  if (db !== 'admin')
    throw serverError(
      'Unauthorized',
      'configureFailPoint may only be run against the admin database.',
    );
  return ctx.failPoints.configure(cmd);
};

export const commands: Record<string, Handler> = {
  hello: (cmd, _db, ctx) => hello(cmd, ctx, false),
  ismaster: (cmd, _db, ctx) => hello(cmd, ctx, true),
  isMaster: (cmd, _db, ctx) => hello(cmd, ctx, true),
  ping: ok,
  buildInfo,
  buildinfo: buildInfo,
  getParameter,
  endSessions: (cmd, _db, ctx) => {
    for (const s of Array.isArray(cmd.endSessions) ? cmd.endSessions : [])
      if (isPlainObject(s)) ctx.sessions?.delete(valueKey(s.id));
    return { ok: 1 };
  },
  killAllSessions: ok,
  listDatabases,
  listCollections,
  create,
  collMod,
  drop,
  dropDatabase,
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: (cmd, db, ctx) => dropIndexes({ ...cmd, dropIndexes: cmd.deleteIndexes }, db, ctx),
  insert,
  find,
  getMore,
  killCursors,
  update,
  delete: del,
  findAndModify,
  findandmodify: (cmd, db, ctx) =>
    findAndModify({ ...cmd, findAndModify: cmd.findandmodify }, db, ctx),
  count,
  distinct,
  aggregate,
  configureFailPoint,
};

/** Runs one command and always returns a reply document (errors become `ok: 0`). */
export function runCommand(body: Doc, defaultDb: string, ctx: CommandContext): Doc {
  const name = Object.keys(body)[0];
  const db = typeof body.$db === 'string' ? body.$db : defaultDb;
  if (ctx.sessions && isPlainObject(body.lsid) && body.lsid.id !== undefined) {
    ctx.sessions.set(valueKey(body.lsid.id), { id: body.lsid.id, lastUse: new Date() });
    if (ctx.sessions.size > MAX_TRACKED_SESSIONS) {
      const oldest = ctx.sessions.keys().next().value;
      if (oldest !== undefined) ctx.sessions.delete(oldest);
    }
  }
  try {
    const handler =
      name === undefined ? undefined : Object.hasOwn(commands, name) ? commands[name] : undefined;
    if (!handler) {
      throw serverError('CommandNotFound', `no such command: '${name ?? ''}'`);
    }
    return handler(body, db, ctx);
  } catch (e) {
    if (e instanceof MongoServerError) {
      return { ok: 0, errmsg: e.message, code: e.code, codeName: e.codeName, ...e.extra };
    }
    return {
      ok: 0,
      errmsg: e instanceof Error ? e.message : String(e),
      code: 1,
      codeName: 'InternalError',
    };
  }
}

export type { SortSpec };
