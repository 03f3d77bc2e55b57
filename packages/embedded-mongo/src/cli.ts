/**
 * embedded-mongo --port 27017 --dbpath .data/db [--host 127.0.0.1] [--fsync always|interval|never]
 * Prints `embedded-mongo listening on mongodb://HOST:PORT` once ready; SIGTERM/SIGINT stop it cleanly.
 */
import { parseArgs } from 'node:util';
import { startServer } from './server';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '27017' },
      host: { type: 'string', default: '127.0.0.1' },
      dbpath: { type: 'string' },
      fsync: { type: 'string', default: 'interval' },
    },
  });
  const fsync = values.fsync as 'always' | 'interval' | 'never';
  if (!['always', 'interval', 'never'].includes(fsync))
    throw new Error(`--fsync must be always, interval or never`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`invalid --port ${values.port}`);
  const server = await startServer({ port, host: values.host, dbPath: values.dbpath, fsync });
  process.stdout.write(
    `embedded-mongo listening on ${server.uri}${values.dbpath ? ` (data in ${values.dbpath})` : ' (in memory)'}\n`,
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // Stop with the parent when it goes away (spawned with an IPC channel).
  process.on('disconnect', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`embedded-mongo: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
