/** Index and collection management: createIndexes, listIndexes, dropIndexes, create, collMod, drop... */
import type { IndexSpec } from '../collection';
import { badValue, serverError } from '../errors';
import { compileFilter } from '../query';
import { checkCreateOptions, checkIndexSpec } from '../unsupported';
import { checkValidatorOptions } from '../validation';
import { isPlainObject, valueKey, type Doc } from '../values';
import { collName, DEFAULT_BATCH, num, type Handler } from './context';
import { cursorReply } from './cursors';
import { isView } from './views';

function indexSpecOut(spec: IndexSpec): Doc {
  return { v: 2, ...spec };
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
    // The namespace older clients put in specs (mongorestore does): mongod 4.4+ keeps none.
    delete (spec as Doc).ns;
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
