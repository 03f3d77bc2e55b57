// The entry point of an image worker process when the API runs from its TypeScript sources (tsx,
// Jest): the worker's code is loaded through tsx. The compiled API (dist/) forks
// image-worker.js instead (image-pool.ts).
require('tsx/cjs');
require('./image-worker.ts');
