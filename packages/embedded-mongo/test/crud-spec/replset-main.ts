/**
 * Runs the replica-set conformance tests outside jest (for development):
 *   npx tsx test/crud-spec/replset-main.ts [area] [file-name-filter] [--verbose]
 */
import { start } from '../../src';
import { formatSummary, runSpecs } from './runner';
import { REPLSET_AREAS, replsetSpecDir } from './location';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose');
  const [area, only] = args.filter((a) => !a.startsWith('--'));
  const server = await start({ port: 0, enableTestCommands: true });
  try {
    for (const name of REPLSET_AREAS) {
      if (area && area !== name) continue;
      const summary = await runSpecs(replsetSpecDir(name), {
        uri: server.uri,
        only,
        topology: 'replicaset',
      });
      if (verbose)
        for (const r of summary.results)
          if (r.status === 'skipped')
            console.log(`skipped ${r.file}: ${r.description} -- ${r.reason}`);
      console.log(`${name}: ${formatSummary(summary)}`);
    }
  } finally {
    await server.stop();
  }
}

void main();
