import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { Middleware } from 'koa';
import mongoose from 'mongoose';
import { databaseUnavailable } from './errors';
import type { Logger } from './logger';

// Untrusted objects in query filters (e.g. `{ email: { $gt: '' } }`) are wrapped in $eq.
mongoose.set('sanitizeFilter', true);
mongoose.set('strictQuery', true);
// Inside `connection.transaction(fn)`, every operation joins the transaction without each service
// taking a session parameter (deleting an account spans many modules' services).
mongoose.set('transactionAsyncLocalStorage', true);

/**
 * How long an operation waits for the driver to find a usable server. A request that was already
 * past the reachability check when the database went away waits this long at most and then gets
 * the same 503 as everyone else (the driver's default, 30 s, and our former 15 s let one call
 * hang that long). The server is only looked for when it is unknown (after a failed heartbeat or
 * a network error), never merely because it is busy, so a slow database does not trip it.
 */
export const SERVER_SELECTION_TIMEOUT_MS = 1_000;
/** How long the first connection is retried at start-up (a database still starting). */
const STARTUP_TIMEOUT_MS = 30_000;
/** How long closing waits for the driver to disconnect before going on without it. */
const DISCONNECT_MS = 5_000;

/**
 * The database an app works on: its connection and whether the driver can reach it right now. Created by `connectDatabase` / `openDatabase` and
 * handed to `createApp`; the app never reaches for a process-wide connection.
 *
 * The connection is the Database's own (`mongoose.createConnection`), never mongoose's default
 * one, and `models` are bound to it (the `models` factory passed to `connectDatabase`, e.g.
 * src/models.ts), so several Databases live side by side in one process, each app on its own.
 */
export interface Database<M = unknown> {
  readonly connection: mongoose.Connection;
  /** The models bound to `connection`, their indexes built (unless `buildIndexes: false`). */
  readonly models: M;
  /** Whether the driver knows a server it can write to (from its SDAM events). */
  readonly reachable: boolean;
  /** Answers 503 at once while the database is known to be unreachable. */
  readonly requireReachable: Middleware;
  /**
   * Calls `listener` after each command the driver completes on this connection (its name, how
   * long it took, whether it failed): the metrics' database latency. Returns the unsubscribe.
   */
  observeCommands(listener: CommandListener): () => void;
  /** Disconnects (given up after a few seconds: see `close` below). */
  close(): Promise<void>;
}

/** A command the driver completed: its name (`find`, `insert`...), its time, whether it failed. */
export type CommandListener = (command: { name: string; ms: number; failed: boolean }) => void;

function isReachable(description: mongoose.mongo.TopologyDescription): boolean {
  return [...description.servers.values()].some((server) => server.isWritable);
}

/** Why the driver has no server it can write to, in a few words (its servers' last errors). */
function unreachableCause(description: mongoose.mongo.TopologyDescription): string | undefined {
  const errors = [...description.servers.values()].map((server) => server.error?.message);
  return errors.find((message) => message !== undefined);
}

/**
 * Connects to `uri` and builds every declared index before serving, so uniqueness holds from the
 * first request (mongoose's autoIndex: it builds what is missing and never drops). The API and its
 * scripts pass `buildIndexes: false` and run the migrations instead (src/migrations/run.ts), which
 * also drop the indexes no model declares any more. A first connection that fails is retried for
 * up to `startupTimeoutMs` (a database still starting), since each attempt gives up after the
 * short server selection timeout.
 */
export async function connectDatabase<M = unknown>(
  uri: string,
  options: {
    /** Binds the app's models to the new connection (their indexes are built before returning). */
    models?: (connection: mongoose.Connection) => M;
    /** false: the models' indexes are left to the migrations (default true: built here). */
    buildIndexes?: boolean;
    dbName?: string;
    logger?: Logger;
    startupTimeoutMs?: number;
    driver?: mongoose.ConnectOptions;
  } = {},
): Promise<Database<M>> {
  const connectOptions: mongoose.ConnectOptions = {
    serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS,
    // Command events (observeCommands): the metrics time every command the app sends.
    monitorCommands: true,
    // While the database is down every request is refused before it reaches the driver, so only
    // the monitor's heartbeat can find it back: every 2 s instead of the driver's 10 s.
    heartbeatFrequencyMS: 2_000,
    ...(options.dbName ? { dbName: options.dbName } : {}),
    ...(options.buildIndexes === false ? { autoIndex: false } : {}),
    ...options.driver,
  };
  const deadline = Date.now() + (options.startupTimeoutMs ?? STARTUP_TIMEOUT_MS);
  let connection: mongoose.Connection;
  for (;;) {
    // A connection of this Database's own: the process-wide default one is never used.
    const attempt = mongoose.createConnection(uri, connectOptions);
    try {
      connection = await attempt.asPromise();
      break;
    } catch (err) {
      await attempt.close().catch(() => undefined);
      if (Date.now() >= deadline || !isServerSelectionError(err)) throw err;
      options.logger?.warn({ err }, 'database not reachable yet: retrying');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  const client = connection.getClient();
  let reachable = true;
  let unreachableSince = 0;
  // The driver's own view of the topology: a server it can write to, or none. It turns
  // unreachable on the first failed heartbeat or network error, and reachable again on the next
  // successful heartbeat. (Not mongoose's `readyState`, which also reads "disconnected" whenever
  // heartbeats are merely late, as they are behind a busy database's queue.)
  // An outage is logged twice, one warning when it starts and one when it ends, without a stack:
  // the failed heartbeats in between (every half second while the server is unknown), the
  // requests refused with a 503 and the retries of the event stream and the mail queue are
  // expected then, and logged at debug level only.
  client.on('topologyDescriptionChanged', (event) => {
    const now = isReachable(event.newDescription);
    if (now === reachable) return;
    reachable = now;
    if (!now) {
      unreachableSince = Date.now();
      const cause = unreachableCause(event.newDescription);
      options.logger?.warn(cause ? { cause } : {}, 'database unreachable');
    } else {
      options.logger?.warn({ outageMs: Date.now() - unreachableSince }, 'database reachable again');
    }
  });
  if (options.logger) {
    const { logger } = options;
    client.on('serverHeartbeatFailed', (event) =>
      logger.debug({ cause: event.failure?.message }, 'database heartbeat failed'),
    );
  }
  const commandListeners = new Set<CommandListener>();
  const completed = (failed: boolean) => (event: { commandName: string; duration: number }) => {
    for (const listener of commandListeners)
      listener({ name: event.commandName, ms: event.duration, failed });
  };
  client.on('commandSucceeded', completed(false));
  client.on('commandFailed', completed(true));
  const models = options.models ? options.models(connection) : (undefined as M);
  await Promise.all(Object.values(connection.models).map((model) => model.init()));

  return {
    connection,
    models,
    get reachable() {
      return reachable;
    },
    requireReachable: async (_ctx, next) => {
      if (!reachable) throw databaseUnavailable();
      return next();
    },
    observeCommands(listener) {
      commandListeners.add(listener);
      return () => commandListeners.delete(listener);
    },
    async close() {
      // The MongoDB driver (7.8/7.9) can wait forever on a command written to a connection the
      // database has just dropped (it awaits 'drain' on a destroyed socket), and closing sends
      // endSessions: a database that died just before the shutdown must not hold the API up.
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), DISCONNECT_MS);
      });
      const outcome = await Promise.race([connection.close(), deadline]);
      clearTimeout(timer);
      if (outcome === 'late')
        options.logger?.error(`the database connection did not close within ${DISCONNECT_MS} ms`);
    },
  };
}

function isServerSelectionError(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'MongooseServerSelectionError' || name === 'MongoServerSelectionError';
}

export interface EmbeddedDatabase {
  uri: string;
  stop(): Promise<void>;
}

function embeddedCli(): string {
  const pkg = require.resolve('@campus/embedded-mongo/package.json');
  return path.join(path.dirname(pkg), 'bin', 'embedded-mongo.cjs');
}

/** The node flags the embedded server runs with (its young generation: see that file). */
function embeddedNodeArgs(): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@campus/embedded-mongo/bin/node-args.cjs') as string[];
}

/**
 * Starts the embedded MongoDB-compatible server in its own process (so it never shares the API's
 * event loop) with data under `dbPath`, and resolves once it prints its address.
 */
export function startEmbeddedDatabase(dbPath: string, logger: Logger): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dbPath, { recursive: true });
  const child: ChildProcess = spawn(
    process.execPath,
    [...embeddedNodeArgs(), embeddedCli(), '--port', '0', '--dbpath', dbPath],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const killChild = () => child.kill('SIGTERM');
  process.once('exit', killChild);

  return new Promise((resolve, reject) => {
    let ready = false;
    const timer = setTimeout(() => {
      killChild();
      reject(new Error('The embedded database did not start within 60 s'));
    }, 60_000);

    readline.createInterface({ input: child.stderr! }).on('line', (line) => {
      logger.warn({ source: 'embedded-mongo' }, line);
    });
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /listening on (mongodb:\/\/\S+)/.exec(line);
      if (!ready && match) {
        ready = true;
        clearTimeout(timer);
        logger.info({ uri: match[1], dbPath }, 'embedded database started');
        resolve({
          uri: match[1]!,
          stop: () =>
            new Promise<void>((done) => {
              process.off('exit', killChild);
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              killChild();
            }),
        });
      } else {
        logger.debug({ source: 'embedded-mongo' }, line);
      }
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!ready)
        reject(new Error(`The embedded database exited before it was ready (${code ?? signal})`));
      else if (code !== 0 && signal !== 'SIGTERM') {
        logger.fatal({ code, signal }, 'the embedded database stopped unexpectedly');
        process.exit(1);
      }
    });
  });
}

/**
 * Connects to MONGODB_URI, or (unset) to an embedded server started in its own process with data
 * under `<dataDir>/db`. `close()` disconnects and stops the embedded server.
 */
export async function openDatabase<M>(options: {
  mongodbUri: string | undefined;
  dataDir: string;
  logger: Logger;
  models: (connection: mongoose.Connection) => M;
  /** false: the indexes are left to the migrations (connectDatabase). */
  buildIndexes?: boolean;
}): Promise<Database<M> & { embedded: boolean }> {
  const embedded = options.mongodbUri
    ? undefined
    : await startEmbeddedDatabase(path.join(options.dataDir, 'db'), options.logger);
  const uri = options.mongodbUri ?? `${embedded!.uri}/campus?replicaSet=rs0`;
  let database: Database<M>;
  try {
    database = await connectDatabase(uri, {
      logger: options.logger,
      models: options.models,
      buildIndexes: options.buildIndexes,
    });
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  return {
    embedded: embedded !== undefined,
    connection: database.connection,
    models: database.models,
    get reachable() {
      return database.reachable;
    },
    requireReachable: database.requireReachable,
    observeCommands: (listener) => database.observeCommands(listener),
    async close() {
      await database.close();
      await embedded?.stop();
    },
  };
}
