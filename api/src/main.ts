import path from 'node:path';
import { createApp } from './app';
import { trackInFlight } from './platform/in-flight';
import { loadConfig } from './platform/config';
import { openDatabase } from './platform/db';
import { resolveJwtSecret } from './platform/jwt-secret';
import { createLogger } from './platform/logger';
import { createModels } from './models';
import { createMailer } from './platform/mailer';
import {
  configRefusals,
  demoAccountRefusal,
  isProduction,
  ProductionRefusal,
} from './platform/production';
import { createUploadStorage } from './platform/storage';
import {
  demoLogins,
  findDemoAccount,
  isDatabaseEmpty,
  printDemoLogins,
  seedDemoData,
} from './seed/seed';

/** How long a shutdown waits for requests in progress before closing their connections. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  // `--demo` asks for demo mode as DEMO_MODE=1 does (npm start and the e2e runs ask for it).
  const demoFlag = process.argv.includes('--demo');
  const config = loadConfig(demoFlag ? { ...process.env, DEMO_MODE: '1' } : process.env);
  const logger = createLogger(config.logLevel);
  const refusals = configRefusals(config);
  if (refusals.length > 0) throw new ProductionRefusal(refusals);
  const storage = createUploadStorage(path.join(config.dataDir, 'uploads'), config.publicUrl);
  const database = await openDatabase({ ...config, logger, models: createModels });
  if (isProduction(config)) {
    const demoRefusals = demoAccountRefusal(config, await findDemoAccount(database));
    if (demoRefusals.length > 0) {
      await database.close();
      throw new ProductionRefusal(demoRefusals);
    }
  }

  const inFlight = trackInFlight();
  const app = createApp({
    inFlight,
    config,
    logger,
    storage,
    mailer: createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      logger,
    }),
    jwtSecret: await resolveJwtSecret(config.jwtSecret, database.connection, config.dataDir),
    database,
  });
  // Only demo mode seeds, and only an empty database; the data goes through the app's services.
  if (config.demoMode && (await isDatabaseEmpty(app))) {
    logger.info('empty database: seeding demo data');
    await seedDemoData(app, { ...config, storage, logger });
  }
  printDemoLogins(await demoLogins(app, config.adminUserId));

  const server = app.listen(config.port, () => {
    logger.info({ port: config.port, embeddedDatabase: database.embedded }, 'api listening');
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Let requests in progress finish their writes (a comment and its post's count move in two
    // steps) before the database goes, even those whose client has hung up; connections that
    // are merely idle close at once.
    const drained = new Promise<void>((resolve) => {
      const closed = new Promise<void>((done) => server.close(() => done()));
      void Promise.all([closed, inFlight.idle()]).then(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => {
        server.closeAllConnections();
        resolve();
      }, SHUTDOWN_GRACE_MS).unref();
    });
    drained
      .then(() => {
        app.close();
        return database.close();
      })
      .then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'error while shutting down');
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  // A refusal is one line per reason for whoever deploys; anything else keeps its stack.
  if (err instanceof ProductionRefusal) process.stderr.write(`${err.message}\n`);
  else console.error(err);
  process.exit(1);
});
