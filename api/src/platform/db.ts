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

export async function connectDatabase(
  uri: string,
  dbName?: string,
  options: mongoose.ConnectOptions = {},
) {
  trackReachability();
  await mongoose.connect(uri, {
    serverSelectionTimeoutMS: 15_000,
    // While the database is down every request is refused before it reaches the driver, so only
    // the monitor's heartbeat can find it back: every 2 s instead of the driver's 10 s.
    heartbeatFrequencyMS: 2_000,
    ...(dbName ? { dbName } : {}),
    ...options,
  });
  // Build every declared index before serving, so uniqueness holds from the first request.
  await Promise.all(Object.values(mongoose.models).map((model) => model.init()));
  return mongoose.connection;
}

/**
 * Whether the driver can reach the database, from the connection's events: it is marked
 * unreachable when an operation or a heartbeat fails to reach it, and reachable again on the next
 * successful heartbeat. (Not `readyState`, which also reads "disconnected" whenever heartbeats are
 * merely late, as they are behind a busy database's queue.)
 */
let reachable = false;
let tracking = false;

function trackReachability(): void {
  if (tracking) return;
  tracking = true;
  for (const event of ['connected', 'reconnected'])
    mongoose.connection.on(event, () => (reachable = true));
  mongoose.connection.on('disconnected', () => (reachable = false));
}

/**
 * Answers 503 at once while the database is known to be unreachable, instead of letting requests
 * wait for it; the driver reconnects by itself and requests flow again.
 */
export const requireDatabase: Middleware = async (_ctx, next) => {
  if (!reachable) throw databaseUnavailable();
  return next();
};

export async function disconnectDatabase() {
  await mongoose.disconnect();
}

export interface EmbeddedDatabase {
  uri: string;
  stop(): Promise<void>;
}

function embeddedCli(): string {
  const pkg = require.resolve('@campus/embedded-mongo/package.json');
  return path.join(path.dirname(pkg), 'bin', 'embedded-mongo.cjs');
}

/**
 * Starts the embedded MongoDB-compatible server in its own process (so it never shares the API's
 * event loop) with data under `dbPath`, and resolves once it prints its address.
 */
export function startEmbeddedDatabase(dbPath: string, logger: Logger): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dbPath, { recursive: true });
  const child: ChildProcess = spawn(
    process.execPath,
    [embeddedCli(), '--port', '0', '--dbpath', dbPath],
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

/** How long closing waits for the driver to disconnect before going on without it. */
const DISCONNECT_MS = 5_000;

/**
 * Connects mongoose to MONGODB_URI, or (unset) to an embedded server started in its own process
 * with data under `<dataDir>/db`. `close()` disconnects and stops the embedded server.
 */
export async function openDatabase(options: {
  mongodbUri: string | undefined;
  dataDir: string;
  logger: Logger;
}): Promise<{ embedded: boolean; close(): Promise<void> }> {
  const embedded = options.mongodbUri
    ? undefined
    : await startEmbeddedDatabase(path.join(options.dataDir, 'db'), options.logger);
  const uri = options.mongodbUri ?? `${embedded!.uri}/campus`;
  try {
    await connectDatabase(uri);
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  // Requests get 503s while the driver considers the database unreachable: say when and why.
  const { logger } = options;
  mongoose.connection.on('disconnected', () => logger.warn('database unreachable'));
  mongoose.connection.on('reconnected', () => logger.warn('database reachable again'));
  mongoose.connection
    .getClient()
    .on('serverHeartbeatFailed', (event) =>
      logger.warn({ err: event.failure }, 'database heartbeat failed'),
    );
  return {
    embedded: embedded !== undefined,
    async close() {
      // The MongoDB driver (7.8/7.9) can wait forever on a command written to a connection the
      // database has just dropped (it awaits 'drain' on a destroyed socket), and closing sends
      // endSessions: a database that died just before the shutdown must not hold the API up.
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), DISCONNECT_MS);
      });
      const outcome = await Promise.race([disconnectDatabase(), deadline]);
      clearTimeout(timer);
      if (outcome === 'late')
        logger.error(`the database connection did not close within ${DISCONNECT_MS} ms`);
      await embedded?.stop();
    },
  };
}
