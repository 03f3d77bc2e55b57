/**
 * embedded-mongo --port 27017 --dbpath .data/db [--host 127.0.0.1] [--fsync always|interval|never]
 *   Prints `embedded-mongo listening on mongodb://HOST:PORT` once ready; SIGTERM/SIGINT stop it
 *   cleanly. Exits with status 1 and a FATAL line when its journal is damaged (at start) or cannot
 *   be written (while running).
 * embedded-mongo repair --dbpath .data/db
 *   Cuts a damaged journal at its last good record, after copying it (see repair.ts).
 * embedded-mongo compact --dbpath .data/db
 *   Rewrites the journal as a snapshot (quick starts; see Engine.compact). Offline.
 * embedded-mongo dump|restore|fingerprint --uri mongodb://HOST:PORT ...
 *   Backups of a running server in mongodump's archive format (see backup/cli.ts).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { JournalCorruptError, type StorageFaults } from './journal';
import { describeRepair, repairJournal } from './repair';
import { startServer } from './server';
import { Engine } from './engine';
import type * as BackupCliModule from './backup/cli';

type BackupCli = typeof BackupCliModule;

function fatal(message: string): never {
  process.stderr.write(`embedded-mongo: FATAL: ${message}\n`);
  process.exit(1);
}

function repair(args: string[]): void {
  const { values } = parseArgs({ args, options: { dbpath: { type: 'string' } } });
  if (!values.dbpath) throw new Error('usage: embedded-mongo repair --dbpath <dir>');
  // Through `npm run repair -w ...` the working directory is the package's: resolve a relative
  // path from where the command was typed (INIT_CWD, set by npm and npx).
  const dir = path.resolve(process.env.INIT_CWD ?? process.cwd(), values.dbpath);
  process.stdout.write(describeRepair(repairJournal(dir)) + '\n');
}

/** `--test-faults '<json>'` (tests only): storage failures to inject, see StorageFaults. */
function parseFaults(json: string | undefined): StorageFaults | undefined {
  if (json === undefined) return undefined;
  const faults = JSON.parse(json) as StorageFaults;
  faults.onCompactionPaused = () => process.stdout.write('embedded-mongo: compaction paused\n');
  return faults;
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '27017' },
      host: { type: 'string', default: '127.0.0.1' },
      dbpath: { type: 'string' },
      fsync: { type: 'string', default: 'interval' },
      'test-faults': { type: 'string' },
      'cursor-timeout-ms': { type: 'string' },
      'compact-on-stop': { type: 'boolean', default: false },
    },
  });
  const fsync = values.fsync as 'always' | 'interval' | 'never';
  if (!['always', 'interval', 'never'].includes(fsync))
    throw new Error(`--fsync must be always, interval or never`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`invalid --port ${values.port}`);
  const server = await startServer({
    port,
    host: values.host,
    dbPath: values.dbpath,
    fsync,
    cursorTimeoutMs:
      values['cursor-timeout-ms'] === undefined ? undefined : Number(values['cursor-timeout-ms']),
    faults: parseFaults(values['test-faults']),
    compactOnStop: values['compact-on-stop'],
    onWarning: (message) => process.stderr.write(`embedded-mongo: ${message}\n`),
    onWarm: ({ ms, cpuMs }) =>
      process.stdout.write(
        `embedded-mongo: warm: every index ready ` +
          `${ms.toFixed(0)} ms after listening (${cpuMs.toFixed(0)} ms CPU)\n`,
      ),
    onFatal: (e) =>
      fatal(
        `${e.message}. The server stopped so that it never serves data that is not on disk; ` +
          `the write that failed was not acknowledged. Free space or fix the disk, then restart.`,
      ),
  }).catch((e: unknown) => {
    if (e instanceof JournalCorruptError) fatal(e.message);
    throw e;
  });
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

/**
 * `compact --dbpath <dir>`: replays the journal and rewrites it as a snapshot (see Engine.compact),
 * so that the next start reads it without decoding documents or sorting index keys. Offline: stop
 * whatever uses the directory first.
 */
function compactOffline(args: string[]): void {
  const { values } = parseArgs({ args, options: { dbpath: { type: 'string' } } });
  if (!values.dbpath) throw new Error('usage: embedded-mongo compact --dbpath <dir>');
  const dir = path.resolve(process.env.INIT_CWD ?? process.cwd(), values.dbpath);
  const started = performance.now();
  const engine = new Engine({
    dbPath: dir,
    fsync: 'always',
    onWarning: (m) => process.stderr.write(`embedded-mongo: ${m}\n`),
  });
  engine.compact();
  engine.close();
  const cpu = process.cpuUsage();
  process.stdout.write(
    `embedded-mongo: ${dir} compacted into a snapshot in ` +
      `${(performance.now() - started).toFixed(0)} ms (${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU)\n`,
  );
}

async function main(): Promise<void> {
  const [first, ...rest] = process.argv.slice(2);
  if (first === 'repair') repair(rest);
  else if (first === 'compact') compactOffline(rest);
  else if (first === 'dump' || first === 'restore' || first === 'fingerprint')
    // Loaded only for these commands, so that the server never loads the driver (a dynamic
    // import() would bypass the tsx/cjs loader the bin script runs us under).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    await (require('./backup/cli') as BackupCli).runBackupCommand(first, rest);
  else await serve(process.argv.slice(2));
}

main().catch((e: unknown) => {
  process.stderr.write(`embedded-mongo: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
