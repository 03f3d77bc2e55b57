/**
 * A server in its own process for the background-compaction crash tests, started as the CLI
 * starts one but steerable by its parent over IPC while a compaction is held by a test fault:
 *   node --require tsx/cjs test/support/compacting-server.ts <dbpath> '<faults json>'
 * Prints `listening on <uri>`, `compaction paused` at each pause, `compacted` when a background
 * compaction has replaced the journal. Messages: `{ pause: <pauseCompaction or null> }` replaces
 * the fault (read by the journal at the switch), `{ resume: true }` ends the current pause.
 */
import { start } from '../../src';
import type { StorageFaults } from '../../src/journal';

async function main(): Promise<void> {
  const [dbPath, json] = process.argv.slice(2);
  const faults = JSON.parse(json ?? '{}') as StorageFaults;
  faults.onCompactionPaused = () => process.stdout.write('compaction paused\n');
  const server = await start({
    port: 0,
    dbPath,
    faults,
    onWarning: (m) => process.stderr.write(`${m}\n`),
    onCompacted: () => process.stdout.write('compacted\n'),
  });
  process.on(
    'message',
    (m: { pause?: StorageFaults['pauseCompaction'] | null; resume?: boolean }) => {
      if (m.pause !== undefined) faults.pauseCompaction = m.pause ?? undefined;
      if (m.resume) server.engine.resumeCompaction();
    },
  );
  process.stdout.write(`listening on ${server.uri}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
