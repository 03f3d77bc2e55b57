/**
 * The thread of a background compaction (see background-compaction.ts). It reads the journal
 * up to the mark it is given (a record boundary: the database as it was then), replays it into
 * an engine of its own, writes that state as a snapshot into the temporary file the server
 * opened for it, fsyncs it, then copies the journal's later bytes after the snapshot whenever
 * the server asks. It never renames anything and never touches the journal itself: the server
 * does the switch. It runs at nice 19 (see `yieldToTheServer`), on the CPU the server leaves
 * idle.
 */
import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Engine } from './engine';
import { copyRange, writeSnapshotFile, type SnapshotFile, type StorageFaults } from './journal';

export interface CompactionWorkerData {
  /** The journal file. */
  file: string;
  /** The temporary file, open for writing (the server closes it once this thread is gone). */
  tmp: string;
  tmpFd: number;
  /** Snapshot the journal's first `upTo` bytes. */
  upTo: number;
  faults?: Pick<StorageFaults, 'failCompaction' | 'pauseCompaction'>;
  /** Int32 0 becomes 1 to end a pause (Engine.resumeCompaction). */
  resume: SharedArrayBuffer;
}

/** Messages from the server: copy the journal's bytes up to `copyTo` after the snapshot. */
export interface ToWorker {
  copyTo: number;
}

/** Messages to the server. */
export type FromWorker =
  | { kind: 'paused' }
  | { kind: 'written'; snapshot: SnapshotFile }
  | { kind: 'copied'; to: number }
  | { kind: 'failed'; message: string };

const data = workerData as CompactionWorkerData;
const port = parentPort!;
const post = (m: FromWorker) => port.postMessage(m);

/**
 * Lowers this thread's priority to nice 19: on Linux the nice value is per thread, so the
 * server's thread keeps its own and wins the CPU whenever both want it. (SCHED_IDLE, through
 * util-linux's `chrt`, was tried: it starved a compaction on a saturated machine, 40 s of its
 * 75 s of CPU in 15 minutes, and needs a fork of the whole server.) Where it cannot be set,
 * compaction runs at the server's priority.
 */
function yieldToTheServer(): void {
  try {
    os.setPriority(19);
  } catch {
    // Not permitted.
  }
}

function run(): void {
  yieldToTheServer();
  const resume = new Int32Array(data.resume);
  const pause = () => {
    post({ kind: 'paused' });
    Atomics.wait(resume, 0, 0, data.faults?.pauseCompaction?.ms ?? 0);
  };
  const image = Buffer.allocUnsafeSlow(data.upTo);
  const fd = fs.openSync(data.file, 'r');
  try {
    let off = 0;
    while (off < data.upTo) {
      const n = fs.readSync(fd, image, off, data.upTo - off, off);
      if (n === 0) throw new Error(`${data.file} ends at ${off}, before ${data.upTo}`);
      off += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  const engine = Engine.fromImage(image, data.file);
  const snapshot = writeSnapshotFile(
    data.tmpFd,
    data.tmp,
    engine.snapshotOps(),
    data.faults,
    pause,
  );
  post({ kind: 'written', snapshot });
  let copied = data.upTo;
  port.on('message', (m: ToWorker) => {
    try {
      const src = fs.openSync(data.file, 'r');
      try {
        copyRange(src, copied, m.copyTo, data.tmpFd, snapshot.bytes + (copied - data.upTo));
      } finally {
        fs.closeSync(src);
      }
      fs.fdatasyncSync(data.tmpFd);
      copied = m.copyTo;
      post({ kind: 'copied', to: copied });
    } catch (e) {
      post({ kind: 'failed', message: (e as Error).message });
    }
  });
}

try {
  run();
} catch (e) {
  post({ kind: 'failed', message: (e as Error).message });
}
