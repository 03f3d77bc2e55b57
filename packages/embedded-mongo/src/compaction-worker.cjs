// The entry point of a background compaction's thread: its code is TypeScript, loaded through
// tsx as the CLI is (bin/embedded-mongo.cjs), since a worker thread does not inherit the loader.
require('tsx/cjs');
require('./compaction-worker.ts');
