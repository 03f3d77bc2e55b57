/**
 * The indexes the models declare (their schemas' `index()` calls and `index` / `unique` fields)
 * against the indexes the database has. Only the collections of the models bound to a connection
 * are looked at: `_id_`, and every collection no model owns (the GridFS `uploads.*` buckets,
 * `secrets`, `migrations`, `migration_lock`, `seed_locks`), are never touched.
 */
import { createHash } from 'node:crypto';
import type mongoose from 'mongoose';
import type { Logger } from './logger';

/** Options that make two indexes on the same keys different, sorted so the print is stable. */
function sortedOptions(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).sort(([a], [b]) => a.localeCompare(b)));
}

/** The declared indexes of every model of `connection`, by collection, in a stable order. */
export function declaredIndexes(connection: mongoose.Connection) {
  return Object.values(connection.models)
    .map((model) => ({
      collection: model.collection.collectionName,
      // Key order matters (a compound index's order is its meaning); option order does not.
      indexes: model.schema
        .indexes()
        .map(([keys, options]) => JSON.stringify([keys, sortedOptions(options ?? {})]))
        .sort(),
    }))
    .sort((a, b) => a.collection.localeCompare(b.collection));
}

/**
 * A digest of every declared index: it changes when a model adds, removes or changes an index
 * (or a model comes or goes), and only then (platform/migrations.ts syncs the indexes then).
 */
export function declaredIndexesFingerprint(connection: mongoose.Connection): string {
  return createHash('sha256')
    .update(JSON.stringify(declaredIndexes(connection)))
    .digest('hex')
    .slice(0, 16);
}

export interface IndexChanges {
  /** `<collection>.<index name>` of each index dropped (no longer declared, or changed). */
  dropped: string[];
  /** `<collection>.<keys>` of each index built. */
  created: string[];
}

/** What `syncDeclaredIndexes` would drop and build, without changing anything. */
export async function diffDeclaredIndexes(connection: mongoose.Connection): Promise<IndexChanges> {
  const changes: IndexChanges = { dropped: [], created: [] };
  for (const model of Object.values(connection.models)) {
    const collection = model.collection.collectionName;
    const { toDrop, toCreate } = await model.diffIndexes();
    changes.dropped.push(...toDrop.map((name) => `${collection}.${name}`));
    changes.created.push(...toCreate.map((keys) => `${collection}.${JSON.stringify(keys)}`));
  }
  return changes;
}

/**
 * Makes every model's collection hold exactly its declared indexes (mongoose's `syncIndexes`,
 * which never drops `_id_`): builds the missing ones and drops the others, an index whose options
 * changed being dropped and built again. Each drop and build is logged before it happens.
 */
export async function syncDeclaredIndexes(
  connection: mongoose.Connection,
  logger: Logger,
): Promise<IndexChanges> {
  const changes: IndexChanges = { dropped: [], created: [] };
  for (const model of Object.values(connection.models)) {
    const collection = model.collection.collectionName;
    const { toDrop, toCreate } = await model.diffIndexes();
    if (toDrop.length === 0 && toCreate.length === 0) continue;
    const dropped = toDrop.map((name) => `${collection}.${name}`);
    const created = toCreate.map((keys) => `${collection}.${JSON.stringify(keys)}`);
    for (const index of dropped) {
      logger.warn(
        { index },
        'dropping an index the models no longer declare (or declare otherwise)',
      );
    }
    for (const index of created) logger.info({ index }, 'building a declared index');
    await model.syncIndexes();
    changes.dropped.push(...dropped);
    changes.created.push(...created);
  }
  return changes;
}
