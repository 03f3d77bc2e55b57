/**
 * What this server does not implement is refused loudly, never accepted and ignored: collection
 * options (capped, timeseries, clustered...), index types and options (geo, hashed, wildcard,
 * columnstore...), query operators ($where, geo operators, $jsonSchema) and find options
 * (tailable, min/max, returnKey, showRecordId). Where mongod itself refuses the request (a capped
 * collection without a size, an unknown option or operator) the error is mongod's; where mongod
 * has the feature and this server does not, the message names the feature. The package README
 * ("Differences from MongoDB 7.0") lists every one with its error. Collations are decided in
 * src/collation.ts (an index's by `indexSpec` in commands/indexes-collections.ts); text indexes
 * (src/text/spec.ts) and hidden indexes are implemented.
 */
import { checkCollation } from './collation';
import { badValue, serverError, MongoServerError } from './errors';
import { isPlainObject, type Doc } from './values';

const NOT_HERE = 'not supported by this server';

/**
 * Checks the options of `create` (everything but the command's name and generic fields such as
 * writeConcern): InvalidOptions (72) for an option this server does not implement, mongod's error
 * for what mongod refuses too.
 */
export function checkCreateOptions(options: Doc): void {
  for (const key of Object.keys(options)) {
    if (!CREATE_OPTIONS.has(key))
      throw serverError('Location40415', `BSON field 'create.${key}' is an unknown field.`);
  }
  checkCollation(options.collation);
  const capped = options.capped;
  if (capped !== undefined && capped !== false && capped !== 0 && capped !== null) {
    if (options.size === undefined)
      throw serverError('InvalidOptions', "the 'size' field is required when 'capped' is true");
    throw serverError('InvalidOptions', `capped collections are ${NOT_HERE}`);
  }
  if (options.timeseries !== undefined)
    throw serverError('InvalidOptions', `time-series collections (timeseries) are ${NOT_HERE}`);
  if (options.clusteredIndex !== undefined && options.clusteredIndex !== false)
    throw serverError('InvalidOptions', `clustered collections (clusteredIndex) are ${NOT_HERE}`);
  if (options.expireAfterSeconds !== undefined)
    throw serverError(
      'InvalidOptions',
      "'expireAfterSeconds' is only supported on time-series collections or when the 'clusteredIndex' option is specified",
    );
  const images = options.changeStreamPreAndPostImages;
  if (isPlainObject(images) && images.enabled === true)
    throw serverError(
      'InvalidOptions',
      `change stream pre- and post-images (changeStreamPreAndPostImages) are ${NOT_HERE}`,
    );
  if (options.encryptedFields !== undefined)
    throw serverError('InvalidOptions', `queryable encryption (encryptedFields) is ${NOT_HERE}`);
  if (options.autoIndexId === false)
    throw serverError(
      'InvalidOptions',
      `collections without an _id index (autoIndexId) are ${NOT_HERE}`,
    );
  for (const key of ['storageEngine', 'indexOptionDefaults']) {
    const v = options[key];
    if (v !== undefined && !(isPlainObject(v) && Object.keys(v).length === 0))
      throw serverError('InvalidOptions', `storage engine options (${key}) are ${NOT_HERE}`);
  }
  const idIndex = options.idIndex;
  if (idIndex !== undefined) {
    const spec = isPlainObject(idIndex) ? idIndex : {};
    const key = spec.key;
    if (!isPlainObject(key) || Object.keys(key).join() !== '_id' || key._id !== 1)
      throw serverError('InvalidOptions', `an idIndex other than { _id: 1 } is ${NOT_HERE}`);
    checkCollation(spec.collation);
  }
}

/** The fields of mongod 7.0's `create` command (src/mongo/db/commands/create.idl). */
const CREATE_OPTIONS = new Set([
  'capped',
  'autoIndexId',
  'idIndex',
  'size',
  'max',
  'storageEngine',
  'validator',
  'validationLevel',
  'validationAction',
  'indexOptionDefaults',
  'viewOn',
  'pipeline',
  'collation',
  'changeStreamPreAndPostImages',
  'timeseries',
  'clusteredIndex',
  'recordPreImages',
  'encryptedFields',
  'expireAfterSeconds',
  'temp',
  'flags',
]);

/** Index types mongod has and this server does not (by key value), with their names. */
const INDEX_TYPES: Record<string, string> = {
  '2d': 'geospatial (2d)',
  '2dsphere': 'geospatial (2dsphere)',
  hashed: 'hashed',
  columnstore: 'columnstore',
};

/** mongod's index specification fields (index_key_validate.cpp), by what this server does. */
const INDEX_FIELDS_SUPPORTED = new Set([
  'key',
  'name',
  'unique',
  'sparse',
  'partialFilterExpression',
  'expireAfterSeconds',
  'background', // ignored by mongod since 4.2 as well
  'v',
  'ns',
  'collation',
  'hidden',
  // A text index's options, checked by src/text/spec.ts.
  'weights',
  'default_language',
  'language_override',
  'textIndexVersion',
]);
const INDEX_FIELDS_UNSUPPORTED: Record<string, string> = {
  '2dsphereIndexVersion': 'geospatial indexes (2dsphereIndexVersion) are',
  bits: 'geospatial indexes (bits) are',
  min: 'geospatial indexes (min) are',
  max: 'geospatial indexes (max) are',
  bucketSize: 'geoHaystack indexes (bucketSize) are',
  wildcardProjection: 'wildcard indexes (wildcardProjection) are',
  columnstoreProjection: 'columnstore indexes (columnstoreProjection) are',
  prepareUnique: 'prepareUnique is',
  clustered: 'clustered indexes are',
  storageEngine: 'storage engine options (storageEngine) are',
};

/**
 * Checks one index specification of `createIndexes` as mongod 7.0 validates it, and refuses index
 * types and options this server does not implement with CannotCreateIndex (67).
 */
export function checkIndexSpec(spec: Doc): void {
  for (const field of Object.keys(spec)) {
    if (INDEX_FIELDS_SUPPORTED.has(field)) continue;
    const feature = INDEX_FIELDS_UNSUPPORTED[field];
    if (feature) {
      throw serverError('CannotCreateIndex', `${feature} ${NOT_HERE}`);
    }
    throw new MongoServerError(
      197,
      'InvalidIndexSpecificationOption',
      `The field '${field}' is not valid for an index specification. Specification: ${JSON.stringify(spec)}`,
    );
  }
  const key = spec.key as Doc;
  for (const [field, v] of Object.entries(key)) {
    if (v === 'text') continue; // a text index (src/text/spec.ts)
    if (typeof v === 'string') {
      if (field === '$**' || field.endsWith('.$**'))
        throw serverError('CannotCreateIndex', `wildcard indexes are ${NOT_HERE}`);
      const type = INDEX_TYPES[v];
      if (type) throw serverError('CannotCreateIndex', `${type} indexes are ${NOT_HERE}`);
      if (v === 'geoHaystack')
        throw serverError(
          'CannotCreateIndex',
          'GeoHaystack indexes cannot be created in version 5.0 and above',
        );
      if (v === '')
        throw serverError(
          'CannotCreateIndex',
          'Values in the index key pattern cannot be empty strings',
        );
      throw serverError('CannotCreateIndex', `Unknown index plugin '${v}'`);
    }
    if (typeof v !== 'number')
      throw serverError(
        'CannotCreateIndex',
        `Values in v:2 index key pattern cannot be of type ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : 'object'}. Only numbers > 0, numbers < 0, and strings are allowed.`,
      );
    if (Number.isNaN(v))
      throw serverError('CannotCreateIndex', 'Values in the index key pattern cannot be NaN.');
    if (v === 0)
      throw serverError('CannotCreateIndex', 'Values in the index key pattern cannot be 0.');
    if (field === '$**' || field.endsWith('.$**'))
      throw serverError('CannotCreateIndex', `wildcard indexes are ${NOT_HERE}`);
    if (field.split('.').some((p) => p === ''))
      throw serverError('CannotCreateIndex', 'Index keys cannot contain an empty field.');
  }
}

/** Query operators mongod has and this server does not. */
const GEO_OPERATORS = new Set([
  '$near',
  '$nearSphere',
  '$geoWithin',
  '$within',
  '$geoIntersects',
  '$box',
  '$center',
  '$centerSphere',
  '$polygon',
  '$geometry',
  '$maxDistance',
  '$minDistance',
]);

const FIELD_OPERATORS = new Set([
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
  '$exists',
  '$type',
  '$mod',
  '$regex',
  '$options',
  '$elemMatch',
  '$size',
  '$all',
  '$not',
  '$bitsAllSet',
  '$bitsAllClear',
  '$bitsAnySet',
  '$bitsAnyClear',
]);

const TOP_LEVEL_OPERATORS = new Set([
  '$and',
  '$or',
  '$nor',
  '$expr',
  '$text',
  '$comment',
  '$alwaysTrue',
  '$alwaysFalse',
  '$sampleRate',
]);

/** A DBRef's fields: names starting with '$' that a filter may test like any field. */
const DBREF_FIELDS = new Set(['$ref', '$id', '$db']);

function isOperator(key: string | undefined): boolean {
  return key !== undefined && key.startsWith('$') && !DBREF_FIELDS.has(key);
}

/**
 * Walks a query filter's operators (not its literal values, nor `$expr`) and refuses, with
 * BadValue, `$where`, the geospatial operators and `$jsonSchema` (this server has neither
 * server-side JavaScript, geo, nor JSON Schema), and operators mongod does not know, with its
 * messages.
 */
export function checkFilterOperators(filter: Doc): void {
  for (const [key, value] of Object.entries(filter)) {
    if (!key.startsWith('$') || DBREF_FIELDS.has(key)) {
      checkCondition(value);
      continue;
    }
    if (key === '$where')
      throw badValue(`$where is ${NOT_HERE}: it runs no server-side JavaScript`);
    if (key === '$jsonSchema') throw badValue(`$jsonSchema is ${NOT_HERE}`);
    if (!TOP_LEVEL_OPERATORS.has(key))
      throw badValue(
        `unknown top level operator: ${key}. If you have a field name that starts with a '$' symbol, consider using $getField or $setField.`,
      );
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value))
      for (const sub of value) if (isPlainObject(sub)) checkFilterOperators(sub);
  }
}

/** A field's condition: operators when its first key starts with '$', else a literal value. */
function checkCondition(cond: unknown): void {
  if (!isPlainObject(cond)) return;
  const keys = Object.keys(cond);
  if (!isOperator(keys[0])) return;
  for (const op of keys) {
    if (GEO_OPERATORS.has(op)) throw badValue(`geospatial query operators (${op}) are ${NOT_HERE}`);
    if (!FIELD_OPERATORS.has(op)) throw badValue(`unknown operator: ${op}`);
    const arg = cond[op];
    if (op === '$not') checkCondition(arg);
    else if (op === '$elemMatch' && isPlainObject(arg)) {
      // { $elemMatch: { $gt: 1 } } tests values, { $elemMatch: { a: 1 } } documents.
      const first = Object.keys(arg)[0];
      if (isOperator(first) && !TOP_LEVEL_OPERATORS.has(first as string)) checkCondition(arg);
      else checkFilterOperators(arg);
    }
  }
}

/**
 * Find options mongod has and this server does not: tailable cursors (mongod refuses them on a
 * collection that is not capped, and this server has no capped collections), `min` / `max` index
 * bounds, `returnKey` and `showRecordId`.
 */
export function checkFindOptions(cmd: Doc): void {
  if (cmd.tailable === true)
    throw badValue('error processing query: tailable cursor requested on non capped collection');
  if (cmd.awaitData === true)
    throw badValue("Cannot set 'awaitData' without also setting 'tailable'");
  for (const [option, feature] of [
    ['min', 'min (index bounds) is'],
    ['max', 'max (index bounds) is'],
  ] as const) {
    if (isPlainObject(cmd[option]) && Object.keys(cmd[option] as Doc).length > 0)
      throw badValue(`${feature} ${NOT_HERE}`);
  }
  if (cmd.returnKey === true) throw badValue(`returnKey is ${NOT_HERE}`);
  if (cmd.showRecordId === true)
    throw badValue(`showRecordId is ${NOT_HERE}: documents have no record ids`);
}
