import cluster from 'node:cluster';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { createApp } from './app';
import { trackInFlight } from './platform/in-flight';
import { loadConfig } from './platform/config';
import { openDatabase } from './platform/db';
import { EnvFileError, withEnvFile } from './platform/env-file';
import { resolveJwtSecret } from './platform/jwt-secret';
import { previousSecretRefusals } from './platform/key-ring';
import { createLogger, type Logger } from './platform/logger';
import { exposition, processMetrics } from './platform/metrics';
import {
  clusterMetricsOfWorker,
  startMetricsServer,
  type MetricsServer,
} from './platform/metrics-server';
import { checkMigrations, migrateDatabase } from './migrations/run';
import { createModels } from './models';
import {
  configRefusals,
  demoAccountRefusal,
  isProduction,
  ProductionRefusal,
} from './platform/production';
import type { Config } from './platform/config';
import {
  announceReady,
  runProcesses,
  SHUTDOWN_GRACE_MS,
  type Settings,
} from './platform/processes';
import { demoLogins, findDemoAccount, printDemoLogins, seedDemoDataOnce } from './seed/seed';

async function main() {
  // `--demo` asks for demo mode as DEMO_MODE=1 does (npm start and the e2e runs ask for it).
  const demoFlag = process.argv.includes('--demo');
  const startEnv = { ...process.env };
  // The settings as they are now: the environment with API_ENV_FILE's variables on top, read
  // again by a reload (SIGHUP, API_PROCESSES > 1). An API process the main process started has
  // them in its environment already, and never reads the file itself: a process replaced after
  // a crash runs with what the last reload accepted, not with an edit nobody reloaded yet.
  const readSettings = (): Settings => {
    const env = cluster.isWorker ? startEnv : withEnvFile(startEnv);
    const config = loadConfig(demoFlag ? { ...env, DEMO_MODE: '1' } : env);
    const refusals = [...configRefusals(config), ...previousSecretRefusals(config)];
    if (refusals.length > 0) throw new ProductionRefusal(refusals);
    return { env, config };
  };
  const settings = readSettings();
  const logger = createLogger(settings.config.logLevel);
  if (cluster.isPrimary && settings.config.apiProcesses > 1) {
    return runProcesses(settings, readSettings, logger);
  }
  if (cluster.isWorker) {
    // A hangup of the terminal reaches every process of its group: only the main process reloads.
    process.on('SIGHUP', () => logger.debug('SIGHUP: the main process replaces this process'));
  } else {
    // Alone (API_PROCESSES=1), nothing would serve the port while this process restarts: a
    // reload would be an outage, so SIGHUP (which would otherwise end the process) changes nothing.
    process.on('SIGHUP', () =>
      logger.warn(
        'SIGHUP ignored: a rolling restart needs API_PROCESSES=2 or more; with one process, ' +
          'restart it to apply changed settings',
      ),
    );
  }
  return runApi(settings.config, logger);
}

/** One API process: its own connection, app and caches (the only process, or one of several). */
async function runApi(config: Config, logger: Logger) {
  // One of several: the primary sums every process's metrics (answered as soon as this starts).
  const clustered = cluster.isWorker ? clusterMetricsOfWorker() : undefined;
  // The indexes are the migrations' (declared ones built, undeclared ones dropped), run before
  // anything reads or writes, once however many processes start together.
  const database = await openDatabase({
    ...config,
    logger,
    models: createModels,
    buildIndexes: false,
  });
  await migrateDatabase(database, { logger }).catch(async (err: unknown) => {
    await database.close();
    throw err;
  });
  if (isProduction(config)) {
    const demoRefusals = demoAccountRefusal(config, await findDemoAccount(database));
    if (demoRefusals.length > 0) {
      await database.close();
      throw new ProductionRefusal(demoRefusals);
    }
  }

  const inFlight = trackInFlight();
  // The process's own figures (memory, event-loop lag), beside the app's.
  const processRegistry = processMetrics();
  const ownMetrics = () => exposition([app.metrics.registry, processRegistry]);
  const app = createApp({
    inFlight,
    config,
    logger,
    jwtSecret: await resolveJwtSecret(config.jwtSecret, database.connection, config.dataDir),
    database,
    metricsText: clustered ? clustered.text : ownMetrics,
  });
  // The migrations ran before this process listens; readiness keeps asking, so a database
  // replaced or restored underneath a running process (one whose migrations are not all recorded)
  // takes it out of rotation. Only pending migrations count: an older version beside a newer one
  // (a rolling upgrade or rollback) leaves the indexes to the newer one and stays ready.
  app.appContext.readiness.add('migrations', async () => {
    const { pending } = await checkMigrations(database);
    return pending.length === 0 || { ready: false, reason: `${pending.length} pending` };
  });
  clustered?.serve([app.metrics.registry, processRegistry]);
  let metricsServer: MetricsServer | undefined;
  if (!clustered && config.metrics.port !== undefined) {
    metricsServer = await startMetricsServer({
      ...config.metrics,
      port: config.metrics.port,
      text: ownMetrics,
      logger,
    });
  }
  // Avatars an older version kept on disk move into the database (GridFS) under the same names.
  const imported = await app.appContext.storage.importFrom(path.join(config.dataDir, 'uploads'));
  if (imported > 0) logger.info({ imported }, 'uploads copied from DATA_DIR into the database');
  // Only demo mode seeds, and only an empty database, once however many processes start together;
  // the data goes through the app's services.
  const seeded =
    config.demoMode &&
    (await seedDemoDataOnce(app.appContext, {
      ...config,
      storage: app.appContext.storage,
      logger,
    }));
  if (seeded || !cluster.isWorker || cluster.worker?.id === 1) {
    printDemoLogins(await demoLogins(app.appContext, config.adminUserId));
  }

  let stopping = false;
  const server = app.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    logger.info(
      { host: config.host, port, embeddedDatabase: database.embedded, pid: process.pid },
      'api listening',
    );
    // Ready once it follows the outbox too (every later commit of any process reaches it): then
    // a rolling restart may stop the process this one replaces (platform/processes.ts).
    void (async () => {
      while (!stopping) {
        try {
          await app.ready();
          if (!stopping) announceReady();
          return;
        } catch {
          // The event stream retries by itself and logs why; ask again in a second.
          await new Promise((resolve) => setTimeout(resolve, 1_000).unref());
        }
      }
    })();
  });

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // From now on every response closes its connection: a client's next request opens another,
    // which the other processes take (API_PROCESSES > 1) while this one finishes.
    inFlight.drain();
    // Live streams never finish by themselves: end them first, so their connections can close.
    app.streams.close();
    // Let requests in progress finish their writes (a comment and its post's count move in two
    // steps) before the database goes, even those whose client has hung up. No new connection
    // is taken; one kept alive stays open until its next response, which closes it, or until it
    // has been idle for the keep-alive timeout, as always: closing idle ones at once (what
    // http.Server's own close() does) resets any whose client is sending its next request at
    // that moment, and that request fails.
    const drained = new Promise<void>((resolve) => {
      const closed = new Promise<void>((done) =>
        net.Server.prototype.close.call(server, () => done()),
      );
      // Then the requests of connections that closed meanwhile (a client that hung up).
      void closed.then(() => inFlight.idle()).then(() => resolve());
      setTimeout(() => {
        server.closeAllConnections();
        resolve();
      }, SHUTDOWN_GRACE_MS).unref();
    });
    drained
      .then(() => metricsServer?.close())
      .then(() => app.close())
      .then(() => database.close())
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
  if (cluster.isWorker) {
    // One of several processes: the primary went away (it never leaves its processes behind).
    process.once('disconnect', () => stop('disconnect'));
    // Telling a primary that is gone (stopped by the same Ctrl-C) that the server closed fails.
    cluster.worker?.on('error', (err: unknown) => logger.debug({ err }, 'primary unreachable'));
  }
}

main().catch((err: unknown) => {
  // A refusal is one line per reason for whoever deploys; anything else keeps its stack.
  if (err instanceof ProductionRefusal || err instanceof EnvFileError) {
    process.stderr.write(`${err.message}\n`);
  } else console.error(err);
  process.exit(1);
});
