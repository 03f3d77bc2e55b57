// The entry point of a background compaction's process (see compaction-process.ts): its code
// is TypeScript, loaded through tsx as the CLI is (bin/embedded-mongo.cjs).
require('tsx/cjs');
require('./compaction-process.ts');
