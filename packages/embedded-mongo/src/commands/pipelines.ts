/** The pipeline stages mongod 7.0 knows, and the checks it makes of a pipeline before running it. */
import { badValue, MongoServerError, serverError } from '../errors';
import { isPlainObject } from '../values';

/** Stages mingo runs, and the ones this server runs itself (see `aggregate`). */
const STAGES = new Set([
  '$addFields',
  '$bucket',
  '$bucketAuto',
  '$count',
  '$densify',
  '$documents',
  '$facet',
  '$fill',
  '$graphLookup',
  '$group',
  '$limit',
  '$lookup',
  '$match',
  '$merge',
  '$out',
  '$project',
  '$redact',
  '$replaceRoot',
  '$replaceWith',
  '$sample',
  '$set',
  '$setWindowFields',
  '$skip',
  '$sort',
  '$sortByCount',
  '$unionWith',
  '$unset',
  '$unwind',
  '$changeStream',
  '$collStats',
  '$listLocalSessions',
]);

/** mongod 7.0's other stages: known, but not run by this server. */
const UNSUPPORTED_STAGES = new Set([
  '$changeStreamSplitLargeEvent',
  '$currentOp',
  '$geoNear',
  '$indexStats',
  '$listSampledQueries',
  '$listSearchIndexes',
  '$listSessions',
  '$planCacheStats',
  '$search',
  '$searchMeta',
  '$shardedDataDistribution',
  '$vectorSearch',
]);

/** Stages that must come first (mongod's error codes when they do not). */
const FIRST_ONLY: Record<string, number> = { $collStats: 40602, $documents: 40602 };

/**
 * Checks a pipeline's stages as mongod parses them, before anything runs: each an object with
 * one field (40323) naming a stage mongod knows (40324 "Unrecognized pipeline stage name"),
 * which this server runs (a stage it does not, such as `$geoNear`, is refused with BadValue);
 * sub-pipelines of `$facet`, `$lookup` and `$unionWith` too.
 */
export function checkPipeline(stages: unknown[]): void {
  stages.forEach((stage, i) => {
    if (!isPlainObject(stage))
      throw serverError('TypeMismatch', "Each element of the 'pipeline' array must be an object");
    const names = Object.keys(stage);
    if (names.length !== 1)
      throw new MongoServerError(
        40323,
        'Location40323',
        'A pipeline stage specification object must contain exactly one field.',
      );
    const name = names[0] as string;
    if (UNSUPPORTED_STAGES.has(name))
      throw badValue(`the ${name} stage is not supported by this server`);
    if (!STAGES.has(name))
      throw new MongoServerError(
        40324,
        'Location40324',
        `Unrecognized pipeline stage name: '${name}'`,
      );
    const code = FIRST_ONLY[name];
    if (code !== undefined && i > 0)
      throw new MongoServerError(
        code,
        `Location${code}`,
        `${name} is only valid as the first stage in a pipeline`,
      );
    const arg = stage[name];
    if (name === '$facet' && isPlainObject(arg))
      for (const sub of Object.values(arg)) if (Array.isArray(sub)) checkPipeline(sub);
    if ((name === '$lookup' || name === '$unionWith') && isPlainObject(arg))
      if (Array.isArray(arg.pipeline)) checkPipeline(arg.pipeline);
  });
}
