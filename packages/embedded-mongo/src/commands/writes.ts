/** The write commands: insert, update, delete and findAndModify. */
import { ObjectId } from 'bson';
import type { Collection } from '../collection';
import type { Engine } from '../engine';
import { checkInsertSize, checkUpdatedSize, checkUpsertSize } from '../doc-size';
import { badValue, serverError, MongoServerError } from '../errors';
import {
  applyUpdate,
  buildUpsert,
  checkUpdate,
  compileFilter,
  evalLet,
  findDocs,
  parseSort,
  project,
  type UpdateOptions,
} from '../query';
import { validateDocument } from '../validation';
import { cloneDoc, isPlainObject, sameDocument, type Doc } from '../values';
import { checkCollatedUpdate } from '../collation';
import { mentionsText } from '../text/search';
import { checkHint, collName, num, readCollator, type Handler } from './context';
import { rejectView } from './views';
import { checkPipeline } from './pipelines';
import { RAW_DOCUMENTS } from '../wire';

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

/**
 * The document to store for an insert: `_id` first (a new ObjectId when missing). `owned` when
 * nothing else holds `doc` (the insert command's documents, decoded from this message), which is
 * then stored as it is instead of copied.
 */
export function prepareInsert(doc: unknown, owned = false): Doc {
  if (!isPlainObject(doc)) throw badValue('document to insert must be an object');
  const out = owned ? doc : cloneDoc(doc);
  if (out._id === undefined) return { _id: new ObjectId(), ...out };
  validateId(out);
  if (Object.keys(out)[0] !== '_id') {
    const { _id, ...rest } = out;
    return { _id, ...rest };
  }
  return out;
}

export const insert: Handler = (cmd, db, { engine }) => {
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
  // The documents' bytes as they arrived (see RAW_DOCUMENTS), journaled as they are when the
  // stored document is the decoded one unchanged (its _id was there, first).
  const bytes = (cmd as Record<symbol, unknown>)[RAW_DOCUMENTS] as Buffer[] | undefined;
  docs.forEach((raw, index) => {
    if (ordered && writeErrors.length) return;
    try {
      const doc = prepareInsert(raw, true);
      const encoded = doc === raw ? bytes?.[index] : undefined;
      checkInsertSize(doc, encoded?.length);
      validateDocument(coll, doc, undefined, bypass);
      engine.insert(coll, doc, encoded);
      n++;
    } catch (e) {
      writeErrors.push(toWriteError(e, index));
    }
  });
  return writeErrors.length ? { n, writeErrors, ok: 1 } : { n, ok: 1 };
};

/** The stages an update pipeline may hold (mongod refuses others with InvalidOptions). */
const UPDATE_PIPELINE_STAGES = new Set([
  '$addFields',
  '$set',
  '$project',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
]);

/**
 * Refuses an update mongod would refuse, when no document matched: an operator update or a
 * replacement as query.ts checkUpdate does; a pipeline by its stages, without running it (mongod
 * does not evaluate its expressions when nothing matches: `$add` of a missing field is no error
 * then).
 */
function checkUnmatchedUpdate(update: unknown, opts: UpdateOptions): void {
  if (!Array.isArray(update)) {
    checkUpdate(update, opts);
    return;
  }
  if (opts.arrayFilters?.length)
    throw serverError(
      'FailedToParse',
      'arrayFilters may not be specified for pipeline-style updates',
    );
  checkPipeline(update);
  for (const stage of update as Doc[]) {
    const name = Object.keys(stage)[0] as string;
    if (!UPDATE_PIPELINE_STAGES.has(name))
      throw serverError('InvalidOptions', `${name} is not allowed to be used within an update`);
  }
}

/**
 * The variables of an update statement: the command's `let` and, for a pipeline update, the
 * statement's constants `c` (mongod refuses `c` with any other update, code 51198).
 */
function withConstants(letVars: Doc | undefined, c: unknown, u: unknown): Doc | undefined {
  if (c === undefined) return letVars;
  if (!Array.isArray(u))
    throw serverError(
      'Location51198',
      'Constant values may only be specified for pipeline updates',
    );
  if (!isPlainObject(c))
    throw serverError(
      'TypeMismatch',
      "BSON field 'update.updates.c' is the wrong type, expected type 'object'",
    );
  return { ...letVars, ...c };
}

/** Updates matching documents; returns counts and the upserted _id if one was inserted. */
function updateDocuments(
  engine: Engine,
  db: string,
  name: string,
  spec: Doc,
): { n: number; nModified: number; upserted?: unknown } {
  const filter = (spec.q ?? {}) as Doc;
  const multi = spec.multi === true;
  const variables = withConstants(spec.let as Doc | undefined, spec.c, spec.u);
  const bypass = spec.bypassDocumentValidation === true;
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
  const collator = readCollator(spec.collation, coll);
  if (collator) checkCollatedUpdate(spec.u, spec.arrayFilters);
  const opts: UpdateOptions = {
    arrayFilters: spec.arrayFilters as Doc[] | undefined,
    variables,
    filter,
    collator,
  };
  checkHint(coll, spec.hint);
  const ns = `${db}.${name}`;
  const matches = findDocs(coll, filter, { limit: multi ? 0 : 1, variables, collator, ns });
  if (matches.length === 0) {
    compileFilter(filter, variables, collator);
    if (spec.upsert !== true) {
      checkUnmatchedUpdate(spec.u, opts); // surface invalid updates as errors
      return { n: 0, nModified: 0 };
    }
    const doc = buildUpsert(filter, spec.u, opts);
    validateId(doc);
    checkUpsertSize(doc);
    const target = engine.getOrCreate(db, name);
    validateDocument(target, doc, undefined, bypass);
    engine.insert(target, doc);
    return { n: 1, nModified: 0, upserted: doc._id };
  }
  let nModified = 0;
  for (const old of matches) {
    const updated = applyUpdate(old, spec.u, opts);
    if (sameDocument(old, updated)) continue;
    checkUpdatedSize(old, updated);
    validateDocument(coll as Collection, updated, old, bypass);
    engine.replace(coll as Collection, old, updated);
    nModified++;
  }
  return { n: matches.length, nModified };
}

export const update: Handler = (cmd, db, { engine }) => {
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

export const del: Handler = (cmd, db, { engine }) => {
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
      const collator = readCollator(spec.collation, coll);
      checkHint(coll, spec.hint);
      const limit = num(spec.limit, 0);
      if (limit !== 0 && limit !== 1)
        throw serverError(
          'FailedToParse',
          `The limit field in delete objects must be 0 or 1. Got ${limit}`,
        );
      const matches = findDocs(coll, (spec.q ?? {}) as Doc, {
        limit: limit === 1 ? 1 : 0,
        variables,
        collator,
        ns: `${db}.${name}`,
      });
      for (const d of matches) engine.remove(coll as Collection, d);
      n += matches.length;
    } catch (e) {
      writeErrors.push(toWriteError(e, index));
    }
  });
  return writeErrors.length ? { n, writeErrors, ok: 1 } : { n, ok: 1 };
};

export const findAndModify: Handler = (cmd, db, { engine }) => {
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
  const collator = readCollator(cmd.collation, coll);
  if (collator && !remove) checkCollatedUpdate(cmd.update, cmd.arrayFilters);
  checkHint(coll, cmd.hint);
  const variables = evalLet(cmd.let);
  const bypass = cmd.bypassDocumentValidation === true;
  const textScores = new Map<Doc, number>();
  const [old] = findDocs(coll, filter, {
    sort: parseSort(cmd.sort),
    limit: 1,
    variables,
    collator,
    ns: `${db}.${name}`,
    textScores,
  });
  // A text score is the matched document's, also for the version after the update.
  const text = isPlainObject(filter) && mentionsText(filter);
  const scores = (d: Doc) => (old && text ? new Map([[d, textScores.get(old) ?? 0]]) : undefined);
  const shape = (d: Doc | undefined) =>
    (d && cmd.fields ? project([d], {}, cmd.fields, undefined, scores(d))[0] : d) ?? null;
  const opts: UpdateOptions = {
    arrayFilters: cmd.arrayFilters as Doc[] | undefined,
    variables,
    filter,
    collator,
  };
  if (remove) {
    if (old) engine.remove(coll as Collection, old);
    return { lastErrorObject: { n: old ? 1 : 0 }, value: shape(old), ok: 1 };
  }
  if (!old) {
    compileFilter(filter, variables, collator);
    if (cmd.upsert !== true) {
      checkUnmatchedUpdate(cmd.update, opts);
      return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
    }
    const doc = buildUpsert(filter, cmd.update, opts);
    validateId(doc);
    checkUpsertSize(doc);
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
    checkUpdatedSize(old, updated);
    validateDocument(coll as Collection, updated, old, bypass);
    engine.replace(coll as Collection, old, updated);
  }
  return {
    lastErrorObject: { n: 1, updatedExisting: true },
    value: shape(cmd.new === true ? updated : old),
    ok: 1,
  };
};
