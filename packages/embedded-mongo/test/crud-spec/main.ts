/**
 * Runs the CRUD conformance tests outside jest (for development):
 *   npx tsx test/crud-spec/main.ts [file-name-filter] [--verbose]
 */
import { start } from '../../src';
import { formatSummary, runSpecs } from './runner';
import { specDir } from './location';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose');
  const only = args.find((a) => !a.startsWith('--'));
  const server = await start({ port: 0, enableTestCommands: true });
  try {
    const summary = await runSpecs(specDir(), { uri: server.uri, only });
    if (verbose)
      for (const r of summary.results)
        if (r.status === 'skipped')
          console.log(`skipped ${r.file}: ${r.description} -- ${r.reason}`);
    console.log(formatSummary(summary));
  } finally {
    await server.stop();
  }
}

void main();
