import type { Model } from 'mongoose';

/** A `find` whose whole answer comes back in its first reply (the feed's reads). */
export interface OneBatchFind {
  filter: Record<string, unknown>;
  sort?: Record<string, 1 | -1>;
  skip?: number;
  /** At most this many documents: the reply holds them all (a page, or one per id asked). */
  limit: number;
  projection?: Record<string, 0 | 1>;
}

/**
 * Runs a `find` as one command whose reply holds every document (`singleBatch`, the batch as
 * large as the limit), and answers the stored documents as they are (what `lean()` gives). The
 * driver's cursor for the same `find` (`collection.find().toArray()`) costs the API about half as
 * much again per call (its cursor, each document read out of the reply one by one, its
 * clean-up); with a limit there is never a second batch to ask for. No mongoose query is built
 * or cast: filters are made by the callers of numbers, dates and booleans.
 */
export async function findOneBatch<T>(
  model: Pick<Model<never>, 'db' | 'collection'>,
  { filter, sort, skip, limit, projection }: OneBatchFind,
): Promise<T[]> {
  if (limit <= 0) return [];
  const db = model.db.db;
  if (!db) throw new Error('findOneBatch: the connection is not open');
  const name = model.collection.collectionName;
  const options: Record<string, unknown> = { limit };
  if (sort) options.sort = sort;
  if (skip) options.skip = skip;
  if (projection) options.projection = projection;
  // As mongoose's collections do for every call: a debug function set on the connection (or on
  // mongoose) hears `<collection>.find` (tests and benchmarks count round trips with it).
  const debug = model.db.get('debug') ?? model.db.base.get('debug');
  if (typeof debug === 'function') debug.call(model.collection, name, 'find', filter, options);
  const reply = await db.command({
    find: name,
    filter,
    ...options,
    batchSize: limit,
    singleBatch: true,
  });
  return (reply.cursor as { firstBatch: T[] }).firstBatch;
}
