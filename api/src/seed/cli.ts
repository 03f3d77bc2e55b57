// `npm run seed -w api [-- --reset]`: seeds the demo data into an empty database. With --reset it
// first deletes users, follows, notifications, feedback, applications, settings and counters.
import { loadConfig } from '../platform/config';
import { openDatabase } from '../platform/db';
import { createLogger } from '../platform/logger';
import { isProduction } from '../platform/production';
import { createUploadStorage } from '../platform/storage';
import { migrateDatabase } from '../migrations/run';
import { createModels } from '../models';
import { createScriptContext } from '../app-context';
import { demoLogins, printDemoLogins, resetDemoCollections, seedDemoDataOnce } from './seed';

async function run() {
  // The demo data (accounts whose password is public) only ever goes where demo mode is asked for.
  const config = loadConfig(
    process.argv.includes('--demo') ? { ...process.env, DEMO_MODE: '1' } : process.env,
  );
  if (!config.demoMode) {
    throw new Error('The demo data is seeded only in demo mode: DEMO_MODE=1 or --demo');
  }
  if (isProduction(config)) {
    throw new Error('The demo data is never seeded in production: NODE_ENV must not be production');
  }
  const logger = createLogger(config.logLevel);
  const database = await openDatabase({
    ...config,
    logger,
    models: createModels,
    buildIndexes: false,
  });
  // As the API's start does (and waiting for it, when it starts at the same time).
  await migrateDatabase(database, { logger }).catch(async (err: unknown) => {
    await database.close();
    throw err;
  });
  const target = createScriptContext(database.models, config, logger);
  try {
    if (process.argv.includes('--reset')) await resetDemoCollections(target);
    const seeded = await seedDemoDataOnce(target, {
      ...config,
      storage: createUploadStorage(database.connection, config.publicUrl),
      logger,
    });
    if (!seeded) {
      logger.warn('the database already has users: nothing seeded (use --reset to start over)');
    }
    printDemoLogins(await demoLogins(target, config.adminUserId));
  } finally {
    await database.close();
  }
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
