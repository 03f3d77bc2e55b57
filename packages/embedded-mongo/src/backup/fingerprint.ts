/**
 * A database's fingerprint: per collection, how many documents it holds and a hash of them, plus
 * its indexes and options, all read at one point in time (a snapshot session, as the dump reads).
 * Two servers holding the same data have equal fingerprints, whatever order their documents are
 * stored in: `embedded-mongo fingerprint --uri ...` before a dump and after its restore (or the
 * ops check, through `fingerprint()`) says whether the restore brought everything back.
 *
 * The hash of a collection is the sum, modulo 2^256, of the SHA-256 of each document's BSON as the
 * server sends it: independent of order, changed by any byte of any document, by a missing or an
 * extra one.
 */
import { createHash } from 'node:crypto';
import { EJSON } from 'bson';
import { MongoClient, type Document } from 'mongodb';
import { snapshotTime } from './dump';
import { NamespaceFilter, type NamespaceRules } from './namespaces';

export interface CollectionFingerprint {
  type: 'collection' | 'view';
  count: number;
  /** 64 hex digits (see the module comment); a view's is of its definition. */
  hash: string;
  /** Each index as `name key {options}` (relaxed Extended JSON), by name, `v` and `ns` left out. */
  indexes: string[];
  /** The collection's options (validator...) or the view's definition, relaxed Extended JSON. */
  options: string;
}

export interface Fingerprint {
  /** The cluster time the collections were read at (none: nothing to read). */
  clusterTime?: { t: number; i: number };
  /** By `db.collection`, sorted. */
  collections: Record<string, CollectionFingerprint>;
}

export interface FingerprintOptions extends NamespaceRules {
  uri: string;
}

const MOD = 1n << 256n;

export async function fingerprint(options: FingerprintOptions): Promise<Fingerprint> {
  const filter = new NamespaceFilter(options);
  const client = new MongoClient(options.uri, { appName: 'embedded-mongo fingerprint' });
  await client.connect();
  const session = client.startSession({ snapshot: true });
  try {
    const { databases } = (await client
      .db('admin')
      .command({ listDatabases: 1, nameOnly: true })) as { databases: Array<{ name: string }> };
    const collections: Record<string, CollectionFingerprint> = {};
    const names: Array<{ db: string; info: Document }> = [];
    for (const { name: db } of databases)
      for (const info of await client.db(db).listCollections().toArray())
        if (!filter.skipReason(db, info.name as string)) names.push({ db, info });
    names.sort((a, b) => {
      const x = `${a.db}.${a.info.name as string}`;
      const y = `${b.db}.${b.info.name as string}`;
      return x < y ? -1 : x > y ? 1 : 0;
    });
    const first = names.find((n) => n.info.type === 'collection');
    const at = first
      ? await snapshotTime(client, session, first.db, first.info.name as string)
      : undefined;
    for (const { db, info } of names) {
      const name = info.name as string;
      const options = EJSON.stringify(sortKeys((info.options as Document | undefined) ?? {}));
      if (info.type === 'view') {
        collections[`${db}.${name}`] = {
          type: 'view',
          count: 0,
          hash: createHash('sha256').update(options).digest('hex'),
          indexes: [],
          options,
        };
        continue;
      }
      let sum = 0n;
      let count = 0;
      const cursor = client
        .db(db)
        .collection(name)
        .find({}, { session, raw: true, batchSize: 1000 }) as AsyncIterable<Uint8Array>;
      for await (const doc of cursor) {
        sum += BigInt(`0x${createHash('sha256').update(doc).digest('hex')}`);
        count++;
      }
      const indexes = (await client.db(db).collection(name).listIndexes().toArray())
        .map(describeIndex)
        .sort();
      collections[`${db}.${name}`] = {
        type: 'collection',
        count,
        hash: (sum % MOD).toString(16).padStart(64, '0'),
        indexes,
        options,
      };
    }
    return {
      ...(at ? { clusterTime: { t: at.t, i: at.i } } : {}),
      collections,
    };
  } finally {
    await session.endSession().catch(() => undefined);
    await client.close();
  }
}

function describeIndex(spec: Document): string {
  const rest: Document = {};
  for (const [k, v] of Object.entries(spec))
    if (!['v', 'ns', 'key', 'name', 'background'].includes(k)) rest[k] = v;
  return `${String(spec.name)} ${EJSON.stringify(spec.key as Document)} ${EJSON.stringify(sortKeys(rest))}`;
}

/** The same document with its top-level keys sorted (options' order carries no meaning). */
function sortKeys(doc: Document): Document {
  return Object.fromEntries(Object.entries(doc).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Which collections differ between two fingerprints (empty: the same data). */
export function compareFingerprints(a: Fingerprint, b: Fingerprint): string[] {
  const out: string[] = [];
  const names = new Set([...Object.keys(a.collections), ...Object.keys(b.collections)]);
  for (const ns of [...names].sort()) {
    const x = a.collections[ns];
    const y = b.collections[ns];
    if (!x || !y) {
      out.push(`${ns}: only in the ${x ? 'first' : 'second'}`);
      continue;
    }
    if (x.count !== y.count) out.push(`${ns}: ${x.count} documents against ${y.count}`);
    else if (x.hash !== y.hash) out.push(`${ns}: the same count, different documents`);
    if (x.indexes.join('\n') !== y.indexes.join('\n')) out.push(`${ns}: different indexes`);
    if (x.options !== y.options) out.push(`${ns}: different options`);
  }
  return out;
}
