/**
 * mongodump's `--archive` format, written and read as mongo-tools does (common/archive/*.go):
 *
 *   archive   = magic, header, *collection-metadata, terminator, *(segment | eof)
 *   magic     = 0x8199e26d, uint32 little-endian
 *   header    = BSON { concurrent_collections: int32, version: "0.1", server_version, tool_version }
 *   metadata  = BSON { db, collection, metadata: <the .metadata.json text>, size: int32, type }
 *   segment   = BSON { db, collection, EOF: false, CRC: int64 0 }, *document, terminator
 *   eof       = BSON { db, collection, EOF: true, CRC: int64 <CRC-64 of the namespace's documents> },
 *               terminator
 *   terminator = 0xffffffff
 *
 * A namespace's documents may come in several segments, interleaved with other namespaces'
 * (mongodump dumps collections in parallel); its CRC covers all of them, in order. The whole
 * stream may be gzipped (`--gzip`). The oplog of `mongodump --oplog` is the namespace with db ""
 * and collection "oplog".
 */
import { pipeline, Readable, type Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { deserialize, Int32, Long, serialize } from 'bson';
import { Crc64 } from './crc64';

export const ARCHIVE_MAGIC = 0x8199e26d;
const TERMINATOR = 0xffffffff;
const TERMINATOR_BYTES = Buffer.from([0xff, 0xff, 0xff, 0xff]);
/** mongo-tools' db.MaxBSONSize: no document, header or metadata is larger. */
const MAX_BSON_BYTES = 16 * 1024 * 1024;
const MIN_BSON_BYTES = 5;
/** The format version mongodump writes (and the only one there is). */
export const ARCHIVE_FORMAT_VERSION = '0.1';

export interface ArchiveHeader {
  concurrentCollections: number;
  version: string;
  serverVersion: string;
  toolVersion: string;
}

/** One prelude entry: a collection, view or timeseries collection of the archive. */
export interface ArchiveCollection {
  db: string;
  collection: string;
  /** The collection's `.metadata.json` text (Extended JSON: options, indexes...), or "". */
  metadata: string;
  size: number;
  /** "collection" (or "" in older archives), "view" or "timeseries". */
  type: string;
}

export class ArchiveFormatError extends Error {
  constructor(message: string) {
    super(`not a valid mongodump archive: ${message}`);
    this.name = 'ArchiveFormatError';
  }
}

/**
 * A field mongo-tools declares as int32 (bson would write a whole JS number that fits as int32
 * anyway; beyond 2^31 Go writes an int64, and so do we).
 */
function int32(n: number): Int32 | Long {
  return n >= -0x80000000 && n <= 0x7fffffff ? new Int32(n) : Long.fromNumber(n);
}

/**
 * Writes an archive to `out` (through gzip first if the caller piped it so): `prelude()` once,
 * then one `namespace()` per prelude entry (views too: theirs is empty), then `end()`.
 */
export class ArchiveWriter {
  private error?: Error;

  constructor(private readonly out: Writable) {
    out.on('error', (e: Error) => (this.error ??= e));
  }

  private async write(chunk: Uint8Array): Promise<void> {
    if (this.error) throw this.error;
    if (this.out.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      const done = (e?: Error) => {
        this.out.off('drain', done);
        this.out.off('error', done);
        this.out.off('close', closed);
        if (e) reject(e);
        else resolve();
      };
      const closed = () => done(this.error ?? new Error('the archive output was closed'));
      this.out.on('drain', done);
      this.out.on('error', done);
      this.out.on('close', closed);
    });
  }

  async prelude(header: ArchiveHeader, collections: ArchiveCollection[]): Promise<void> {
    const magic = Buffer.alloc(4);
    magic.writeUInt32LE(ARCHIVE_MAGIC, 0);
    await this.write(magic);
    await this.write(
      serialize({
        concurrent_collections: int32(header.concurrentCollections),
        version: header.version,
        server_version: header.serverVersion,
        tool_version: header.toolVersion,
      }),
    );
    for (const c of collections)
      await this.write(
        serialize({
          db: c.db,
          collection: c.collection,
          metadata: c.metadata,
          size: int32(c.size),
          type: c.type,
        }),
      );
    await this.write(TERMINATOR_BYTES);
  }

  /**
   * One namespace's documents (BSON bytes each) as one segment, then its EOF block with their
   * CRC-64. A namespace without documents gets an empty segment, as mongodump writes it.
   */
  async namespace(
    db: string,
    collection: string,
    docs: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  ): Promise<{ count: number; bytes: number; crc: bigint }> {
    const crc = new Crc64();
    let count = 0;
    let bytes = 0;
    await this.write(namespaceHeader(db, collection, false, 0n));
    for await (const doc of docs) {
      checkDocument(doc);
      crc.update(doc);
      count++;
      bytes += doc.length;
      await this.write(doc);
    }
    await this.write(TERMINATOR_BYTES);
    const sum = crc.digest();
    await this.write(namespaceHeader(db, collection, true, sum));
    await this.write(TERMINATOR_BYTES);
    return { count, bytes, crc: sum };
  }

  /** Ends the output and resolves once everything is flushed (and a file closed). */
  async end(): Promise<void> {
    if (this.error) throw this.error;
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(() => resolve());
    });
    if (this.error) throw this.error;
  }
}

function namespaceHeader(db: string, collection: string, eof: boolean, crc: bigint): Uint8Array {
  const bits = BigInt.asUintN(64, crc);
  return serialize({
    db,
    collection,
    EOF: eof,
    CRC: Long.fromBits(Number(bits & 0xffffffffn), Number(bits >> 32n)),
  });
}

function checkDocument(doc: Uint8Array): void {
  const view = Buffer.from(doc.buffer, doc.byteOffset, doc.byteLength);
  if (
    doc.length < MIN_BSON_BYTES ||
    view.readInt32LE(0) !== doc.length ||
    doc[doc.length - 1] !== 0
  )
    throw new Error('a document to archive is not one whole BSON document');
}

/**
 * Reads whole BSON documents and terminators from a byte stream, without copying a document that
 * arrived in one chunk.
 */
class BsonStream {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private readonly iterator: AsyncIterator<Buffer>;
  /** Bytes consumed so far, for error messages. */
  offset = 0;

  constructor(input: AsyncIterable<Buffer | string>) {
    this.iterator = (input as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  }

  /** Makes at least `n` bytes available; false at the end of the input. */
  private async fill(n: number): Promise<boolean> {
    while (this.buffered < n) {
      const next = await this.iterator.next();
      if (next.done) return false;
      const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
      if (chunk.length === 0) continue;
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    return true;
  }

  private take(n: number): Buffer {
    const first = this.chunks[0] as Buffer;
    let out: Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      out = Buffer.allocUnsafe(n);
      let filled = 0;
      while (filled < n) {
        const c = this.chunks[0] as Buffer;
        const part = Math.min(c.length, n - filled);
        c.copy(out, filled, 0, part);
        filled += part;
        if (part === c.length) this.chunks.shift();
        else this.chunks[0] = c.subarray(part);
      }
    }
    this.buffered -= n;
    this.offset += n;
    return out;
  }

  private peekUInt32(): number {
    const first = this.chunks[0] as Buffer;
    if (first.length >= 4) return first.readUInt32LE(0);
    const b = Buffer.alloc(4);
    let filled = 0;
    for (const c of this.chunks) {
      const part = Math.min(c.length, 4 - filled);
      c.copy(b, filled, 0, part);
      filled += part;
      if (filled === 4) break;
    }
    return b.readUInt32LE(0);
  }

  /** The magic number; undefined at the end of the input. */
  async uint32(): Promise<number | undefined> {
    if (!(await this.fill(4))) return this.buffered === 0 ? undefined : this.truncated();
    return this.take(4).readUInt32LE(0);
  }

  /** The next document, 'terminator', or 'end' (only where a block may start). */
  async next(): Promise<Buffer | 'terminator' | 'end'> {
    if (!(await this.fill(4))) return this.buffered === 0 ? 'end' : this.truncated();
    const size = this.peekUInt32();
    if (size === TERMINATOR) {
      this.take(4);
      return 'terminator';
    }
    if (size < MIN_BSON_BYTES || size > MAX_BSON_BYTES)
      throw new ArchiveFormatError(
        `${size} at byte ${this.offset} is neither a valid BSON length nor a terminator`,
      );
    if (!(await this.fill(size))) return this.truncated();
    const doc = this.take(size);
    if (doc[size - 1] !== 0)
      throw new ArchiveFormatError(
        `the document at byte ${this.offset - size} does not end with a null byte`,
      );
    return doc;
  }

  private truncated(): never {
    throw new ArchiveFormatError(
      `it ends in the middle of a document (byte ${this.offset + this.buffered})`,
    );
  }
}

function decode(doc: Buffer, what: string): Record<string, unknown> {
  try {
    return deserialize(doc, { promoteLongs: false }) as Record<string, unknown>;
  } catch (e) {
    throw new ArchiveFormatError(`${what} is not valid BSON (${(e as Error).message})`);
  }
}

function str(d: Record<string, unknown>, key: string, what: string, optional = false): string {
  const v = d[key];
  if (v === undefined && optional) return '';
  if (typeof v !== 'string') throw new ArchiveFormatError(`${what} has no string "${key}"`);
  return v;
}

function integer(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v instanceof Long) return v.toNumber();
  if (v && typeof v === 'object' && 'value' in v) return Number((v as { value: unknown }).value);
  return 0;
}

export type ArchiveBlock =
  /**
   * Documents of one namespace: part of a segment (long segments come in several batches);
   * `segment` counts the archive's segments from 0.
   */
  | { kind: 'documents'; db: string; collection: string; docs: Buffer[]; segment: number }
  /** The namespace is complete; its CRC matched. */
  | { kind: 'end'; db: string; collection: string; count: number; bytes: number };

export interface ArchiveReader {
  header: ArchiveHeader;
  collections: ArchiveCollection[];
  /**
   * The namespaces' documents in archive order, checked as mongorestore checks them: every
   * namespace's CRC-64 at its EOF block, no document outside a segment, no namespace reopened
   * after its EOF, and every prelude namespace complete by the end of the archive.
   */
  blocks(batchBytes?: number): AsyncGenerator<ArchiveBlock>;
}

/** Whether the bytes start like a gzip stream (archives made with `--gzip`). */
export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * Opens an archive stream: reads the magic number and the prelude. A gzipped archive is
 * recognised by its first bytes and uncompressed on the way.
 */
export async function openArchive(input: Readable): Promise<ArchiveReader> {
  const source = await sniffGzip(input);
  const stream = new BsonStream(source);
  const magic = await stream.uint32();
  if (magic !== ARCHIVE_MAGIC)
    throw new ArchiveFormatError(
      magic === undefined
        ? 'it is empty'
        : `it does not start with the magic number 0x8199e26d (found 0x${magic.toString(16)})`,
    );
  const first = await stream.next();
  if (!(first instanceof Buffer))
    throw new ArchiveFormatError('it has no header after the magic number');
  const h = decode(first, 'the header');
  const header: ArchiveHeader = {
    concurrentCollections: integer(h.concurrent_collections),
    version: str(h, 'version', 'the header', true),
    serverVersion: str(h, 'server_version', 'the header', true),
    toolVersion: str(h, 'tool_version', 'the header', true),
  };
  const collections: ArchiveCollection[] = [];
  for (;;) {
    const next = await stream.next();
    if (next === 'terminator') break;
    if (next === 'end') throw new ArchiveFormatError('it ends inside its prelude');
    const m = decode(next, 'a collection metadata entry');
    collections.push({
      db: str(m, 'db', 'a collection metadata entry'),
      collection: str(m, 'collection', 'a collection metadata entry'),
      metadata: str(m, 'metadata', 'a collection metadata entry', true),
      size: integer(m.size),
      type: str(m, 'type', 'a collection metadata entry', true),
    });
  }
  return {
    header,
    collections,
    blocks: (batchBytes) => readBlocks(stream, collections, batchBytes),
  };
}

/** The namespace whose documents a prelude entry's data is under (timeseries: its buckets). */
export function dataNamespace(c: ArchiveCollection): string {
  return c.type === 'timeseries'
    ? `${c.db}.system.buckets.${c.collection}`
    : `${c.db}.${c.collection}`;
}

async function* readBlocks(
  stream: BsonStream,
  collections: ArchiveCollection[],
  batchBytes = 4 * 1024 * 1024,
): AsyncGenerator<ArchiveBlock> {
  const open = new Map<string, { crc: Crc64; count: number; bytes: number }>();
  const closed = new Set<string>();
  let segment = -1;
  for (;;) {
    const next = await stream.next();
    if (next === 'end') break;
    if (next === 'terminator')
      throw new ArchiveFormatError(`two terminators in a row at byte ${stream.offset - 4}`);
    const h = decode(next, 'a namespace header');
    const db = str(h, 'db', 'a namespace header');
    const collection = str(h, 'collection', 'a namespace header');
    if (!collection) throw new ArchiveFormatError('a namespace header has no collection');
    const ns = `${db}.${collection}`;
    if (closed.has(ns))
      throw new ArchiveFormatError(`namespace ${ns} continues after its EOF block`);
    let state = open.get(ns);
    if (!state) open.set(ns, (state = { crc: new Crc64(), count: 0, bytes: 0 }));
    if (h.EOF === true) {
      const expected = h.CRC instanceof Long ? BigInt.asUintN(64, h.CRC.toBigInt()) : undefined;
      if (expected === undefined) throw new ArchiveFormatError(`the EOF block of ${ns} has no CRC`);
      const actual = state.crc.digest();
      if (actual !== expected)
        throw new ArchiveFormatError(
          `CRC mismatch for namespace ${ns}: the archive says ${expected}, its documents give ${actual}`,
        );
      open.delete(ns);
      closed.add(ns);
      const end = await stream.next();
      if (end !== 'terminator')
        throw new ArchiveFormatError(`the EOF block of ${ns} is not terminated`);
      yield { kind: 'end', db, collection, count: state.count, bytes: state.bytes };
      continue;
    }
    segment++;
    let batch: Buffer[] = [];
    let size = 0;
    for (;;) {
      const doc = await stream.next();
      if (doc === 'terminator') break;
      if (doc === 'end') throw new ArchiveFormatError(`it ends inside a segment of ${ns}`);
      state.crc.update(doc);
      state.count++;
      state.bytes += doc.length;
      batch.push(doc);
      size += doc.length;
      if (size >= batchBytes) {
        yield { kind: 'documents', db, collection, docs: batch, segment };
        batch = [];
        size = 0;
      }
    }
    if (batch.length) yield { kind: 'documents', db, collection, docs: batch, segment };
  }
  if (open.size)
    throw new ArchiveFormatError(`it ends before the EOF block of ${[...open.keys()].join(', ')}`);
  const missing = collections.map(dataNamespace).filter((ns) => !closed.has(ns));
  if (missing.length)
    throw new ArchiveFormatError(`it ends before the data of ${missing.join(', ')}`);
}

/** The input as chunks, uncompressed when it starts like gzip. */
async function sniffGzip(input: Readable): Promise<AsyncIterable<Buffer>> {
  const iterator = (input as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headBytes = 0;
  let done = false;
  while (headBytes < 2) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    head.push(chunk);
    headBytes += chunk.length;
  }
  async function* all(): AsyncGenerator<Buffer> {
    yield* head;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    }
  }
  if (!isGzip(Buffer.concat(head))) return all();
  const gunzip = createGunzip();
  // pipeline: back-pressure both ways, and an error on either side ends the other (a reader
  // that stops early destroys the gunzip, which stops the source).
  pipeline(Readable.from(all()), gunzip, () => undefined);
  return gunzip;
}
