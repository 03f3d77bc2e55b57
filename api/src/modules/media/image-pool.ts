import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ImageProcessingCounts } from '../../platform/metrics';
import type { ProcessImageResult, ProcessImageTask } from './process-image';

/**
 * Image processing off the API's event loop and below its priority: a pool of at most `size`
 * worker processes (image-worker.ts), each processing one image at a time; more images wait in
 * the pool's queue. Processes, not threads: a worker lowers its own scheduling priority before
 * libvips starts a thread, and every thread it starts inherits it, so on a busy machine the
 * kernel runs the API's requests (and the database) first and the images with what is left
 * (bench:media measures it). Threads of the API's own process could not be: libvips does its
 * work on the process's libuv thread pool, shared with the requests' file and crypto work.
 *
 * A worker starts with the first image and stops after `IDLE_MS` without one; an idle worker
 * keeps no process alive. A worker that dies fails the image it had (a 500) and is replaced by
 * the next image.
 */
export interface ImagePool {
  process(task: ProcessImageTask): Promise<ProcessImageResult>;
  /** What the metrics show: the queue, the workers, the images done and failed, their time. */
  counts(): ImageProcessingCounts;
  /** Stops the workers; images still waiting fail (an image processed later starts one again). */
  close(): Promise<void>;
}

const IDLE_MS = 60_000;

/** Run from TypeScript (tsx, Jest) the worker is loaded through tsx; compiled, as it is. */
const WORKER_FILE = path.join(
  __dirname,
  __filename.endsWith('.ts') ? 'image-worker.cjs' : 'image-worker.js',
);

interface Job {
  task: ProcessImageTask;
  resolve(result: ProcessImageResult): void;
  reject(err: Error): void;
}

interface Worker {
  child: ChildProcess;
  job: Job | undefined;
  /** When its job reached it (`performance.now()`). */
  jobStarted: number;
  idleTimer: NodeJS.Timeout | undefined;
}

export function createImagePool(size: number): ImagePool {
  const workers = new Set<Worker>();
  const queue: Job[] = [];
  const totals = { done: 0, refused: 0, failed: 0, seconds: 0 };
  const finished = (worker: Worker, outcome: 'done' | 'refused' | 'failed') => {
    totals[outcome] += 1;
    totals.seconds += (performance.now() - worker.jobStarted) / 1000;
  };

  const setIdle = (worker: Worker) => {
    worker.job = undefined;
    worker.child.unref();
    worker.child.channel?.unref();
    worker.idleTimer = setTimeout(() => worker.child.kill(), IDLE_MS).unref();
  };

  const start = (): Worker => {
    const child = fork(WORKER_FILE, [], {
      // Buffers go through the channel as they are (JSON would spell them out byte by byte).
      serialization: 'advanced',
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const worker: Worker = { child, job: undefined, jobStarted: 0, idleTimer: undefined };
    workers.add(worker);
    child.on('message', (result: ProcessImageResult) => {
      const job = worker.job;
      if (job) finished(worker, result.ok ? 'done' : 'refused');
      setIdle(worker);
      job?.resolve(result);
      dispatch();
    });
    const gone = (reason: string) => {
      if (!workers.delete(worker)) return;
      clearTimeout(worker.idleTimer);
      if (worker.job) finished(worker, 'failed');
      worker.job?.reject(new Error(`The image worker ${reason}`));
      worker.job = undefined;
      dispatch();
    };
    child.on('exit', (code, signal) => gone(`exited (${signal ?? code})`));
    child.on('error', (err) => gone(`failed: ${err.message}`));
    return worker;
  };

  function dispatch() {
    while (queue.length > 0) {
      const worker =
        [...workers].find((w) => w.job === undefined && w.child.connected) ??
        (workers.size < size ? start() : undefined);
      if (!worker) return;
      const job = queue.shift()!;
      clearTimeout(worker.idleTimer);
      worker.job = job;
      worker.jobStarted = performance.now();
      worker.child.ref();
      worker.child.channel?.ref();
      worker.child.send(job.task);
    }
  }

  return {
    process: (task) =>
      new Promise<ProcessImageResult>((resolve, reject) => {
        queue.push({ task, resolve, reject });
        dispatch();
      }),
    counts: () => {
      const busy = [...workers].filter((w) => w.job !== undefined).length;
      return { waiting: queue.length, workers: workers.size, busy, ...totals };
    },
    async close() {
      for (const job of queue.splice(0)) job.reject(new Error('The image pool was closed'));
      const exits = [...workers].map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.child.exitCode !== null || worker.child.signalCode !== null) resolve();
            else worker.child.once('exit', () => resolve());
            worker.child.kill();
          }),
      );
      await Promise.all(exits);
    },
  };
}
