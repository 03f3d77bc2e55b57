/**
 * Compaction while the server serves: the journal is rewritten as a snapshot of the database
 * (see snapshot-ops.ts) by a worker thread, while the server keeps answering reads and writes
 * on its own thread and keeps appending to the journal as usual.
 *
 * 1. Mark: everything pending is written, and the journal's size is noted (a record boundary).
 *    The journal's first bytes up to the mark are a consistent point in time: a replay of them
 *    is the database as it was then, whatever changes after.
 * 2. The worker (compaction-worker.ts, at a raised nice value) reads the journal up to the mark,
 *    replays it into an engine of its own, and writes that state as a snapshot into
 *    `journal.bson.tmp` (opened here, so that only this thread ever opens or closes it), then
 *    fsyncs it. Commands meanwhile append to the old journal, which stays complete: it is the
 *    only file a start reads, and it removes a leftover `journal.bson.tmp`.
 * 3. Catch-up: the worker copies the journal's bytes appended since the mark after the snapshot
 *    and fsyncs, again and again until less than `CATCH_UP_BYTES` remain to copy.
 * 4. Switch (Journal.switchTo), in one synchronous step on the server's thread, so no command
 *    appends meanwhile: the rest is copied and synced, the file renamed over the journal, the
 *    directory synced, appends move to the new file.
 *
 * A crash at any point leaves a journal that loads with every acknowledged write: before the
 * rename the old one (every append went there), after it the new one (the snapshot at the mark
 * plus every record appended since, copied byte for byte). A failure before the rename (a full
 * disk, the worker dying) removes the temporary file and leaves the old journal in use.
 *
 * The cost is the worker's: it reads the journal up to the mark and builds its own copy of the
 * database (about as much memory as the server's), and its CPU, at nice 19, is what the server
 * leaves idle. The server's thread only marks, spawns, copies the last few records and renames.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  CompactionError,
  type Journal,
  type JournalMark,
  type SnapshotFile,
  type StorageFaults,
} from './journal';
import type { CompactionWorkerData, FromWorker, ToWorker } from './compaction-worker';

/** The switch copies at most about this much on the server's thread (the rest is the worker's). */
const CATCH_UP_BYTES = 256 * 1024;
/** Catch-up rounds before switching whatever remains (a write load faster than the copy). */
const MAX_CATCH_UPS = 20;

export interface CompactionResult {
  /** The journal's size when the compaction started, and after it (with what was appended meanwhile). */
  bytesBefore: number;
  bytesAfter: number;
  ms: number;
  /** How long the switch held the server's thread (see Journal.switchTo). */
  switchMs: number;
}

export class BackgroundCompaction {
  /** Settles when the compaction is done: rejects with CompactionError when it failed. */
  readonly done: Promise<CompactionResult>;
  private readonly worker: Worker;
  private readonly resumeFlag = new Int32Array(new SharedArrayBuffer(4));
  private finished = false;
  private settle!: { resolve: (r: CompactionResult) => void; reject: (e: Error) => void };

  constructor(
    private readonly journal: Journal,
    faults: StorageFaults | undefined,
  ) {
    const started = performance.now();
    const mark: JournalMark = journal.mark();
    const tmp = journal.file + '.tmp';
    // Opened (and truncated) here and closed once the worker is gone: the worker never opens the
    // path, so a later compaction's file is never this one.
    const tmpFd = fs.openSync(tmp, 'w');
    this.done = new Promise<CompactionResult>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    const workerData: CompactionWorkerData = {
      file: journal.file,
      tmp,
      tmpFd,
      upTo: mark.bytes,
      faults: faults && {
        failCompaction: faults.failCompaction,
        pauseCompaction: faults.pauseCompaction,
      },
      resume: this.resumeFlag.buffer as SharedArrayBuffer,
    };
    try {
      this.worker = new Worker(path.join(__dirname, 'compaction-worker.cjs'), { workerData });
    } catch (e) {
      fs.closeSync(tmpFd);
      fs.rmSync(tmp, { force: true });
      throw e;
    }
    this.worker.unref();
    this.worker.once('exit', () => fs.closeSync(tmpFd));

    let snapshot: SnapshotFile | undefined;
    let rounds = 0;
    const fail = (message: string) => {
      this.abort();
      fs.rmSync(tmp, { force: true });
      this.settle.reject(new CompactionError(`compaction of ${journal.file} failed: ${message}`));
    };
    const next = (copied: number) => {
      if (this.finished) return;
      let end: number;
      try {
        end = journal.mark().bytes;
      } catch (e) {
        // The journal failed (it has told the server, which stops).
        return fail(`the journal failed (${(e as Error).message})`);
      }
      if (end - copied > CATCH_UP_BYTES && rounds++ < MAX_CATCH_UPS) {
        const m: ToWorker = { copyTo: end };
        this.worker.postMessage(m);
        return;
      }
      const bytesBefore = mark.bytes;
      const switching = performance.now();
      try {
        journal.switchTo(tmp, tmpFd, mark, snapshot!, copied);
      } catch (e) {
        if (e instanceof CompactionError) return fail((e as Error).message);
        // The journal failed after the rename: it has told the server, which stops.
        this.abort();
        this.settle.reject(e as Error);
        return;
      }
      this.abort();
      this.settle.resolve({
        bytesBefore,
        bytesAfter: journal.bytes,
        ms: performance.now() - started,
        switchMs: performance.now() - switching,
      });
    };
    this.worker.on('message', (m: FromWorker) => {
      if (this.finished) return;
      if (m.kind === 'paused') faults?.onCompactionPaused?.();
      else if (m.kind === 'failed') fail(m.message);
      else if (m.kind === 'written') {
        snapshot = m.snapshot;
        next(mark.bytes);
      } else next(m.to);
    });
    this.worker.on('error', (e) => {
      if (!this.finished) fail(e.message);
    });
    this.worker.on('exit', (code) => {
      if (!this.finished) fail(`its thread exited (code ${code})`);
    });
  }

  /** Ends a pause held by a test fault (see StorageFaults.pauseCompaction). */
  resume(): void {
    Atomics.store(this.resumeFlag, 0, 1);
    Atomics.notify(this.resumeFlag, 0);
  }

  /** Stops the worker; nothing is renamed any more. The caller removes the temporary file. */
  abort(): void {
    if (this.finished) return;
    this.finished = true;
    this.resume();
    void this.worker.terminate();
  }

  /** Stops a compaction in progress (at a stop): the old journal stays, the file goes. */
  cancel(): void {
    if (this.finished) return;
    this.abort();
    fs.rmSync(this.journal.file + '.tmp', { force: true });
    this.settle.reject(new CompactionError(`compaction of ${this.journal.file} was cancelled`));
  }
}
