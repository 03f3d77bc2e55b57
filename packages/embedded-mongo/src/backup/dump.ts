/**
 * `embedded-mongo dump`: a running server's collections, read at one point in time, written as
 * a mongodump archive (archive.ts), through the wire protocol like any client.
 *
 * Consistency: every collection is read in one snapshot session (the driver's
 * `startSession({ snapshot: true })`): the first read fixes a cluster time and every later read
 * is at that time (`readConcern: { level: 'snapshot', atClusterTime }`), however long the dump
 * takes and whatever is written meanwhile. This server keeps that point while it is read at least
 * every 5 minutes and no collection is dropped (transactions.ts); mongod 5.0+ keeps it for its
 * history window (`minSnapshotHistoryWindowInSeconds`, 5 minutes by default). Collection options
 * and indexes are read live just before the documents, as mongodump reads them.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { MongoClient, type ClientSession, type Document, type Timestamp } from 'mongodb';
import { ARCHIVE_FORMAT_VERSION, ArchiveWriter, type ArchiveCollection } from './archive';
import { metadataJson, type CollectionInfo } from './metadata';
import { NamespaceFilter, type NamespaceRules } from './namespaces';

export interface DumpOptions extends NamespaceRules {
  uri: string;
  /** Where the archive is written (a file or stdout); ended when the dump is done. */
  out: Writable;
  /** Gzip the whole archive, as `mongodump --gzip --archive` does. */
  gzip?: boolean;
  /** Progress lines (mongodump's own wording), e.g. to stderr. */
  log?: (line: string) => void;
  /** Told the cluster time the dump reads at, once it is fixed (before any document is read). */
  onSnapshot?: (clusterTime: Timestamp) => void;
}

export interface DumpedCollection {
  db: string;
  collection: string;
  type: string;
  count: number;
  bytes: number;
}

export interface DumpResult {
  /** The cluster time every collection was read at (none when there was nothing to read). */
  clusterTime?: Timestamp;
  collections: DumpedCollection[];
}

/** This package's version, as `tool_version` in the archive header. */
const TOOL_VERSION = `embedded-mongo dump ${
  (
    JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
      version: string;
    }
  ).version
}`;

export async function dump(options: DumpOptions): Promise<DumpResult> {
  const log = options.log ?? (() => {});
  const filter = new NamespaceFilter(options);
  const client = new MongoClient(options.uri, { appName: 'embedded-mongo dump' });
  await client.connect();
  let session: ClientSession | undefined;
  try {
    const build = await client.db('admin').command({ buildInfo: 1 });
    const serverVersion = typeof build.version === 'string' ? build.version : '0.0.0';
    session = client.startSession({ snapshot: true });

    // The point in time: the first snapshot read fixes it. Collections are listed after it, so
    // every collection that existed then is listed (one dropped since ends the point: see above).
    const first = (await listNamespaces(client, filter)).find((n) => n.info.type === 'collection');
    const clusterTime = first
      ? await snapshotTime(client, session, first.db, first.info.name)
      : undefined;
    if (clusterTime) {
      log(`reading every collection as it was at cluster time ${describeTime(clusterTime)}`);
      options.onSnapshot?.(clusterTime);
    }
    const namespaces = await listNamespaces(client, filter);

    const prelude: ArchiveCollection[] = [];
    for (const n of namespaces) {
      const indexes = n.info.type === 'view' ? [] : await listIndexes(client, n.db, n.info.name);
      prelude.push({
        db: n.db,
        collection: n.info.name,
        metadata: metadataJson(n.info, indexes),
        size: 0,
        type: n.info.type,
      });
    }

    const out = options.gzip ? gzipInto(options.out) : options.out;
    const writer = new ArchiveWriter(out);
    await writer.prelude(
      {
        concurrentCollections: 1,
        version: ARCHIVE_FORMAT_VERSION,
        serverVersion,
        toolVersion: TOOL_VERSION,
      },
      prelude,
    );
    const dumped: DumpedCollection[] = [];
    for (const n of namespaces) {
      const ns = `${n.db}.${n.info.name}`;
      log(`writing ${ns} to archive`);
      const docs =
        n.info.type === 'view'
          ? []
          : (client
              .db(n.db)
              .collection(n.info.name)
              .find({}, { session, raw: true, batchSize: 1000 }) as AsyncIterable<Uint8Array>);
      const { count, bytes } = await writer.namespace(n.db, n.info.name, docs);
      log(`done dumping ${ns} (${count} document${count === 1 ? '' : 's'})`);
      dumped.push({ db: n.db, collection: n.info.name, type: n.info.type, count, bytes });
    }
    await writer.end();
    if (out !== options.out) await finished(options.out);
    return { clusterTime, collections: dumped };
  } finally {
    await session?.endSession().catch(() => undefined);
    await client.close();
  }
}

/**
 * Opens the session's snapshot with a first read and returns its cluster time (the driver reads
 * every later read of the session at it).
 */
export async function snapshotTime(
  client: MongoClient,
  session: ClientSession,
  db: string,
  collection: string,
): Promise<Timestamp> {
  const reply = await client
    .db(db)
    .command(
      { find: collection, filter: {}, projection: { _id: 1 }, limit: 1, singleBatch: true },
      { session },
    );
  const at = (reply.cursor as { atClusterTime?: Timestamp } | undefined)?.atClusterTime;
  if (!at)
    throw new Error(
      'the server answered a snapshot read without a cluster time: a consistent dump needs ' +
        "this package's server or MongoDB 5.0 or later",
    );
  return at;
}

export function describeTime(at: Timestamp): string {
  return `Timestamp(${at.t}, ${at.i})`;
}

interface Namespace {
  db: string;
  info: CollectionInfo;
}

/** The collections and views to dump, by database then name (timeseries are refused). */
async function listNamespaces(client: MongoClient, filter: NamespaceFilter): Promise<Namespace[]> {
  const { databases } = (await client
    .db('admin')
    .command({ listDatabases: 1, nameOnly: true })) as {
    databases: Array<{ name: string }>;
  };
  const out: Namespace[] = [];
  for (const { name: db } of [...databases].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const infos = (await client
      .db(db)
      .listCollections({}, { promoteValues: false, promoteLongs: false })
      .toArray()) as unknown as CollectionInfo[];
    for (const info of infos.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (filter.skipReason(db, info.name)) continue;
      if (info.type !== 'collection' && info.type !== 'view')
        throw new Error(
          `${db}.${info.name} is a ${info.type} collection, which this dump cannot write; use mongodump`,
        );
      out.push({ db, info });
    }
  }
  return out;
}

async function listIndexes(client: MongoClient, db: string, name: string): Promise<Document[]> {
  try {
    return await client
      .db(db)
      .collection(name)
      .listIndexes({ promoteValues: false, promoteLongs: false } as never)
      .toArray();
  } catch (e) {
    // Dropped since it was listed: the snapshot read of it will say so.
    if ((e as { code?: number }).code === 26) return [];
    throw e;
  }
}

/**
 * A writable that gzips into `out` and ends it once everything is compressed (piping would not
 * end stdout, which Node never ends on a pipe's behalf).
 */
function gzipInto(out: Writable): Writable {
  const gzip = createGzip();
  gzip.pipe(out, { end: false });
  gzip.on('end', () => out.end());
  out.on('error', (e) => gzip.destroy(e));
  return gzip;
}

/** Resolves once a stream someone else ends has flushed everything (and closed, for a file). */
function finished(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.writableFinished) return resolve();
    stream.once('finish', () => resolve());
    stream.once('error', reject);
  });
}
