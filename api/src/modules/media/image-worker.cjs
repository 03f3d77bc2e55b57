// The entry point of an image worker thread when the API runs from its TypeScript sources (tsx,
// Jest): the worker's code is loaded through tsx. The compiled API (dist/) starts
// image-worker.js instead (image-pool.ts).
require('tsx/cjs');
module.exports = require('./image-worker.ts');
