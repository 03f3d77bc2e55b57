/**
 * The backup commands of the CLI (loaded only for them, so the server does not load the driver):
 *
 *   embedded-mongo dump [--uri <uri>] [--archive=<file>] [--gzip] [--db <db>] [--nsInclude <pattern>]...
 *   embedded-mongo restore [--uri <uri>] [--archive=<file>] [--gzip] [--drop] [--dryRun]
 *                          [--db <db>] [--nsInclude|--nsExclude <pattern>]... [--nsFrom <p> --nsTo <p>]...
 *   embedded-mongo fingerprint [--uri <uri>] [--db <db>] [--nsInclude <pattern>]...
 *
 * As mongodump and mongorestore: `--uri` defaults to mongodb://127.0.0.1:27017, `--archive`
 * alone (or `--archive=-`) is stdout / stdin, progress goes to stderr.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Timestamp } from 'mongodb';
import { describeTime, dump } from './dump';
import { compareFingerprints, fingerprint } from './fingerprint';
import { restore } from './restore';

const DEFAULT_URI = 'mongodb://127.0.0.1:27017';

const log = (line: string) => process.stderr.write(`${new Date().toISOString()}\t${line}\n`);

/** `--archive` alone means stdio: give it the value `-` so that parseArgs accepts it. */
function normaliseArchive(args: string[]): string[] {
  return args.flatMap((a, i) =>
    a === '--archive' && (args[i + 1] === undefined || args[i + 1]?.startsWith('-'))
      ? ['--archive=-']
      : [a],
  );
}

/** Relative paths from where the command was typed (npm run sets the package as cwd). */
function resolvePath(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

const NAMESPACE_OPTIONS = {
  uri: { type: 'string', default: DEFAULT_URI },
  db: { type: 'string' },
  nsInclude: { type: 'string', multiple: true },
  nsExclude: { type: 'string', multiple: true },
} as const;

async function dumpCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args: normaliseArchive(args),
    options: {
      ...NAMESPACE_OPTIONS,
      archive: { type: 'string' },
      gzip: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
    },
  });
  if (values.archive === undefined)
    throw new Error('usage: embedded-mongo dump --archive=<file> (or --archive alone for stdout)');
  const quietLog = values.quiet ? undefined : log;
  const common = {
    uri: values.uri,
    db: values.db,
    nsInclude: values.nsInclude,
    nsExclude: values.nsExclude,
    gzip: values.gzip,
    log: quietLog,
  };
  if (values.archive === '-') {
    const result = await dump({ ...common, out: process.stdout });
    summarise(result.collections.length, result.clusterTime, quietLog);
    return;
  }
  // Written beside the target and renamed once complete and on disk: an interrupted dump (even
  // kill -9) never leaves a truncated archive under the name, nor replaces an older one.
  const file = resolvePath(values.archive);
  const partial = `${file}.partial`;
  const fd = fs.openSync(partial, 'w');
  try {
    const out = fs.createWriteStream('', { fd, autoClose: false });
    const result = await dump({ ...common, out });
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(partial, file);
    syncDirectory(path.dirname(file));
    summarise(result.collections.length, result.clusterTime, quietLog);
    quietLog?.(`archive written to ${file}`);
  } catch (e) {
    try {
      fs.closeSync(fd);
    } catch {
      // already closed
    }
    fs.rmSync(partial, { force: true });
    throw e;
  }
}

function summarise(
  collections: number,
  at: Timestamp | undefined,
  out?: (line: string) => void,
): void {
  out?.(
    `dumped ${collections} collection(s)` +
      (at ? ` as they were at cluster time ${describeTime(at)}` : ''),
  );
}

function syncDirectory(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Some file systems cannot sync a directory; the rename is then as durable as they make it.
  }
}

async function restoreCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args: normaliseArchive(args),
    options: {
      ...NAMESPACE_OPTIONS,
      archive: { type: 'string' },
      gzip: { type: 'boolean', default: false },
      drop: { type: 'boolean', default: false },
      dryRun: { type: 'boolean', default: false },
      nsFrom: { type: 'string', multiple: true },
      nsTo: { type: 'string', multiple: true },
      quiet: { type: 'boolean', default: false },
    },
  });
  if (values.archive === undefined)
    throw new Error(
      'usage: embedded-mongo restore --archive=<file> (or --archive alone for stdin)',
    );
  // --gzip is accepted for mongorestore's command lines; a gzipped archive is recognised anyway.
  const input =
    values.archive === '-'
      ? process.stdin
      : fs.createReadStream(resolvePath(values.archive), { highWaterMark: 1024 * 1024 });
  const result = await restore({
    uri: values.uri,
    input,
    drop: values.drop,
    dryRun: values.dryRun,
    db: values.db,
    nsInclude: values.nsInclude,
    nsExclude: values.nsExclude,
    nsFrom: values.nsFrom,
    nsTo: values.nsTo,
    log: values.quiet ? undefined : log,
  });
  if (input !== process.stdin) input.destroy();
  // Duplicates are reported, not an error (mongorestore exits 0 with them too).
  void result;
}

async function fingerprintCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...NAMESPACE_OPTIONS, compare: { type: 'boolean', default: false } },
  });
  if (values.compare) {
    // `fingerprint --compare a.json b.json`: exit 1 and name what differs.
    const [a, b] = positionals;
    if (!a || !b) throw new Error('usage: embedded-mongo fingerprint --compare <a.json> <b.json>');
    const read = (f: string) => JSON.parse(fs.readFileSync(resolvePath(f), 'utf8'));
    const differences = compareFingerprints(read(a), read(b));
    for (const d of differences) process.stdout.write(`${d}\n`);
    if (differences.length) process.exitCode = 1;
    else process.stdout.write('the same\n');
    return;
  }
  const result = await fingerprint({
    uri: values.uri,
    db: values.db,
    nsInclude: values.nsInclude,
    nsExclude: values.nsExclude,
  });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

export async function runBackupCommand(name: string, args: string[]): Promise<void> {
  if (name === 'dump') await dumpCommand(args);
  else if (name === 'restore') await restoreCommand(args);
  else await fingerprintCommand(args);
}
