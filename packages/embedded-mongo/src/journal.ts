/**
 * Durable storage: an append-only journal of operations.
 *
 * File `<dbPath>/journal.bson` is a sequence of records:
 *   uint32 LE  payload length
 *   uint32 LE  CRC-32 of the payload
 *   payload    one BSON document describing an operation (see `JournalOp`)
 *
 * Every write command's records are appended with one write(2) before the command is
 * acknowledged, so an acknowledged write survives the process being killed (kill -9): the bytes
 * are in the kernel's page cache. `fsync: 'always'` additionally fdatasyncs before each
 * acknowledgement (survives power loss, slower); the default syncs at most once a second.
 * On start the journal is replayed; a torn record at the tail (a write cut by a crash, which
 * was therefore never acknowledged) is truncated away. Compaction rewrites the live state as a
 * fresh journal into a temporary file, fsyncs it and renames it over the old one (atomic).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { deserialize, serialize } from 'bson';
import type { Doc } from './values';

export type JournalOp =
  | { o: 'create'; db: string; coll: string; options?: Doc }
  | { o: 'options'; db: string; coll: string; options: Doc }
  | { o: 'insert'; db: string; coll: string; doc: Doc }
  | { o: 'replace'; db: string; coll: string; doc: Doc }
  | { o: 'remove'; db: string; coll: string; id: unknown }
  | { o: 'drop'; db: string; coll: string }
  | { o: 'dropDatabase'; db: string }
  | { o: 'createIndex'; db: string; coll: string; spec: Doc }
  | { o: 'dropIndex'; db: string; coll: string; name: string };

export type FsyncMode = 'always' | 'interval' | 'never';

const FILE = 'journal.bson';

function frame(op: JournalOp): Buffer {
  const payload = serialize(op as unknown as Doc);
  const head = Buffer.alloc(8);
  head.writeUInt32LE(payload.length, 0);
  head.writeUInt32LE(zlib.crc32(payload), 4);
  return Buffer.concat([head, payload]);
}

export class Journal {
  private fd: number;
  private pending: Buffer[] = [];
  private dirty = false;
  private timer?: NodeJS.Timeout;
  bytes = 0;
  records = 0;

  private constructor(
    readonly dir: string,
    private readonly fsync: FsyncMode,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    this.fd = fs.openSync(this.file, 'a');
    this.bytes = fs.fstatSync(this.fd).size;
    if (fsync === 'interval') {
      this.timer = setInterval(() => this.sync(), 1000);
      this.timer.unref();
    }
  }

  get file(): string {
    return path.join(this.dir, FILE);
  }

  /** Replays the journal into `apply`, truncating a torn tail, and opens it for appending. */
  static open(dir: string, fsync: FsyncMode, apply: (op: JournalOp) => void): Journal {
    const file = path.join(dir, FILE);
    let records = 0;
    if (fs.existsSync(file)) {
      const buf = fs.readFileSync(file);
      let off = 0;
      while (off + 8 <= buf.length) {
        const len = buf.readUInt32LE(off);
        const crc = buf.readUInt32LE(off + 4);
        if (off + 8 + len > buf.length) break;
        const payload = buf.subarray(off + 8, off + 8 + len);
        if (zlib.crc32(payload) !== crc) break;
        apply(
          deserialize(payload, { promoteLongs: true, promoteValues: true }) as unknown as JournalOp,
        );
        records++;
        off += 8 + len;
      }
      if (off < buf.length) fs.truncateSync(file, off);
    }
    const j = new Journal(dir, fsync);
    j.records = records;
    return j;
  }

  append(op: JournalOp): void {
    this.pending.push(frame(op));
  }

  /** Writes the pending records; called before a write is acknowledged. */
  commit(): void {
    if (this.pending.length === 0) return;
    const buf =
      this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending);
    this.records += this.pending.length;
    this.pending = [];
    let off = 0;
    while (off < buf.length) off += fs.writeSync(this.fd, buf, off);
    this.bytes += buf.length;
    this.dirty = true;
    if (this.fsync === 'always') this.sync();
  }

  sync(): void {
    if (!this.dirty) return;
    fs.fdatasyncSync(this.fd);
    this.dirty = false;
  }

  /** Atomically replaces the journal by the given operations (the live state). */
  compact(ops: Iterable<JournalOp>): void {
    this.commit();
    const tmp = this.file + '.tmp';
    const fd = fs.openSync(tmp, 'w');
    let bytes = 0;
    let records = 0;
    let chunk: Buffer[] = [];
    let chunkBytes = 0;
    const flush = () => {
      const b = Buffer.concat(chunk);
      let off = 0;
      while (off < b.length) off += fs.writeSync(fd, b, off);
      chunk = [];
      chunkBytes = 0;
    };
    for (const op of ops) {
      const f = frame(op);
      chunk.push(f);
      chunkBytes += f.length;
      bytes += f.length;
      records++;
      if (chunkBytes > 4 * 1024 * 1024) flush();
    }
    flush();
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.closeSync(this.fd);
    fs.renameSync(tmp, this.file);
    const dirFd = fs.openSync(this.dir, 'r');
    fs.fsyncSync(dirFd);
    fs.closeSync(dirFd);
    this.fd = fs.openSync(this.file, 'a');
    this.bytes = bytes;
    this.records = records;
    this.dirty = false;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.commit();
    this.sync();
    fs.closeSync(this.fd);
  }
}
