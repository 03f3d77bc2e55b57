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
 *
 * Recovery never loses data silently. Only a torn record that runs to the end of the file (a
 * write cut short by a crash, so never acknowledged) is dropped, with a warning. Any other damage
 * (a bad checksum or impossible framing followed by more data) throws `JournalCorruptError`,
 * naming the file and the byte offset: the server refuses to start until `repair` (repair.ts)
 * has cut the journal at the last good record, after keeping a copy.
 *
 * A journal that cannot be written (ENOSPC, EIO...) is failed for good: the partial bytes are cut
 * off, `onFailure` is told (the server stops), and every later commit throws. Retrying is not
 * safe: after a failed fsync the kernel may already have dropped the dirty pages.
 *
 * Compaction rewrites the live state as a fresh journal into `journal.bson.tmp`, fsyncs it and
 * renames it over the old one, then fsyncs the directory: a crash at any point leaves either the
 * old or the new journal, and a leftover temporary file is removed at the next start. While the
 * server runs it does so in the background (background-compaction.ts): the snapshot is of the
 * journal as it was at a record boundary, the records appended since are copied after it, and
 * the rename happens in one synchronous step with nothing appended in between (see `switchTo`).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { deserialize, serialize, serializeWithBufferAndIndex, type Binary } from 'bson';
import type { Doc } from './values';
import { MAX_BSON_BYTES } from './wire';

export type JournalOp =
  | { o: 'create'; db: string; coll: string; options?: Doc }
  | { o: 'options'; db: string; coll: string; options: Doc }
  | { o: 'insert'; db: string; coll: string; doc: Doc }
  | { o: 'replace'; db: string; coll: string; doc: Doc }
  /** Some top-level fields of a document changed: `set` (changed or new, in order), `unset`. */
  | { o: 'update'; db: string; coll: string; id: unknown; set: Doc; unset?: string[] }
  | { o: 'remove'; db: string; coll: string; id: unknown }
  | { o: 'drop'; db: string; coll: string }
  | { o: 'dropDatabase'; db: string }
  | { o: 'createIndex'; db: string; coll: string; spec: Doc }
  | { o: 'dropIndex'; db: string; coll: string; name: string }
  /** A committed transaction's changes: one record, so replay applies all of them or none. */
  | { o: 'txn'; ops: JournalOp[] }
  /**
   * Snapshot (written by compaction): documents of a collection, their BSON one after the other
   * in `data`; replay stores them undecoded (see DocStore).
   */
  | { o: 'docs'; db: string; coll: string; data: Binary }
  /**
   * Snapshot: an index's keys in order, as the positions (uint32 LE) of their documents among
   * the collection's `docs` records; it spares the sort when the index is built.
   */
  | { o: 'indexOrder'; db: string; coll: string; name: string; order: Binary };

export type FsyncMode = 'always' | 'interval' | 'never';

export const JOURNAL_FILE = 'journal.bson';
const HEADER = 8;
/** A document is at most 16 MiB; the operation around it adds names and a few fields. */
const MAX_PAYLOAD = MAX_BSON_BYTES + 64 * 1024;
const MIN_PAYLOAD = 5; // the smallest BSON document, {}

/**
 * Injected storage failures, for tests only (the CLI's `--test-faults`). The object may be
 * changed while the server runs; the journal reads it at each write.
 */
export interface StorageFaults {
  /** The next journal appends fail with this errno code, after writing `afterBytes` of them. */
  failWrites?: { code: string; afterBytes?: number };
  /** fdatasync of the journal fails with this errno code. */
  failSync?: { code: string };
  /** Writing the compacted journal fails with this errno code. */
  failCompaction?: { code: string };
  /**
   * Compaction blocks for `ms` (or, in the background, until `Engine.resumeCompaction`) once
   * `afterRecords` records of the new journal are on disk; or `at: 'written'` once the whole
   * snapshot is (before the records appended since are copied after it); or `at: 'renamed'`
   * right after the new journal was renamed over the old one, before the directory is synced
   * and appends move to it (this one blocks the server itself: for crash tests only).
   */
  pauseCompaction?: { afterRecords?: number; at?: 'written' | 'renamed'; ms: number };
  /** Called when compaction pauses (the CLI prints a line a test can wait for). */
  onCompactionPaused?: () => void;
}

/** The journal is damaged somewhere other than a torn tail; the server must not start on it. */
export class JournalCorruptError extends Error {
  constructor(
    readonly file: string,
    readonly offset: number,
    readonly size: number,
    readonly reason: string,
  ) {
    const dir = path.dirname(file);
    super(
      `the journal ${file} is damaged at byte offset ${offset} of ${size}: ${reason}. ` +
        `Nothing after that point can be trusted, so the server refuses to start rather than ` +
        `drop it silently. To keep every record before offset ${offset} and cut the rest ` +
        `(a copy of the whole journal is kept first), stop anything using ${dir} and run:\n` +
        `  npx embedded-mongo repair --dbpath ${dir}`,
    );
    this.name = 'JournalCorruptError';
  }
}

/** The journal could not be written or synced; nothing written since may be durable. */
export class JournalWriteError extends Error {
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
    this.name = 'JournalWriteError';
  }
}

/** Compaction failed; the old journal is untouched and stays in use. */
export class CompactionError extends Error {}

/**
 * How records are decoded at replay: as the wire decodes commands (an inserted document is
 * journaled with the bytes it arrived in, see frameInsert, and must read back as it was served).
 */
const REPLAY = { promoteLongs: true, promoteValues: true, validation: { utf8: false } } as const;

let scratch: Buffer | undefined;

/** One record: the operation serialized once, after room for its header, then copied out once. */
export function frame(op: JournalOp): Buffer {
  scratch ??= Buffer.allocUnsafe(HEADER + MAX_PAYLOAD);
  let end: number;
  try {
    end = serializeWithBufferAndIndex(op as unknown as Doc, scratch, { index: HEADER }) + 1;
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    // Larger than any record can be: serialize alone says so the way it always did.
    const payload = serialize(op as unknown as Doc);
    const head = Buffer.alloc(HEADER);
    head.writeUInt32LE(payload.length, 0);
    head.writeUInt32LE(zlib.crc32(payload), 4);
    return Buffer.concat([head, payload]);
  }
  const out = Buffer.allocUnsafe(end);
  scratch.copy(out, 0, 0, end);
  const payload = out.subarray(HEADER);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(zlib.crc32(payload), 4);
  return out;
}

/**
 * The record of `{ o: 'insert', db, coll, doc }` with the document's BSON as it arrived in the
 * command (no decode-and-encode round trip): the same bytes `frame` would make for a document
 * that encodes back to them.
 */
export function frameInsert(db: string, coll: string, doc: Uint8Array): Buffer {
  // int32 size, 'o': 'insert', 'db': db, 'coll': coll, 'doc': <document>, terminator
  const size =
    4 +
    stringFieldSize('o', 'insert') +
    stringFieldSize('db', db) +
    stringFieldSize('coll', coll) +
    (5 + doc.length) +
    1;
  const out = Buffer.allocUnsafe(HEADER + size);
  out.writeInt32LE(size, HEADER);
  let p = HEADER + 4;
  p = writeStringField(out, p, 'o', 'insert');
  p = writeStringField(out, p, 'db', db);
  p = writeStringField(out, p, 'coll', coll);
  out[p++] = 0x03;
  p += out.write('doc\0', p, 'latin1');
  out.set(doc, p);
  out[p + doc.length] = 0;
  out.writeUInt32LE(size, 0);
  out.writeUInt32LE(zlib.crc32(out.subarray(HEADER)), 4);
  return out;
}

/** Bytes of a BSON string element `name: value` (type, name, length, UTF-8, NUL). */
function stringFieldSize(name: string, value: string): number {
  return 1 + name.length + 1 + 4 + Buffer.byteLength(value) + 1;
}

/** Writes the BSON string element `name: value` (an ASCII name) at `p`; answers where it ends. */
function writeStringField(out: Buffer, p: number, name: string, value: string): number {
  out[p++] = 0x02;
  p += out.write(`${name}\0`, p, 'latin1');
  const length = out.write(value, p + 4, 'utf8');
  out.writeInt32LE(length + 1, p);
  p += 4 + length;
  out[p++] = 0;
  return p;
}

export interface JournalScan {
  /** Complete, valid records read (and applied). */
  records: number;
  /** Byte offset just after the last valid record. */
  end: number;
  /** Where reading stopped early, and why; `torn` when it is a tail that may be dropped. */
  problem?: { offset: number; reason: string; torn: boolean };
}

/**
 * Why the bytes at `off` are not a valid record, and whether they are a torn tail: bytes that
 * could be the start of the record being written when the process died, running to the end.
 */
function diagnose(buf: Buffer, off: number): { reason: string; torn: boolean } {
  const rest = buf.length - off;
  if (rest < HEADER) return { reason: `a record header cut short (${rest} bytes)`, torn: true };
  const tail = buf.subarray(off);
  if (tail.every((b) => b === 0)) {
    // A file system can leave a crashed append as zeros (space allocated, data never written).
    return { reason: `${rest} zero bytes where a record was being written`, torn: true };
  }
  const len = buf.readUInt32LE(off);
  if (len < MIN_PAYLOAD || len > MAX_PAYLOAD)
    return { reason: `impossible record length ${len}`, torn: false };
  const available = Math.min(rest - HEADER, len);
  // The BSON document repeats its own length: a corrupted header in the middle of the file
  // (which could otherwise claim to run past the end) does not agree with it.
  if (available >= 4) {
    const docLen = buf.readInt32LE(off + HEADER);
    if (docLen !== len)
      return {
        reason: `the record header says ${len} bytes but its document says ${docLen}`,
        torn: false,
      };
  }
  if (available < len)
    return { reason: `a record of ${len} bytes cut short after ${available}`, torn: true };
  const after = rest - HEADER - len;
  if (after === 0) return { reason: 'the last record fails its checksum', torn: true };
  return { reason: `a record fails its checksum, and ${after} more bytes follow it`, torn: false };
}

/**
 * Reads the records of a journal image in order, handing each operation to `apply`. Stops at
 * the first invalid record, or at one that `apply` or BSON decoding rejects (never torn).
 */
export function scanJournal(buf: Buffer, apply: (op: JournalOp) => void): JournalScan {
  let off = 0;
  let records = 0;
  while (off < buf.length) {
    const len = buf.length - off >= HEADER ? buf.readUInt32LE(off) : 0;
    const whole =
      buf.length - off >= HEADER && len >= MIN_PAYLOAD && off + HEADER + len <= buf.length;
    const payload = whole ? buf.subarray(off + HEADER, off + HEADER + len) : undefined;
    if (
      !payload ||
      zlib.crc32(payload) !== buf.readUInt32LE(off + 4) ||
      payload.readInt32LE(0) !== len
    ) {
      return { records, end: off, problem: { offset: off, ...diagnose(buf, off) } };
    }
    try {
      apply(deserialize(payload, REPLAY) as JournalOp);
    } catch (e) {
      const reason = `a record with a valid checksum cannot be replayed (${(e as Error).message})`;
      return { records, end: off, problem: { offset: off, reason, torn: false } };
    }
    records++;
    off += HEADER + len;
  }
  return { records, end: off };
}

/**
 * How many intact-looking records lie after damaged bytes: it searches for the next offset where
 * a record's lengths and checksum agree, and follows the records from there (for repair's report).
 */
export function countRecordsAfter(buf: Buffer, from: number): number {
  let n = 0;
  let off = from + 1;
  while (off + HEADER + MIN_PAYLOAD <= buf.length) {
    const len = buf.readUInt32LE(off);
    const fits =
      len >= MIN_PAYLOAD &&
      len <= MAX_PAYLOAD &&
      off + HEADER + len <= buf.length &&
      buf.readInt32LE(off + HEADER) === len;
    if (
      fits &&
      zlib.crc32(buf.subarray(off + HEADER, off + HEADER + len)) === buf.readUInt32LE(off + 4)
    ) {
      n++;
      off += HEADER + len;
    } else {
      off++;
    }
  }
  return n;
}

function errnoError(code: string, what: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(`${code}: injected failure, ${what}`);
  e.code = code;
  return e;
}

function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off);
}

/** Blocks the calling thread for up to `ms` (a compaction paused by a test fault). */
export function sleepBlocking(ms: number, flag = new Int32Array(new SharedArrayBuffer(4))): void {
  Atomics.wait(flag, 0, 0, ms);
}

/** What a snapshot file holds once written. */
export interface SnapshotFile {
  bytes: number;
  records: number;
}

/**
 * Writes the records of `ops` at the start of the file open as `fd` (`file`: its name, for
 * messages), 4 MiB at a time, then fsyncs it. `faults`: an injected write failure, and the
 * pauses `afterRecords` and `at: 'written'` of `pauseCompaction`, which call `pause`.
 */
export function writeSnapshotFile(
  fd: number,
  file: string,
  ops: Iterable<JournalOp>,
  faults: Pick<StorageFaults, 'failCompaction' | 'pauseCompaction'> | undefined,
  pause: () => void,
): SnapshotFile {
  let bytes = 0;
  let records = 0;
  let chunk: Buffer[] = [];
  let chunkBytes = 0;
  const flush = () => {
    if (faults?.failCompaction) throw errnoError(faults.failCompaction.code, `write ${file}`);
    writeAll(fd, chunk.length === 1 ? chunk[0]! : Buffer.concat(chunk));
    chunk = [];
    chunkBytes = 0;
  };
  const held = faults?.pauseCompaction;
  for (const op of ops) {
    const f = frame(op);
    chunk.push(f);
    chunkBytes += f.length;
    bytes += f.length;
    records++;
    if (chunkBytes > 4 * 1024 * 1024) flush();
    if (held?.afterRecords !== undefined && records === held.afterRecords) {
      flush();
      fs.fsyncSync(fd);
      pause();
    }
  }
  flush();
  fs.fsyncSync(fd);
  if (held?.at === 'written') pause();
  return { bytes, records };
}

/**
 * Copies bytes [from, to) of the file open as `src` to position `at` of the file open as
 * `dest`, 4 MiB at a time.
 */
export function copyRange(src: number, from: number, to: number, dest: number, at: number): void {
  const buf = Buffer.allocUnsafe(Math.min(4 * 1024 * 1024, Math.max(to - from, 0)));
  let pos = from;
  while (pos < to) {
    const n = fs.readSync(src, buf, 0, Math.min(buf.length, to - pos), pos);
    if (n === 0) throw new Error(`the journal ends at ${pos}, before ${to}`);
    let done = 0;
    while (done < n) done += fs.writeSync(dest, buf, done, n - done, at + (pos - from) + done);
    pos += n;
  }
}

/** A point of the journal: its size and record count after everything committed. */
export interface JournalMark {
  bytes: number;
  records: number;
}

export interface JournalOptions {
  fsync: FsyncMode;
  /** Told once when the journal fails for good (write or sync error). */
  onFailure?: (error: JournalWriteError) => void;
  /** Recovery notes: a torn tail dropped, a leftover compaction file removed. */
  onWarning?: (message: string) => void;
  faults?: StorageFaults;
}

export class Journal {
  private fd: number;
  private pending: Buffer[] = [];
  private dirty = false;
  private timer?: NodeJS.Timeout;
  /** Set once a write or sync failed; every later commit throws it. */
  failure?: JournalWriteError;
  bytes = 0;
  records = 0;

  private constructor(
    readonly dir: string,
    private readonly options: JournalOptions,
  ) {
    this.fd = fs.openSync(this.file, 'a');
    this.bytes = fs.fstatSync(this.fd).size;
    if (options.fsync === 'interval') {
      this.timer = setInterval(() => {
        try {
          this.sync();
        } catch {
          // sync() has failed the journal and told onFailure; a timer has no caller to throw to.
        }
      }, 1000);
      this.timer.unref();
    }
  }

  get file(): string {
    return path.join(this.dir, JOURNAL_FILE);
  }

  /**
   * Replays the journal into `apply` and opens it for appending. A torn tail is cut off (with a
   * warning); any other damage throws JournalCorruptError and leaves the file as it is.
   */
  static open(dir: string, options: JournalOptions, apply: (op: JournalOp) => void): Journal {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, JOURNAL_FILE);
    const tmp = file + '.tmp';
    if (fs.existsSync(tmp)) {
      fs.rmSync(tmp);
      options.onWarning?.(
        `removed ${tmp}, left by a compaction that did not finish; ${file} is complete`,
      );
    }
    let records = 0;
    if (fs.existsSync(file)) {
      const buf = fs.readFileSync(file);
      const scan = scanJournal(buf, apply);
      records = scan.records;
      if (scan.problem && !scan.problem.torn) {
        throw new JournalCorruptError(file, scan.problem.offset, buf.length, scan.problem.reason);
      }
      if (scan.problem) {
        fs.truncateSync(file, scan.end);
        options.onWarning?.(
          `dropped ${buf.length - scan.end} bytes at the end of ${file} (byte offset ` +
            `${scan.end}): ${scan.problem.reason}, a write cut short by a crash and never acknowledged`,
        );
      }
    }
    const j = new Journal(dir, options);
    j.records = records;
    return j;
  }

  append(op: JournalOp): void {
    this.pending.push(frame(op));
  }

  /** Appends a record framed already (see frameInsert). */
  appendFramed(record: Buffer): void {
    this.pending.push(record);
  }

  /** Writes the pending records; called before a write is acknowledged. */
  commit(): void {
    if (this.failure) throw this.failure;
    if (this.pending.length === 0) return;
    const buf =
      this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending);
    const count = this.pending.length;
    this.pending = [];
    try {
      const fault = this.options.faults?.failWrites;
      if (fault) {
        writeAll(this.fd, buf.subarray(0, Math.min(fault.afterBytes ?? 0, buf.length)));
        throw errnoError(fault.code, `write ${this.file}`);
      }
      writeAll(this.fd, buf);
      if (this.options.fsync === 'always') this.fdatasync();
    } catch (e) {
      // Part of the batch may be on disk: cut it, so that the journal still ends with the last
      // acknowledged record (bytes followed by nothing are a torn tail, never a corruption).
      try {
        fs.ftruncateSync(this.fd, this.bytes);
      } catch {
        // The file may be unreachable (EIO); recovery will then drop the torn tail.
      }
      throw this.fail(e, 'write to');
    }
    this.records += count;
    this.bytes += buf.length;
    this.dirty = true;
  }

  sync(): void {
    if (this.failure) throw this.failure;
    if (!this.dirty) return;
    try {
      this.fdatasync();
    } catch (e) {
      throw this.fail(e, 'fdatasync of');
    }
    this.dirty = false;
  }

  private fdatasync(): void {
    const fault = this.options.faults?.failSync;
    if (fault) throw errnoError(fault.code, `fdatasync ${this.file}`);
    fs.fdatasyncSync(this.fd);
  }

  private fail(e: unknown, what: string): JournalWriteError {
    this.failure = new JournalWriteError(
      `${what} the journal ${this.file} failed (${(e as Error).message})`,
      e,
    );
    this.options.onFailure?.(this.failure);
    return this.failure;
  }

  /**
   * Atomically replaces the journal by the given operations (the live state), in one
   * synchronous step (offline, and at a stop). Throws CompactionError, with the old journal
   * still in place and in use, when that fails.
   */
  compact(ops: Iterable<JournalOp>): void {
    this.commit();
    const tmp = this.file + '.tmp';
    const faults = this.options.faults;
    let written: SnapshotFile;
    try {
      const fd = fs.openSync(tmp, 'w');
      try {
        written = writeSnapshotFile(fd, tmp, ops, faults, () => {
          faults?.onCompactionPaused?.();
          sleepBlocking(faults!.pauseCompaction!.ms);
        });
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, this.file);
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      throw new CompactionError(`compaction of ${this.file} failed: ${(e as Error).message}`);
    }
    // The new journal is in place: from here on, a failure to reach it is a journal failure.
    this.reopen();
    this.bytes = written.bytes;
    this.records = written.records;
    this.dirty = false;
  }

  /**
   * Where the journal stands, everything pending written first: a background compaction
   * snapshots the journal up to here and copies what is appended after it.
   */
  mark(): JournalMark {
    this.commit();
    return { bytes: this.bytes, records: this.records };
  }

  /**
   * Ends a background compaction: `tmp` (open as `tmpFd`) holds a snapshot of the journal up
   * to `mark` (`snapshot`), followed by the journal's bytes from `mark.bytes` up to `copied`,
   * all fsynced. In one synchronous step (no command runs, so nothing is appended meanwhile):
   * the rest of the journal is copied after them and synced, the file is renamed over the
   * journal, the directory is synced, and appends go to the new file.
   *
   * Crash safety: until the rename, `journal.bson` is the old journal, which received every
   * append and is complete (the temporary file is removed at the next start); from the rename
   * on, it is the new one, which holds the same state (the snapshot at the mark plus every
   * record after it) and receives every later append; the directory is synced before any later
   * write is acknowledged, so a power loss cannot bring back the old name with acknowledged
   * writes only in the new file. Throws CompactionError (the old journal stays in use, `tmp`
   * is removed) when something fails before the rename; a failure after it fails the journal.
   */
  switchTo(
    tmp: string,
    tmpFd: number,
    mark: JournalMark,
    snapshot: SnapshotFile,
    copied: number,
  ): void {
    this.commit();
    if (this.failure) throw new CompactionError(`the journal ${this.file} failed`);
    const tail = this.bytes - mark.bytes;
    try {
      const src = fs.openSync(this.file, 'r');
      try {
        copyRange(src, copied, this.bytes, tmpFd, snapshot.bytes + (copied - mark.bytes));
      } finally {
        fs.closeSync(src);
      }
      fs.fdatasyncSync(tmpFd);
      fs.renameSync(tmp, this.file);
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      throw new CompactionError(`compaction of ${this.file} failed: ${(e as Error).message}`);
    }
    const held = this.options.faults?.pauseCompaction;
    if (held?.at === 'renamed') {
      this.options.faults?.onCompactionPaused?.();
      sleepBlocking(held.ms);
    }
    this.reopen();
    this.bytes = snapshot.bytes + tail;
    this.records = snapshot.records + (this.records - mark.records);
    this.dirty = false;
  }

  /**
   * After a rename over the journal: syncs the directory and appends to the new file. The old
   * file's descriptor is closed on libuv's thread pool: it is the last reference to the
   * replaced file, and that close frees its blocks (tens of ms for hundreds of MiB).
   */
  private reopen(): void {
    try {
      const dirFd = fs.openSync(this.dir, 'r');
      fs.fsyncSync(dirFd);
      fs.closeSync(dirFd);
      const old = this.fd;
      this.fd = fs.openSync(this.file, 'a');
      fs.close(old, () => {
        // Nothing is written through it any more; an error here loses nothing.
      });
    } catch (e) {
      throw this.fail(e, 'reopening');
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    if (!this.failure) {
      this.commit();
      this.sync();
    }
    fs.closeSync(this.fd);
  }
}
