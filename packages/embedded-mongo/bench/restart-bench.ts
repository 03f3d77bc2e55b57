/**
 * Benchmark (prints figures; not a test): how long the server takes to start on an existing data
 * directory, i.e. to read and replay its journal and build its indexes, until it listens, and
 * until its background warm-up (documents of the snapshot decoded, indexes built) is done.
 * The directory is copied first (the copy is started, never the original, so a start-up
 * compaction cannot change the dataset); `--compact` then runs `embedded-mongo compact` on the
 * copy (a journal without a snapshot gets one) and prints how long it took. A first start, on
 * the copy as it is then, is reported apart.
 * Then runs the CLI in its own process ROUNDS times and prints the medians: wall time and CPU to
 * "listening", and to "warm" (`--no-warm` for a CLI that does not print it: code from before).
 *   npm run bench:restart -w @campus/embedded-mongo [-- --dbpath .data/bench/db --rounds 3 --cpu-prof <dir>]
 * The default directory is the API benchmark's dataset (`npm run bench:data`: 100k posts, 1M likes).
 * The figures also go into its section of the repository's BENCHMARKS.md, unless BENCH_WRITE=0 or
 * the run is of another CLI (`--bin`, `--no-warm`) or profiled (`--cpu-prof`).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { writeSection } from './report';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const { values } = parseArgs({
  options: {
    dbpath: { type: 'string', default: path.join(REPO_ROOT, '.data/bench/db') },
    rounds: { type: 'string', default: '3' },
    'cpu-prof': { type: 'string' },
    /** Another copy of the CLI (e.g. the code before a change, for a before/after figure). */
    bin: { type: 'string' },
    'no-warm': { type: 'boolean', default: false },
    compact: { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(values.rounds);
const bin = path.resolve(values.bin ?? path.join(__dirname, '../bin/embedded-mongo.cjs'));
const TICK_MS = 10;

function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

interface Start {
  wallMs: number;
  cpuMs: number;
  warmWallMs: number;
  warmCpuMs: number;
}

/**
 * Starts the CLI on `dir`; the wall and CPU ms until its listening line and until its warm line
 * (the same as listening with `--no-warm`).
 */
async function startOnce(dir: string): Promise<Start> {
  const nodeArgs = [
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    ...(require('../bin/node-args.cjs') as string[]),
    ...(values['cpu-prof'] ? [`--cpu-prof`, `--cpu-prof-dir=${values['cpu-prof']}`] : []),
  ];
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, bin, '--port', '0', '--dbpath', dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const run = await new Promise<Start>((resolve, reject) => {
    let out = '';
    let listening: { wallMs: number; cpuMs: number } | undefined;
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (!listening && /listening on (mongodb:\/\/\S+)/.test(out)) {
        listening = { wallMs: performance.now() - started, cpuMs: cpuMs(child.pid as number) };
        if (values['no-warm'])
          resolve({ ...listening, warmWallMs: listening.wallMs, warmCpuMs: listening.cpuMs });
      }
      if (listening && /embedded-mongo: warm:/.test(out))
        resolve({
          ...listening,
          warmWallMs: performance.now() - started,
          warmCpuMs: cpuMs(child.pid as number),
        });
    });
    child.on('exit', (code) => reject(new Error(`embedded-mongo exited with ${code}`)));
  });
  child.removeAllListeners('exit');
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  return run;
}

/**
 * Documents and indexes per collection of the running server at `dir` (one extra start, on the
 * directory as copied), with how long that start and its clean stop took.
 */
async function describe(dir: string): Promise<string> {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, '--port', '0', '--dbpath', dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let listeningMs = 0;
  const uri = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (mongodb:\/\/\S+)/.exec(out);
      if (m && !listeningMs) {
        listeningMs = performance.now() - started;
        resolve(m[1] as string);
      }
    });
  });
  const client = await MongoClient.connect(`${uri}/?directConnection=true`);
  let docs = 0;
  let indexes = 0;
  try {
    const { databases } = await client.db('admin').admin().listDatabases();
    for (const { name } of databases) {
      for (const c of await client.db(name).listCollections().toArray()) {
        if (c.type === 'view') continue;
        docs += await client.db(name).collection(c.name).estimatedDocumentCount();
        indexes += (await client.db(name).collection(c.name).indexes()).length;
      }
    }
  } finally {
    await client.close();
  }
  const stopping = performance.now();
  const cpuBeforeStop = cpuMs(child.pid as number);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  const stopMs = performance.now() - stopping;
  return (
    `${docs.toLocaleString('en-US')} documents, ${indexes} indexes; first start on the copy as ` +
    `it was: ${listeningMs.toFixed(0)} ms to listening, ${cpuBeforeStop.toFixed(0)} ms CPU ` +
    `(with the counting), clean stop ${stopMs.toFixed(0)} ms`
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main(): Promise<void> {
  const source = path.resolve(values.dbpath);
  const journal = path.join(source, 'journal.bson');
  if (!fs.existsSync(journal))
    throw new Error(`No journal in ${source}: run \`npm run bench:data\` first, or pass --dbpath`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-restart-'));
  try {
    fs.cpSync(source, dir, { recursive: true });
    const bytes = fs.statSync(path.join(dir, 'journal.bson')).size;
    if (values.compact) {
      const out = execFileSync(process.execPath, [bin, 'compact', '--dbpath', dir], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      console.log(out.trim());
    }
    const what = await describe(dir);
    const runs: Start[] = [];
    for (let r = 0; r < ROUNDS; r++) runs.push(await startOnce(dir));
    const after = fs.statSync(path.join(dir, 'journal.bson')).size;
    const mib = (b: number) => (b / 1024 / 1024).toFixed(1);
    const row = (label: string, k: keyof Start) =>
      `${label.padEnd(52)} ${median(runs.map((r) => r[k])).toFixed(0)} ms`;
    const lines = [
      `embedded-mongo restart on ${source} (${mib(bytes)} MiB journal, ${what}; then ` +
        `${mib(after)} MiB), median of ${ROUNDS}, ${os.cpus().length} cores, load average ` +
        `${os.loadavg()[0]?.toFixed(1)}, node ${process.version}`,
      row('start to listening (process start, replay):', 'wallMs'),
      row('CPU used until listening:', 'cpuMs'),
      row('start to warm (documents decoded, indexes built):', 'warmWallMs'),
      row('CPU used until warm:', 'warmCpuMs'),
      `runs (listening / warm): ${runs.map((r) => `${r.wallMs.toFixed(0)} / ${r.warmWallMs.toFixed(0)}`).join(', ')} ms`,
    ];
    for (const line of lines) console.log(line);
    writeSection('bench:restart', lines, {
      skip:
        values.bin || values['no-warm']
          ? '--bin / --no-warm measures another CLI'
          : values['cpu-prof']
            ? '--cpu-prof profiles the server'
            : undefined,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
