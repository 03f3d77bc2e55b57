/**
 * Compaction while the server serves: the journal is rewritten as a snapshot of the database
 * (see snapshot-ops.ts) by a child process, while the server keeps answering reads and writes
 * and keeps appending to the journal as usual.
 *
 * 1. Mark: everything pending is written, and the journal's size is noted (a record boundary).
 *    The journal's first bytes up to the mark are a consistent point in time: a replay of them
 *    is the database as it was then, whatever changes after.
 * 2. The child (compaction-process.ts, every thread at nice 19) reads the journal up to the
 *    mark, replays it into an engine of its own, and writes that state as a snapshot into
 *    `journal.bson.tmp` (opened here and handed to it as a descriptor), then fsyncs it.
 *    Commands meanwhile append to the old journal, which stays complete: it is the only file a
 *    start reads, and a start removes a leftover `journal.bson.tmp`.
 * 3. Catch-up: the child copies the journal's bytes appended since the mark after the snapshot
 *    and fsyncs, again and again until less than `CATCH_UP_BYTES` remain to copy.
 * 4. Switch (Journal.switchTo), in one synchronous step on the server's thread, so no command
 *    appends meanwhile: the rest is copied and synced, the file renamed over the journal, the
 *    directory synced, appends move to the new file.
 *
 * A crash at any point leaves a journal that loads with every acknowledged write: before the
 * rename the old one (every append went there), after it the new one (the snapshot at the mark
 * plus every record appended since, copied byte for byte). A failure before the rename (a full
 * disk, the child dying) removes the temporary file and leaves the old journal in use. A child
 * whose server is gone exits (see compaction-process.ts); it never renames anything.
 *
 * The cost is the child's: it reads the journal up to the mark and builds its own copy of the
 * database (about as much memory as the server's), and its CPU, at nice 19, is what the server
 * leaves idle. The server's thread only marks, spawns the process (a fork: ~10–30 ms for a
 * server of 0.5 GB), copies the last few records and renames.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import {
  CompactionError,
  type Journal,
  type JournalMark,
  type SnapshotFile,
  type StorageFaults,
} from './journal';
import type { CompactionTask, FromCompaction, ToCompaction } from './compaction-process';

/** The switch copies at most about this much on the server's thread (the rest is the child's). */
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
  private readonly child: ChildProcess;
  private finished = false;
  private settle!: { resolve: (r: CompactionResult) => void; reject: (e: Error) => void };

  constructor(
    private readonly journal: Journal,
    faults: StorageFaults | undefined,
  ) {
    const started = performance.now();
    const mark: JournalMark = journal.mark();
    const tmp = journal.file + '.tmp';
    // Opened (and truncated) here: the child writes through its copy of the descriptor and
    // never opens the path, so a later compaction's file is never this one.
    const tmpFd = fs.openSync(tmp, 'w');
    this.done = new Promise<CompactionResult>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    try {
      this.child = spawn(
        process.execPath,
        [
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          ...(require('../bin/node-args.cjs') as string[]),
          path.join(__dirname, 'compaction-process.cjs'),
        ],
        // fd 3: messages; 4: the temporary file (TMP_FD); 5: a pipe that ends a pause (RESUME_FD).
        { stdio: ['ignore', 'ignore', 'inherit', 'ipc', tmpFd, 'pipe'] },
      );
    } catch (e) {
      fs.closeSync(tmpFd);
      fs.rmSync(tmp, { force: true });
      throw e;
    }
    const child = this.child;
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    // A resume written as the child dies: nothing to tell (its exit is).
    this.resumePipe?.on('error', () => {});
    const task: CompactionTask = {
      file: journal.file,
      tmp,
      upTo: mark.bytes,
      faults: faults && {
        failCompaction: faults.failCompaction,
        pauseCompaction: faults.pauseCompaction,
      },
    };
    const send = (m: CompactionTask | ToCompaction) => {
      try {
        child.send(m);
      } catch (e) {
        fail(`its process is gone (${(e as Error).message})`);
      }
    };

    let snapshot: SnapshotFile | undefined;
    let rounds = 0;
    const end = () => {
      this.abort();
      fs.close(tmpFd, () => {});
    };
    const fail = (message: string) => {
      if (this.finished) return;
      end();
      fs.rmSync(tmp, { force: true });
      this.settle.reject(new CompactionError(`compaction of ${journal.file} failed: ${message}`));
    };
    this.cancelled = () => {
      end();
      fs.rmSync(tmp, { force: true });
      this.settle.reject(new CompactionError(`compaction of ${journal.file} was cancelled`));
    };
    const next = (copied: number) => {
      if (this.finished) return;
      let upTo: number;
      try {
        upTo = journal.mark().bytes;
      } catch (e) {
        // The journal failed (it has told the server, which stops).
        return fail(`the journal failed (${(e as Error).message})`);
      }
      if (upTo - copied > CATCH_UP_BYTES && rounds++ < MAX_CATCH_UPS) {
        send({ copyTo: upTo });
        return;
      }
      const bytesBefore = mark.bytes;
      const switching = performance.now();
      try {
        journal.switchTo(tmp, tmpFd, mark, snapshot!, copied);
      } catch (e) {
        if (e instanceof CompactionError) return fail((e as Error).message);
        // The journal failed after the rename: it has told the server, which stops.
        end();
        this.settle.reject(e as Error);
        return;
      }
      const switchMs = performance.now() - switching;
      end();
      this.settle.resolve({
        bytesBefore,
        bytesAfter: journal.bytes,
        ms: performance.now() - started,
        switchMs,
      });
    };
    child.on('message', (m: FromCompaction) => {
      if (this.finished) return;
      if (m.kind === 'paused') {
        faults?.onCompactionPaused?.();
        const ms = faults?.pauseCompaction?.ms;
        if (ms !== undefined) setTimeout(() => this.resume(), ms).unref();
      } else if (m.kind === 'failed') fail(m.message);
      else if (m.kind === 'written') {
        snapshot = m.snapshot;
        next(mark.bytes);
      } else next(m.to);
    });
    child.on('error', (e) => fail(e.message));
    send(task);
    child.on('exit', (code, signal) => fail(`its process exited (${signal ?? code})`));
  }

  private cancelled?: () => void;

  /** The parent's end of the pipe a paused child reads from (RESUME_FD). */
  private get resumePipe(): Writable | undefined {
    return (this.child.stdio as unknown as Array<Writable | null | undefined>)[5] ?? undefined;
  }

  /** Ends a pause held by a test fault (see StorageFaults.pauseCompaction). */
  resume(): void {
    const pipe = this.resumePipe;
    if (pipe && !pipe.destroyed) pipe.write('r');
  }

  /** Stops the child; nothing is renamed any more. */
  private abort(): void {
    this.finished = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  /** Stops a compaction in progress (at a stop): the old journal stays, the file goes. */
  cancel(): void {
    if (!this.finished) this.cancelled?.();
  }
}
