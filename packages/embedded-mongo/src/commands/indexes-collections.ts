/** Index and collection management: createIndexes, listIndexes, dropIndexes, create, collMod, drop... */
import type { Collection, IndexSpec } from '../collection';
import type { Engine } from '../engine';
import { checkCollation, displayCollation } from '../collation';
import { isTextIndexKey, normalizeTextIndexSpec } from '../text/spec';
import { badValue, serverError } from '../errors';
import { compileFilter } from '../query';
import { checkCreateOptions, checkIndexSpec } from '../unsupported';
import { checkValidatorOptions } from '../validation';
import { isPlainObject, valueKey, type Doc } from '../values';
import { collName, DEFAULT_BATCH, num, type Handler } from './context';
import { cursorReply } from './cursors';
import { isView } from './views';

/** An index spec as mongod lists it: `v`, `key`, `name`, then the options. */
function indexSpecOut(spec: IndexSpec): Doc {
  const { key, name, ...options } = spec;
  return { v: 2, key, name, ...options };
}

/**
 * The spec an index is stored with: its name (generated from the key as given when absent), a
 * text index's fields as mongod stores them (text/spec.ts), the collation (the collection's
 * default when it gives none; the simple one is no collation) as mongod reports it.
 */
function indexSpec(raw: Doc, collectionCollation: unknown): IndexSpec {
  const rawKey = raw.key as Doc;
  const name =
    typeof raw.name === 'string'
      ? raw.name
      : Object.entries(rawKey)
          .map(([k, v]) => `${k}_${typeof v === 'number' ? (v > 0 ? 1 : -1) : String(v)}`)
          .join('_');
  const out: Doc = { ...raw, name };
  delete out.v;
  // The namespace older clients put in specs (mongorestore does): mongod 4.4+ keeps none.
  delete out.ns;
  if (raw.collation !== undefined && !isPlainObject(raw.collation))
    throw serverError('CannotCreateIndex', '"collation" for an index must be a document');
  const given = checkCollation(raw.collation);
  const collation =
    given === null
      ? undefined
      : (given ?? (isPlainObject(collectionCollation) ? collectionCollation : undefined));
  if (collation) out.collation = collation;
  else delete out.collation;
  if (isTextIndexKey(rawKey)) {
    if (collation)
      throw serverError(
        'CannotCreateIndex',
        `Index type 'text' does not support collation: ${displayCollation(collation)}`,
      );
    if (raw.unique === true)
      throw serverError(
        'CannotCreateIndex',
        'unique text indexes are not supported by this server',
      );
    return normalizeTextIndexSpec(out) as IndexSpec;
  }
  const key: Doc = {};
  for (const [k, v] of Object.entries(rawKey)) key[k] = (v as number) > 0 ? 1 : -1;
  out.key = key;
  return out as IndexSpec;
}

/** An index spec without its name, in any field order: the same index when these are equal. */
function optionsKey(spec: IndexSpec): string {
  return Object.keys(spec)
    .filter((k) => k !== 'name')
    .sort()
    .map((k) => `${k}=${valueKey(spec[k])}`)
    .join(';');
}

function keySpecsConflict(spec: IndexSpec, existing: IndexSpec): Error {
  return serverError(
    'IndexKeySpecsConflict',
    `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(existing)}`,
  );
}

export const createIndexes: Handler = (cmd, db, { engine }) => {
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
    checkIndexSpec(raw);
    const text = isTextIndexKey(raw.key);
    const spec = indexSpec(raw, coll.options.collation);
    const sameName = coll.index(spec.name);
    if (text) {
      if (sameName) {
        if (valueKey(sameName.spec.key) !== valueKey(spec.key))
          throw keySpecsConflict(spec, sameName.spec);
        if (optionsKey(sameName.spec) !== optionsKey(spec))
          throw serverError(
            'IndexOptionsConflict',
            `An equivalent index already exists with the same name but different options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName.spec)}`,
          );
        continue;
      }
      const existing = coll.textIndex;
      if (existing) {
        if (valueKey(existing.spec.key) === valueKey(spec.key)) {
          if (optionsKey(existing.spec) === optionsKey(spec))
            throw serverError(
              'IndexOptionsConflict',
              `Index already exists with a different name: ${existing.name}`,
            );
          throw serverError(
            'IndexOptionsConflict',
            `An equivalent index already exists with a different name and options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(existing.spec)}`,
          );
        }
        throw serverError(
          'CannotCreateIndex',
          `only one text index per collection allowed, found existing text index "${existing.name}"`,
        );
      }
      engine.createIndex(coll, spec);
      continue;
    }
    const sameKey = coll.indexes.find(
      (i) =>
        valueKey(i.spec.key) === valueKey(spec.key) &&
        valueKey(i.spec.collation) === valueKey(spec.collation),
    );
    if (sameName) {
      if (
        valueKey(sameName.spec.key) !== valueKey(spec.key) ||
        valueKey(sameName.spec.collation) !== valueKey(spec.collation)
      ) {
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

export const listIndexes: Handler = (cmd, db, ctx) => {
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

export const dropIndexes: Handler = (cmd, db, { engine }) => {
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

export const listCollections: Handler = (cmd, db, ctx) => {
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
            idIndex: indexSpecOut(c.indexes[0]!.spec),
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

export const listDatabases: Handler = (cmd, _db, { engine }) => {
  const all = [...engine.dbs.entries()].map(([name, colls]) => ({
    name,
    sizeOnDisk: 0,
    empty: colls.size === 0,
  }));
  const filter = isPlainObject(cmd.filter) ? compileFilter(cmd.filter) : undefined;
  const dbs = filter ? all.filter((d) => filter.test(d)) : all;
  if (cmd.nameOnly === true) return { databases: dbs.map((d) => ({ name: d.name })), ok: 1 };
  return { databases: dbs, totalSize: 0, totalSizeMb: 0, ok: 1 };
};

export const create: Handler = (cmd, db, { engine }) => {
  const name = collName(cmd, 'create');
  const options: Doc = {};
  for (const [k, v] of Object.entries(cmd))
    if (!GENERIC_FIELDS.has(k) && k !== 'create') options[k] = v;
  checkCreateOptions(options);
  // The _id index's specification (mongorestore sends the dumped one): every collection here has
  // the one _id index, and mongod keeps idIndex out of the collection's options too.
  delete options.idIndex;
  checkValidatorOptions(options);
  // The collection's default collation, stored as mongod reports it (none when simple).
  const collation = checkCollation(options.collation);
  if (collation) options.collation = collation;
  else delete options.collation;
  if (collation && options.viewOn !== undefined)
    throw badValue('a view with a default collation is not supported by this server');
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

export const collMod: Handler = (cmd, db, { engine }) => {
  const name = collName(cmd, 'collMod');
  const coll = engine.collection(db, name);
  if (!coll) throw serverError('NamespaceNotFound', `ns does not exist: ${db}.${name}`);
  const next: Doc = { ...coll.options };
  const reply: Doc = {};
  for (const [k, v] of Object.entries(cmd)) {
    if (GENERIC_FIELDS.has(k) || k === 'collMod') continue;
    if (k === 'index' && !isView(coll)) {
      Object.assign(reply, modifyIndex(engine, coll, v));
      continue;
    }
    if (
      isView(coll)
        ? k !== 'viewOn' && k !== 'pipeline'
        : !['validator', 'validationLevel', 'validationAction'].includes(k)
    )
      throw serverError('InvalidOptions', `collMod option '${k}' is not supported by this server`);
    next[k] = v;
  }
  checkValidatorOptions(next);
  if (valueKey(next) !== valueKey(coll.options)) engine.setOptions(coll, next);
  return { ...reply, ok: 1 };
};

/**
 * collMod's `index: { name | keyPattern, hidden?, expireAfterSeconds? }`, as mongod checks and
 * answers it (`hidden_old` / `hidden_new`, `expireAfterSeconds_old` / `_new`). A hidden index is
 * kept up to date but the planner never uses it, and a hint cannot name it.
 */
function modifyIndex(engine: Engine, coll: Collection, arg: unknown): Doc {
  if (!isPlainObject(arg))
    throw serverError(
      'TypeMismatch',
      "BSON field 'collMod.index' is the wrong type, expected type 'object'",
    );
  for (const field of Object.keys(arg)) {
    if (!['name', 'keyPattern', 'expireAfterSeconds', 'hidden'].includes(field))
      throw serverError('InvalidOptions', `Unrecognized field '${field}' in 'index' option`);
  }
  if (arg.name !== undefined && arg.keyPattern !== undefined)
    throw serverError('InvalidOptions', 'Cannot specify both key pattern and name.');
  if (arg.name === undefined && arg.keyPattern === undefined)
    throw serverError('InvalidOptions', 'Must specify either index name or key pattern.');
  if (arg.expireAfterSeconds === undefined && arg.hidden === undefined)
    throw serverError('InvalidOptions', 'no expireAfterSeconds or hidden field');
  const seconds = arg.expireAfterSeconds;
  if (seconds !== undefined && typeof seconds !== 'number')
    throw serverError('InvalidOptions', 'expireAfterSeconds field must be a number');
  if (arg.hidden !== undefined && typeof arg.hidden !== 'boolean')
    throw serverError('InvalidOptions', 'hidden field must be a boolean');
  let ix;
  if (arg.name !== undefined) {
    if (typeof arg.name !== 'string')
      throw serverError('InvalidOptions', 'Index name must be a string.');
    ix = coll.index(arg.name);
    if (!ix) throw serverError('IndexNotFound', `cannot find index ${arg.name} for ns ${coll.ns}`);
  } else {
    if (!isPlainObject(arg.keyPattern))
      throw serverError('InvalidOptions', 'Key pattern must be an object.');
    const key = valueKey(arg.keyPattern);
    ix = coll.indexes.find((i) => valueKey(i.spec.key) === key);
    if (!ix)
      throw serverError(
        'IndexNotFound',
        `cannot find index ${JSON.stringify(arg.keyPattern)} for ns ${coll.ns}`,
      );
  }
  const reply: Doc = {};
  const changes: Doc = {};
  if (seconds !== undefined) {
    const old = ix.spec.expireAfterSeconds;
    if (old === undefined)
      throw serverError('InvalidOptions', 'no expireAfterSeconds field to update');
    if (typeof old !== 'number')
      throw serverError('InvalidOptions', 'existing expireAfterSeconds field is not a number');
    reply.expireAfterSeconds_old = old;
    reply.expireAfterSeconds_new = seconds;
    changes.expireAfterSeconds = seconds;
  }
  // Hiding a hidden index (or showing a shown one) changes nothing and says nothing.
  if (arg.hidden !== undefined && Boolean(ix.spec.hidden) !== arg.hidden) {
    if (ix.name === '_id_') throw badValue("can't hide _id index");
    reply.hidden_old = Boolean(ix.spec.hidden);
    reply.hidden_new = arg.hidden;
    changes.hidden = arg.hidden;
  }
  if (Object.keys(changes).length) engine.modifyIndex(coll, ix.name, changes);
  return reply;
}

export const drop: Handler = (cmd, db, { engine }) => {
  const name = collName(cmd, 'drop');
  const coll = engine.collection(db, name);
  const nIndexesWas = coll?.indexes.length ?? 0;
  engine.drop(db, name);
  return { nIndexesWas, ns: `${db}.${name}`, ok: 1 };
};

export const dropDatabase: Handler = (_cmd, db, { engine }) => {
  engine.dropDatabase(db);
  return { dropped: db, ok: 1 };
};
