/**
 * The process of a background compaction (see background-compaction.ts), a child of the server
 * with an IPC channel. It reads the journal up to the mark it is given (a record boundary: the
 * database as it was then), replays it into an engine of its own, writes that state as a
 * snapshot into the temporary file the server opened for it (its descriptor 4), fsyncs it, then
 * copies the journal's later bytes after the snapshot whenever the server asks. It never renames
 * anything and never writes the journal itself: the server does the switch.
 *
 * A process rather than a worker thread: a thread shares the server's V8 platform (the threads
 * that do garbage collection concurrently), and replaying a large journal's tail collects a
 * lot; on a loaded 2-core machine the server's own major GC then found no helper free and
 * marked alone, holding its thread for 12.6 s (bench:compaction; 2 s with a process). Every
 * thread of this process runs at nice 19, so it gets the CPU the server leaves idle. It exits
 * when the server is gone.
 */
import fs from 'node:fs';
import os from 'node:os';
import { Engine } from './engine';
import {
  copyRange,
  writeSnapshotFile,
  type JournalOp,
  type SnapshotFile,
  type StorageFaults,
} from './journal';

export interface CompactionTask {
  /** The journal file. */
  file: string;
  /** The temporary file (open for writing as this process's descriptor TMP_FD). */
  tmp: string;
  /** Snapshot the journal's first `upTo` bytes. */
  upTo: number;
  faults?: Pick<StorageFaults, 'failCompaction' | 'pauseCompaction'>;
}

/** The temporary file's descriptor in this process, and the pipe a pause reads a byte from. */
export const TMP_FD = 4;
export const RESUME_FD = 5;

/** Messages from the server: copy the journal's bytes up to `copyTo` after the snapshot. */
export interface ToCompaction {
  copyTo: number;
}

/** Messages to the server. */
export type FromCompaction =
  | { kind: 'paused' }
  | { kind: 'written'; snapshot: SnapshotFile }
  | { kind: 'copied'; to: number }
  | { kind: 'failed'; message: string };

const parent = process.ppid;
const post = (m: FromCompaction) => process.send?.(m);

/** Every thread of this process (V8's included) at nice 19; best effort. */
function yieldToTheServer(): void {
  let tids: string[] = [];
  try {
    tids = fs.readdirSync('/proc/self/task');
  } catch {
    // Not Linux: the process's main thread only.
  }
  for (const tid of tids.length ? tids : ['0']) {
    try {
      os.setPriority(Number(tid), 19);
    } catch {
      // Not permitted, or the thread is gone.
    }
  }
}

/** The snapshot's records; stops the process once the server is gone (it would never switch). */
function* whileTheServerLives(ops: Iterable<JournalOp>): Generator<JournalOp> {
  for (const op of ops) {
    if (process.ppid !== parent) process.exit(1);
    yield op;
  }
}

function run(task: CompactionTask): void {
  yieldToTheServer();
  const pause = () => {
    post({ kind: 'paused' });
    // Until the server writes a byte into the pipe (or goes: end of file).
    fs.readSync(RESUME_FD, Buffer.alloc(1));
  };
  const image = Buffer.allocUnsafeSlow(task.upTo);
  const fd = fs.openSync(task.file, 'r');
  try {
    let off = 0;
    while (off < task.upTo) {
      const n = fs.readSync(fd, image, off, task.upTo - off, off);
      if (n === 0) throw new Error(`${task.file} ends at ${off}, before ${task.upTo}`);
      off += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  const engine = Engine.fromImage(image, task.file);
  const ops = whileTheServerLives(engine.snapshotOps());
  const snapshot = writeSnapshotFile(TMP_FD, task.tmp, ops, task.faults, pause);
  post({ kind: 'written', snapshot });
  let copied = task.upTo;
  process.on('message', (m: ToCompaction) => {
    try {
      const src = fs.openSync(task.file, 'r');
      try {
        copyRange(src, copied, m.copyTo, TMP_FD, snapshot.bytes + (copied - task.upTo));
      } finally {
        fs.closeSync(src);
      }
      fs.fdatasyncSync(TMP_FD);
      copied = m.copyTo;
      post({ kind: 'copied', to: copied });
    } catch (e) {
      post({ kind: 'failed', message: (e as Error).message });
    }
  });
}

process.once('message', (task: CompactionTask) => {
  try {
    run(task);
  } catch (e) {
    post({ kind: 'failed', message: (e as Error).message });
    process.disconnect?.();
  }
});
// The server gone (stopped, killed), there is nothing more to do.
process.once('disconnect', () => process.exit(0));
