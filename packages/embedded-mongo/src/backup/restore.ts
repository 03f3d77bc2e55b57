/**
 * `embedded-mongo restore`: loads a mongodump archive (ours or mongodump's, gzipped or not) into
 * a running server, this package's or a real MongoDB, through the wire protocol, in the order
 * mongorestore uses: collections created with their options (after a drop with `--drop`), the
 * documents inserted as they come (segments of several collections may interleave), then the
 * indexes from the metadata, then the views. Every namespace's CRC-64 is checked at its EOF block;
 * a damaged or truncated archive stops the restore with the offset where it went wrong (what was
 * inserted before stays: restore again with `--drop`).
 *
 * Documents are inserted as they were dumped: numbers keep their BSON types (int32, int64,
 * double, decimal), and validators are bypassed (a backup restores what was there). A duplicate
 * `_id` (restoring into a collection that already holds the document, without `--drop`) is
 * counted as a failure and the restore goes on, as mongorestore does; any other error stops it.
 */
import type { Readable } from 'node:stream';
import { BSON, MongoBulkWriteError, MongoClient, type Db, type Document } from 'mongodb';
import { dataNamespace, openArchive, type ArchiveCollection } from './archive';
import { indexToCreate, parseMetadata, type ParsedMetadata } from './metadata';
import { NamespaceFilter, type NamespaceRules } from './namespaces';

export interface RestoreOptions extends NamespaceRules {
  /** Where to restore; not needed with `dryRun`. */
  uri?: string;
  /** The archive (a file or stdin). */
  input: Readable;
  /** Drop each collection (and view) before restoring it. */
  drop?: boolean;
  /** Read and check the whole archive (every CRC), write nothing. */
  dryRun?: boolean;
  log?: (line: string) => void;
}

export interface RestoredCollection {
  db: string;
  collection: string;
  type: string;
  /** Documents inserted. */
  count: number;
  /** Documents refused as duplicates. */
  failed: number;
  indexes: number;
}

export interface RestoreResult {
  serverVersion: string;
  toolVersion: string;
  collections: RestoredCollection[];
  /** Namespaces of the archive left out, with why. */
  skipped: Array<{ ns: string; reason: string }>;
}

/** Documents inserted per insertMany. */
const INSERT_BATCH_BYTES = 8 * 1024 * 1024;

/** How documents are decoded to be inserted: every value as the BSON type it was. */
const EXACT = {
  promoteValues: false,
  promoteLongs: false,
  promoteBuffers: false,
  bsonRegExp: true,
} as const;

interface Plan {
  source: ArchiveCollection;
  db: string;
  collection: string;
  metadata: ParsedMetadata;
  result: RestoredCollection;
}

export async function restore(options: RestoreOptions): Promise<RestoreResult> {
  const log = options.log ?? (() => {});
  const filter = new NamespaceFilter(options);
  const archive = await openArchive(options.input);
  const skipped: RestoreResult['skipped'] = [];
  const plans = new Map<string, Plan>();
  for (const source of archive.collections) {
    const ns = `${source.db}.${source.collection}`;
    const reason =
      source.db === ''
        ? 'an oplog (mongodump --oplog): it is not replayed'
        : source.type === 'timeseries'
          ? 'a timeseries collection, which this restore cannot create: use mongorestore'
          : filter.skipReason(source.db, source.collection);
    if (reason) {
      skipped.push({ ns, reason });
      continue;
    }
    const target = filter.target(source.db, source.collection);
    plans.set(dataNamespace(source), {
      source,
      ...target,
      metadata: parseMetadata(source.metadata, ns),
      result: {
        ...target,
        type: source.type || 'collection',
        count: 0,
        failed: 0,
        indexes: 0,
      },
    });
  }
  for (const s of skipped) log(`skipping ${s.ns}: ${s.reason}`);

  const client =
    options.dryRun || !options.uri
      ? undefined
      : await MongoClient.connect(options.uri, { appName: 'embedded-mongo restore' });
  if (!client && !options.dryRun) throw new Error('restore needs --uri (or --dryRun)');
  try {
    const views = [...plans.values()].filter((p) => p.result.type === 'view');
    const collections = [...plans.values()].filter((p) => p.result.type !== 'view');
    if (client) {
      for (const p of [...views, ...collections]) if (options.drop) await dropNamespace(client, p);
      for (const p of collections) await createCollection(client.db(p.db), p);
    }

    for await (const block of archive.blocks()) {
      const plan = plans.get(`${block.db}.${block.collection}`);
      if (!plan) continue;
      if (block.kind === 'end') {
        const r = plan.result;
        const docs = `${r.count} document${r.count === 1 ? '' : 's'}`;
        log(
          options.dryRun
            ? `checked ${block.db}.${block.collection} (${docs})`
            : `finished restoring ${r.db}.${r.collection} (${docs}, ` +
                `${r.failed} failure${r.failed === 1 ? '' : 's'})`,
        );
        continue;
      }
      if (plan.result.type === 'view')
        throw new Error(`the archive holds documents for the view ${block.db}.${block.collection}`);
      if (client) await insert(client.db(plan.db), plan, block.docs);
      else plan.result.count += block.docs.length;
    }

    if (client) {
      for (const p of collections) await createIndexes(client.db(p.db), p, log);
      for (const p of views) await createView(client.db(p.db), p);
    }
    const restored = [...plans.values()].map((p) => p.result);
    const total = restored.reduce((n, r) => n + r.count, 0);
    const failed = restored.reduce((n, r) => n + r.failed, 0);
    log(
      options.dryRun
        ? `${total} document(s) checked: every namespace is complete and its CRC matches.`
        : `${total} document(s) restored successfully. ${failed} document(s) failed to restore.`,
    );
    return {
      serverVersion: archive.header.serverVersion,
      toolVersion: archive.header.toolVersion,
      collections: restored,
      skipped,
    };
  } finally {
    await client?.close();
  }
}

async function dropNamespace(client: MongoClient, p: Plan): Promise<void> {
  try {
    await client.db(p.db).command({ drop: p.collection });
  } catch (e) {
    if ((e as { code?: number }).code !== 26) throw e; // NamespaceNotFound: nothing to drop
  }
}

async function exists(db: Db, name: string): Promise<boolean> {
  return (await db.listCollections({ name }, { nameOnly: true }).toArray()).length > 0;
}

/** The collection with its options, unless it is there already (kept as it is, as mongorestore does). */
async function createCollection(db: Db, p: Plan): Promise<void> {
  if (await exists(db, p.collection)) return;
  await db.command({ create: p.collection, ...p.metadata.options });
}

async function insert(db: Db, p: Plan, docs: Buffer[]): Promise<void> {
  const coll = db.collection(p.collection);
  let batch: Document[] = [];
  let bytes = 0;
  const flush = async () => {
    if (!batch.length) return;
    const sent = batch;
    batch = [];
    bytes = 0;
    try {
      await coll.insertMany(sent, { ordered: false, bypassDocumentValidation: true });
      p.result.count += sent.length;
    } catch (e) {
      if (!(e instanceof MongoBulkWriteError)) throw e;
      const errors = Array.isArray(e.writeErrors) ? e.writeErrors : [e.writeErrors];
      const other = errors.find((w) => w.code !== 11000);
      if (other) throw e;
      p.result.failed += errors.length;
      p.result.count += sent.length - errors.length;
    }
  };
  for (const raw of docs) {
    batch.push(BSON.deserialize(raw, EXACT));
    bytes += raw.length;
    if (bytes >= INSERT_BATCH_BYTES) await flush();
  }
  await flush();
}

async function createIndexes(db: Db, p: Plan, log: (line: string) => void): Promise<void> {
  const specs = p.metadata.indexes.filter((spec) => spec.name !== '_id_').map(indexToCreate);
  if (!specs.length) return;
  log(
    `restoring indexes for collection ${p.db}.${p.collection} from metadata: ` +
      specs.map((s) => String(s.name)).join(', '),
  );
  await db.command({ createIndexes: p.collection, indexes: specs });
  p.result.indexes = specs.length;
}

async function createView(db: Db, p: Plan): Promise<void> {
  if (await exists(db, p.collection)) return;
  await db.command({ create: p.collection, ...p.metadata.options });
}
