import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createApp } from './app';
import { trackInFlight } from './platform/in-flight';
import { loadConfig } from './platform/config';
import { openDatabase, startEmbeddedDatabase, type EmbeddedDatabase } from './platform/db';
import { resolveJwtSecret } from './platform/jwt-secret';
import { previousSecretRefusals } from './platform/key-ring';
import { createLogger, type Logger } from './platform/logger';
import { exposition, processMetrics } from './platform/metrics';
import {
  clusterMetricsOfPrimary,
  clusterMetricsOfWorker,
  startMetricsServer,
  type MetricsServer,
} from './platform/metrics-server';
import { migrateDatabase } from './migrations/run';
import { createModels } from './models';
import {
  configRefusals,
  demoAccountRefusal,
  isProduction,
  ProductionRefusal,
} from './platform/production';
import type { Config } from './platform/config';
import { demoLogins, findDemoAccount, printDemoLogins, seedDemoDataOnce } from './seed/seed';

/** How long a shutdown waits for requests in progress before closing their connections. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  // `--demo` asks for demo mode as DEMO_MODE=1 does (npm start and the e2e runs ask for it).
  const demoFlag = process.argv.includes('--demo');
  const config = loadConfig(demoFlag ? { ...process.env, DEMO_MODE: '1' } : process.env);
  const logger = createLogger(config.logLevel);
  const refusals = [...configRefusals(config), ...previousSecretRefusals(config)];
  if (refusals.length > 0) throw new ProductionRefusal(refusals);
  if (cluster.isPrimary && config.apiProcesses > 1) return runProcesses(config, logger);
  return runApi(config, logger);
}

/**
 * API_PROCESSES > 1: this process only starts the database (the embedded one stays one process,
 * started here; MONGODB_URI otherwise) and runs that many API processes on the API port with
 * node's cluster, which hands each new connection to one of them. A process that dies after it
 * started listening is replaced; one that dies while starting stops everything (a configuration
 * error would otherwise restart forever).
 */
async function runProcesses(config: Config, logger: Logger) {
  let embedded: EmbeddedDatabase | undefined;
  let mongodbUri = config.mongodbUri;
  if (!mongodbUri) {
    embedded = await startEmbeddedDatabase(path.join(config.dataDir, 'db'), logger);
    mongodbUri = `${embedded.uri}/campus?replicaSet=rs0`;
  }
  // Every process's metrics, summed here: on METRICS_PORT, and for a process asked on the API port.
  const metricsText = clusterMetricsOfPrimary(logger);
  const metricsServer =
    config.metrics.port === undefined
      ? undefined
      : await startMetricsServer({
          ...config.metrics,
          port: config.metrics.port,
          text: metricsText,
          logger,
        });
  let stopping = false;
  const workers = new Set<Worker>();
  // Each process has a slot (1..n), taken over by its replacement: its name in the outbox's event
  // stream (API_SLOT, config.instanceName), so the replacement resumes where it stopped.
  const fork = (slot: number) => {
    const worker = cluster.fork({ MONGODB_URI: mongodbUri, API_SLOT: String(slot) });
    let listening = false;
    workers.add(worker);
    worker.once('listening', () => {
      listening = true;
    });
    worker.once('exit', (code, signal) => {
      workers.delete(worker);
      if (stopping) return;
      if (!listening) {
        logger.fatal({ code, signal }, 'an API process stopped while starting');
        stop(1);
        return;
      }
      logger.error({ code, signal }, 'an API process stopped: starting another');
      fork(slot);
    });
  };
  const stop = (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    // Each process finishes its requests in progress (runApi's stop) before the database goes.
    const exited = [...workers].map(
      (worker) => new Promise<void>((resolve) => worker.once('exit', () => resolve())),
    );
    for (const worker of workers) worker.process.kill('SIGTERM');
    const forced = setTimeout(() => {
      for (const worker of workers) worker.process.kill('SIGKILL');
    }, SHUTDOWN_GRACE_MS + 5_000);
    void Promise.all(exited)
      .then(() => metricsServer?.close())
      .then(() => embedded?.stop())
      .then(() => {
        clearTimeout(forced);
        process.exit(exitCode);
      });
  };
  logger.info({ processes: config.apiProcesses, port: config.port }, 'starting API processes');
  for (let slot = 1; slot <= config.apiProcesses; slot++) fork(slot);
  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
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

  const server = app.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    logger.info(
      { host: config.host, port, embeddedDatabase: database.embedded, pid: process.pid },
      'api listening',
    );
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Live streams never finish by themselves: end them first, so their connections can close.
    app.streams.close();
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
  if (err instanceof ProductionRefusal) process.stderr.write(`${err.message}\n`);
  else console.error(err);
  process.exit(1);
});
