/**
 * A worker process of the image pool (image-pool.ts): processes the images its parent sends, one
 * at a time, and answers each result. It lowers its own priority first, before libvips (sharp) is
 * loaded and starts a thread: every thread started from here on inherits it (hence `require`
 * below, not hoisted imports). libvips is told to use one thread per image and to keep no cache.
 */
import os from 'node:os';
import type Sharp from 'sharp';
import type * as ProcessImage from './process-image';
import type { ProcessImageTask } from './process-image';

/**
 * Ten steps of niceness below the API's own (19 at most): where a core is contended, the kernel
 * gives the API about nine tenths of it.
 */
const LOWER_BY = 10;
os.setPriority(Math.min(19, os.getPriority() + LOWER_BY));

/* eslint-disable @typescript-eslint/no-require-imports */
const sharp = require('sharp') as typeof Sharp;
const { processImage } = require('./process-image') as typeof ProcessImage;
/* eslint-enable @typescript-eslint/no-require-imports */

sharp.concurrency(1);
sharp.cache(false);

process.on('message', (task: ProcessImageTask) => {
  processImage(task).then(
    (result) => process.send!(result),
    (err: unknown) => {
      // Unexpected (a refusal is a result): the pool fails this image and starts another worker.
      console.error(err);
      process.exit(1);
    },
  );
});
// The API went away: so does its worker.
process.on('disconnect', () => process.exit(0));
