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
 * marked alone, holding its thread for 12.6 s (bench:compaction; 2 s with a process).
 *
 * It takes at most CPU_SHARE of one core (see `Pacer`), and every thread of it runs at nice 19:
 * a server at nice 0 wins the CPU whenever both want it, and one already at nice 19 (as every
 * process of the machine the benchmarks ran on) still finds most of it free. It exits when the
 * server is gone.
 */
import fs from 'node:fs';
import os from 'node:os';
import { Engine } from './engine';
import {
  copyRange,
  sleepBlocking,
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

/**
 * The share of one core this process uses at most (its CPU time, all its threads, against the
 * time elapsed). On the benchmark's 2 cores, unpaced it took one whole core from the server and
 * its client, and the reads' p99 went from 34 to 190 ms; a compaction that needs 4 s of CPU
 * then takes at least 16 s.
 */
const CPU_SHARE = 0.25;

/**
 * Sleeps, when told of progress, as long as it takes for the CPU used since the last sleep to
 * be CPU_SHARE of the time elapsed; looks at the clock every `every` calls.
 */
class Pacer {
  private wall = performance.now();
  private cpu = cpuMs();
  private calls = 0;

  constructor(private readonly every: number) {}

  tick(): void {
    if (++this.calls % this.every !== 0) return;
    const used = cpuMs() - this.cpu;
    const owed = used / CPU_SHARE - (performance.now() - this.wall);
    if (owed < 10 && used < 50) return;
    if (owed > 0) sleepBlocking(owed);
    this.wall = performance.now();
    this.cpu = cpuMs();
  }
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

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

/**
 * The snapshot's records, paced; stops the process once the server is gone (it would never
 * switch).
 */
function* paced(ops: Iterable<JournalOp>, pacer: Pacer): Generator<JournalOp> {
  for (const op of ops) {
    if (process.ppid !== parent) process.exit(1);
    pacer.tick();
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
  const reading = new Pacer(1);
  try {
    let off = 0;
    while (off < task.upTo) {
      const n = fs.readSync(fd, image, off, Math.min(task.upTo - off, 16 * 1024 * 1024), off);
      if (n === 0) throw new Error(`${task.file} ends at ${off}, before ${task.upTo}`);
      off += n;
      reading.tick();
    }
  } finally {
    fs.closeSync(fd);
  }
  const replay = new Pacer(256);
  const engine = Engine.fromImage(image, task.file, () => replay.tick());
  const ops = paced(engine.snapshotOps(), new Pacer(1));
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
