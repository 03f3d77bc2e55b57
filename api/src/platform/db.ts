import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import mongoose from 'mongoose';
import type { Logger } from './logger';

// Untrusted objects in query filters (e.g. `{ email: { $gt: '' } }`) are wrapped in $eq.
mongoose.set('sanitizeFilter', true);
mongoose.set('strictQuery', true);

export async function connectDatabase(uri: string, dbName?: string) {
  await mongoose.connect(uri, { serverSelectionTimeoutMS: 15_000, ...(dbName ? { dbName } : {}) });
  // Build every declared index before serving, so uniqueness holds from the first request.
  await Promise.all(Object.values(mongoose.models).map((model) => model.init()));
  return mongoose.connection;
}

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
  return {
    embedded: embedded !== undefined,
    async close() {
      await disconnectDatabase();
      await embedded?.stop();
    },
  };
}
