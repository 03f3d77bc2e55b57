/**
 * API_PROCESSES > 1: the main process runs no app. It starts the database (the embedded one stays
 * one process, started here; MONGODB_URI otherwise) and runs that many API processes on the API
 * port with node's cluster: this process holds the listening socket, and the API processes accept
 * its connections (see SCHED_NONE below). Since the socket stays open in this process whatever
 * happens to the others, the port is served as long as it runs:
 *
 * - An API process that dies after it started (a crash, `kill -9`) is replaced at once; the
 *   connections it held are lost, the others serve every new one meanwhile. One that dies while
 *   the processes first start stops everything (a configuration error would otherwise restart
 *   forever; the service manager's restart policy decides what then).
 * - SIGHUP is a rolling restart: the settings are read again (the environment this process
 *   started with and API_ENV_FILE, platform/env-file.ts) and checked as at start; refused, every
 *   process keeps running as it was. Accepted, each process in turn gets a replacement, and only
 *   once the replacement is ready (listening, start-up done: its `ready` message, see
 *   `announceReady`) is the old one told to stop, which stops taking connections, finishes the
 *   requests it has and exits (main.ts's stop). A replacement that does not become ready (it
 *   exits or takes longer than READY_TIMEOUT_MS) ends the reload there: it is stopped, and that
 *   process and the ones after it keep running with what they had (the log says so).
 *   A SIGHUP during a reload runs another reload after it.
 * - SIGTERM or SIGINT: every process finishes its requests in progress, then the database stops.
 *
 * Changing PORT or API_PROCESSES needs a restart, not a reload (the port is this process's).
 */
import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import type { Config } from './config';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './db';
import type { Logger } from './logger';
import { clusterMetricsOfPrimary, startMetricsServer } from './metrics-server';

/** How long a stopping API process waits for requests in progress before closing their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** How long a reload waits for a replacement to be ready before giving up the reload. */
const READY_TIMEOUT_MS = 120_000;
/** The message an API process sends the main process once it listens and its start-up is done. */
const READY_MESSAGE = 'campus:api-ready';

/**
 * Tells the main process (API_PROCESSES > 1) that this API process listens and has started
 * completely, so a reload may stop the process it replaces. Nothing when it runs alone.
 */
export function announceReady(): void {
  if (cluster.isWorker) process.send?.({ type: READY_MESSAGE });
}

/** The settings as they are now: the environment to run the processes with and its config. */
export interface Settings {
  env: NodeJS.ProcessEnv;
  config: Config;
}

interface ApiProcess {
  worker: Worker;
  slot: number;
  ready: boolean;
  /** Told to stop by a reload or a shutdown: its exit is expected. */
  retired: boolean;
  /** Resolves true once it is ready, false if it exits first. */
  started: Promise<boolean>;
  exited: Promise<void>;
}

/** Makes this process's environment exactly `env`: what cluster.fork gives every new process. */
function useEnvironment(env: NodeJS.ProcessEnv): void {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
}

/**
 * Runs the API processes. `settings` are the ones the main process started with; `readSettings`
 * reads them again (throwing, with a message for the operator, when they are refused).
 */
export async function runProcesses(
  settings: Settings,
  readSettings: () => Settings,
  logger: Logger,
): Promise<void> {
  const { config } = settings;
  let embedded: EmbeddedDatabase | undefined;
  let mongodbUri = config.mongodbUri;
  if (!mongodbUri) {
    embedded = await startEmbeddedDatabase(path.join(config.dataDir, 'db'), logger);
    mongodbUri = `${embedded.uri}/campus?replicaSet=rs0`;
  }
  // Every process's metrics, summed here: on METRICS_PORT, and for a process asked on the API
  // port. (METRICS_* keep the values this process started with: a reload does not move them.)
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
  useEnvironment(settings.env);
  // The processes accept connections from the one listening socket themselves, instead of this
  // process accepting each and handing it over (node's round-robin default on Linux): a
  // connection handed to a process at the moment it is killed would stay open here, unanswered,
  // until the client gives up (seen under load: the client waited its full timeout). Accepted by
  // the processes, a connection not yet accepted waits in the socket's queue for a live one, and
  // only what the killed process had accepted is lost (its clients see the connection reset).
  // NODE_CLUSTER_SCHED_POLICY=rr (node's own variable) brings the round robin back, to compare.
  if (!process.env.NODE_CLUSTER_SCHED_POLICY) cluster.schedulingPolicy = cluster.SCHED_NONE;
  let stopping = false;
  const running = new Set<ApiProcess>();
  /** The process serving each slot (1..n). */
  const serving = new Map<number, ApiProcess>();

  // Each process has a slot, taken over by its replacement: its name in the outbox's event
  // stream (API_SLOT, config.instanceName), so the replacement resumes where it stopped.
  const fork = (slot: number): ApiProcess => {
    const worker = cluster.fork({
      // The embedded database started here, unless the settings name one.
      ...(embedded && !process.env.MONGODB_URI ? { MONGODB_URI: mongodbUri } : {}),
      API_SLOT: String(slot),
    });
    const started = new Promise<boolean>((resolve) => {
      worker.on('message', (message: { type?: unknown } | null) => {
        if (message?.type !== READY_MESSAGE) return;
        apiProcess.ready = true;
        resolve(true);
      });
      worker.once('exit', () => resolve(false));
    });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const apiProcess: ApiProcess = { worker, slot, ready: false, retired: false, started, exited };
    running.add(apiProcess);
    worker.once('exit', (code, signal) => {
      running.delete(apiProcess);
      if (stopping || apiProcess.retired) return;
      // A reload's replacement that failed: the reload says so and keeps the process it has.
      if (serving.get(slot) !== apiProcess) return;
      if (!apiProcess.ready) {
        logger.fatal({ code, signal, slot }, 'an API process stopped while starting');
        stop(1);
        return;
      }
      logger.error(
        { code, signal, slot, pid: worker.process.pid },
        'an API process stopped: starting another',
      );
      const replacement = fork(slot);
      serving.set(slot, replacement);
      void replacement.started.then((ready) => {
        if (ready) {
          logger.info(
            { slot, pid: replacement.worker.process.pid, pids: pids() },
            'an API process replaced the one that stopped',
          );
        }
      });
    });
    return apiProcess;
  };

  /** Stops one process after its requests in progress (forced once the grace is over). */
  const retire = async (apiProcess: ApiProcess) => {
    apiProcess.retired = true;
    apiProcess.worker.process.kill('SIGTERM');
    const forced = setTimeout(
      () => apiProcess.worker.process.kill('SIGKILL'),
      SHUTDOWN_GRACE_MS + 5_000,
    );
    await apiProcess.exited;
    clearTimeout(forced);
  };

  const pids = () => [...serving.values()].map((p) => p.worker.process.pid);

  const stop = (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    // Each process finishes its requests in progress (main.ts's stop) before the database goes.
    void Promise.all([...running].map(retire))
      .then(() => metricsServer?.close())
      .then(() => embedded?.stop())
      .then(() => process.exit(exitCode));
  };

  /** Replaces every process, one at a time; false if a replacement was not ready. */
  const replaceAll = async (): Promise<boolean> => {
    for (let slot = 1; slot <= config.apiProcesses; slot++) {
      if (stopping) return false;
      const replacement = fork(slot);
      let timer: NodeJS.Timeout | undefined;
      const ready = await Promise.race([
        replacement.started,
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
      if (stopping) return false;
      if (!ready) {
        if (running.has(replacement)) await retire(replacement);
        logger.error(
          { slot, timeoutMs: READY_TIMEOUT_MS },
          `reload stopped: the replacement of API process ${slot} did not become ready (its output above says why); ` +
            `processes ${slot} to ${config.apiProcesses} keep running with the settings they had`,
        );
        return false;
      }
      const old = serving.get(slot);
      serving.set(slot, replacement);
      if (old) await retire(old);
      logger.info(
        { slot, pid: replacement.worker.process.pid, replaced: old?.worker.process.pid },
        'reload: API process replaced',
      );
    }
    return true;
  };

  const reload = async () => {
    let next: Settings;
    try {
      next = readSettings();
    } catch (err) {
      // Refused settings: one error line per reason, and nothing changes.
      logger.error(
        { err: err instanceof Error ? err.message : String(err) },
        'reload refused: every API process keeps running with the settings it has',
      );
      return;
    }
    for (const name of ['port', 'apiProcesses'] as const) {
      if (next.config[name] !== config[name]) {
        logger.warn(
          { [name]: next.config[name], running: config[name] },
          `reload: ${name === 'port' ? 'PORT' : 'API_PROCESSES'} changes only with a restart; kept`,
        );
      }
    }
    // PORT and API_PROCESSES stay the ones this process started with.
    useEnvironment({
      ...next.env,
      PORT: String(config.port),
      API_PROCESSES: String(config.apiProcesses),
    });
    logger.info({ pids: pids() }, 'reload: replacing the API processes one at a time');
    if (await replaceAll())
      logger.info({ pids: pids() }, 'reload done: every API process replaced');
  };

  let reloading: Promise<void> | undefined;
  let reloadAgain = false;
  const requestReload = () => {
    if (stopping) return;
    if (reloading) {
      reloadAgain = true;
      logger.info('SIGHUP during a reload: another reload follows it');
      return;
    }
    reloading = (async () => {
      // The first processes must have started: a reload replaces running processes.
      await Promise.all([...serving.values()].map((p) => p.started));
      do {
        reloadAgain = false;
        await reload();
      } while (reloadAgain && !stopping);
    })().finally(() => {
      reloading = undefined;
    });
  };

  logger.info({ processes: config.apiProcesses, port: config.port }, 'starting API processes');
  for (let slot = 1; slot <= config.apiProcesses; slot++) serving.set(slot, fork(slot));
  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  process.on('SIGHUP', requestReload);
  const first = await Promise.all([...serving.values()].map((p) => p.started));
  if (first.every(Boolean)) logger.info({ pids: pids() }, 'API processes ready');
}
