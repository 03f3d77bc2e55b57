// `npm run migrate [-- --check]` (or, compiled, `node dist/migrations/cli.js`): brings the database
// up to this version as the API's start does (run.ts), under the same lock, so it may run while
// API processes start or serve. `--check` only prints what a run would do.
//
// Exit codes: 0 the database is up to date (after the run, or already, for --check); 1 a
// migration failed, the database could not be reached or the settings are refused; 2 a wrong
// argument; 3 (--check only) migrations or index changes are pending.
import { parseArgs } from 'node:util';
import { loadConfig } from '../platform/config';
import { openDatabase } from '../platform/db';
import { createLogger } from '../platform/logger';
import { isProduction } from '../platform/production';
import { createModels } from '../models';
import { API_VERSION } from '../version';
import { migrateDatabase, planDatabase } from './run';

const USAGE =
  'Usage: npm run migrate [-- --check]\n' +
  '  Applies the pending migrations and syncs the declared indexes (MONGODB_URI, as the API).\n' +
  '  --check  prints what would be done and changes nothing (exit 3 when something is pending)';

/** The exit code of a wrong argument (a usage error, as getopt's commands answer). */
const EXIT_USAGE = 2;
/** `--check` found migrations or index changes pending. */
const EXIT_PENDING = 3;

class UsageError extends Error {}

function readArgs(argv: string[]): { check: boolean } {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { check: { type: 'boolean', default: false }, help: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) throw new UsageError('');
    return { check: values.check };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

async function run(): Promise<number> {
  const { check } = readArgs(process.argv.slice(2));
  const config = loadConfig();
  if (isProduction(config) && !config.mongodbUri && !config.embeddedDatabase) {
    throw new Error(
      'MONGODB_URI must be set in production (the database the API uses); ' +
        'EMBEDDED_DATABASE=1 migrates the embedded database under DATA_DIR instead',
    );
  }
  // The log on stderr; stdout gets the summary.
  const logger = createLogger(config.logLevel, process.stderr);
  const database = await openDatabase({
    ...config,
    logger,
    models: createModels,
    buildIndexes: false,
  });
  try {
    if (check) {
      const plan = await planDatabase(database);
      const lines = [
        `Campus ${API_VERSION}: ${plan.pending.length} pending migration(s)${plan.pending.length ? `: ${plan.pending.join(', ')}` : ''}`,
        `Declared indexes: ${plan.indexes === 'current' ? 'in sync' : plan.indexes === 'newer' ? 'synced by a newer version (left alone)' : 'to sync'}`,
        ...(plan.indexChanges?.dropped.map((index) => `  would drop ${index}`) ?? []),
        ...(plan.indexChanges?.created.map((index) => `  would build ${index}`) ?? []),
        ...(plan.unknown.length
          ? [`Applied by a newer version, unknown to this one: ${plan.unknown.join(', ')}`]
          : []),
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      return plan.pending.length > 0 || plan.indexes === 'changed' ? EXIT_PENDING : 0;
    }
    const report = await migrateDatabase(database, { logger });
    const lines = [
      report.applied.length
        ? `Applied: ${report.applied.join(', ')}`
        : 'No migration to apply' + (report.waited ? ' (another process applied them)' : ''),
      report.indexes
        ? `Declared indexes synced: ${report.indexes.dropped.length} dropped${report.indexes.dropped.map((index) => `\n  dropped ${index}`).join('')}, ${report.indexes.created.length} built`
        : 'Declared indexes: in sync',
      `The database is up to date for Campus ${API_VERSION}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

run().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message ? `${err.message}\n` : ''}${USAGE}\n`);
      process.exit(err.message ? EXIT_USAGE : 0);
    }
    process.stderr.write(
      `Migration failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
