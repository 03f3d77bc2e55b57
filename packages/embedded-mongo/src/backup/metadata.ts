/**
 * A collection's metadata as mongodump writes it (mongodump/metadata_dump.go): the text of its
 * `.metadata.json` file, canonical Extended JSON v2 of
 *
 *   { options?: <listCollections options, left out when empty>, indexes: [<listIndexes docs>],
 *     uuid?: <info.uuid as hex>, collectionName, type?: "collection" | "view" | "timeseries" }
 *
 * and the same text read back as mongorestore reads it (older dumps: relaxed JSON, `ns` in each
 * index, no `type` or `collectionName`).
 */
import { EJSON, type Document } from 'bson';

export interface CollectionInfo {
  name: string;
  type: string;
  options?: Document;
  info?: Document;
}

export function metadataJson(info: CollectionInfo, indexes: Document[]): string {
  const meta: Document = {};
  if (info.options && Object.keys(info.options).length) meta.options = info.options;
  meta.indexes = indexes;
  const uuid = info.info?.uuid as { toString(format: 'hex'): string } | undefined;
  if (uuid && typeof uuid.toString === 'function') meta.uuid = uuid.toString('hex');
  meta.collectionName = info.name;
  if (info.type) meta.type = info.type;
  return EJSON.stringify(meta, { relaxed: false });
}

export interface ParsedMetadata {
  options: Document;
  /** Index specifications as dumped (with `v`, perhaps `ns`). */
  indexes: Document[];
}

/** Parses a `.metadata.json` text; numbers keep their BSON types (Int32, Double, Long...). */
export function parseMetadata(json: string, ns: string): ParsedMetadata {
  if (!json.trim()) return { options: {}, indexes: [] };
  let parsed: unknown;
  try {
    parsed = EJSON.parse(json, { relaxed: false });
  } catch (e) {
    throw new Error(`the metadata of ${ns} is not Extended JSON: ${(e as Error).message}`, {
      cause: e,
    });
  }
  const meta = parsed as { options?: unknown; indexes?: unknown };
  const options =
    meta.options && typeof meta.options === 'object' ? (meta.options as Document) : {};
  const indexes = Array.isArray(meta.indexes) ? (meta.indexes as Document[]) : [];
  return { options, indexes };
}

/**
 * An index specification to send with createIndexes: without the index version `v` (the
 * server picks its own, as mongorestore does unless `--keepIndexVersion`) and the namespace
 * `ns` of old dumps.
 */
export function indexToCreate(spec: Document): Document {
  const out: Document = {};
  for (const [k, v] of Object.entries(spec)) if (k !== 'v' && k !== 'ns') out[k] = v;
  return out;
}
