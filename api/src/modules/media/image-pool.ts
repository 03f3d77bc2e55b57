import path from 'node:path';
import Piscina from 'piscina';
import type { ProcessImageResult, ProcessImageTask } from './process-image';

/**
 * Image processing off the event loop: a pool of worker threads (piscina) that each process one
 * image at a time (image-worker.ts), at most `threads` at once; more uploads wait in its queue.
 * Threads start when images come and stop after a minute idle.
 */
export interface ImagePool {
  process(task: ProcessImageTask): Promise<ProcessImageResult>;
  close(): Promise<void>;
}

/** Run from TypeScript (tsx, Jest) the worker is loaded through tsx; compiled, as it is. */
const WORKER_FILE = path.join(
  __dirname,
  __filename.endsWith('.ts') ? 'image-worker.cjs' : 'image-worker.js',
);

export function createImagePool(threads: number): ImagePool {
  let pool: Piscina<ProcessImageTask, ProcessImageResult> | undefined;
  let closed = false;
  const started = () => {
    if (closed) throw new Error('The image pool is closed');
    pool ??= new Piscina({
      filename: WORKER_FILE,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 60_000,
    });
    return pool;
  };
  return {
    process: (task) => started().run(task),
    async close() {
      closed = true;
      await pool?.destroy();
    },
  };
}
