/**
 * Benchmark (prints figures; not a test): how long the server takes to start on an existing data
 * directory, i.e. to read and replay its journal and build its indexes, until it listens.
 * The directory is copied first (the copy is started, never the original, so a start-up
 * compaction cannot change the dataset). Runs the CLI in its own process ROUNDS times and prints
 * the median wall time to "listening" and the CPU it used until then.
 *   npm run bench:restart -w @campus/embedded-mongo [-- --dbpath .data/bench/db --rounds 3 --cpu-prof <dir>]
 * The default directory is the API benchmark's dataset (`npm run bench:data`: 100k posts, 1M likes).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const { values } = parseArgs({
  options: {
    dbpath: { type: 'string', default: path.join(REPO_ROOT, '.data/bench/db') },
    rounds: { type: 'string', default: '3' },
    'cpu-prof': { type: 'string' },
    /** Another copy of the CLI (e.g. the code before a change, for a before/after figure). */
    bin: { type: 'string' },
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

/** Starts the CLI on `dir`; resolves at its listening line with the wall and CPU ms until then. */
async function startOnce(dir: string): Promise<{ wallMs: number; cpuMs: number; uri: string }> {
  const nodeArgs = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [];
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, bin, '--port', '0', '--dbpath', dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { uri, wallMs, cpu } = await new Promise<{ uri: string; wallMs: number; cpu: number }>(
    (resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (mongodb:\/\/\S+)/.exec(out);
        if (m)
          resolve({
            uri: m[1] as string,
            wallMs: performance.now() - started,
            cpu: cpuMs(child.pid as number),
          });
      });
      child.on('exit', (code) => reject(new Error(`embedded-mongo exited with ${code}`)));
    },
  );
  child.removeAllListeners('exit');
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  return { wallMs, cpuMs: cpu, uri };
}

/** Documents and indexes per collection of the running server at `dir` (one extra start). */
async function describe(dir: string): Promise<string> {
  const child = spawn(process.execPath, [bin, '--port', '0', '--dbpath', dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const uri = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (mongodb:\/\/\S+)/.exec(out);
      if (m) resolve(m[1] as string);
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
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  return `${docs.toLocaleString('en-US')} documents, ${indexes} indexes`;
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
    const what = await describe(dir);
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const run = await startOnce(dir);
      walls.push(run.wallMs);
      cpus.push(run.cpuMs);
    }
    console.log(
      `embedded-mongo restart on ${source} (${(bytes / 1024 / 1024).toFixed(1)} MiB journal, ` +
        `${what}), median of ${ROUNDS}, ${os.cpus().length} cores, load average ` +
        `${os.loadavg()[0]?.toFixed(1)}, node ${process.version}`,
    );
    console.log(
      `start to listening (process start, replay, index build): ${median(walls).toFixed(0)} ms`,
    );
    console.log(
      `CPU used until listening:                              ${median(cpus).toFixed(0)} ms`,
    );
    console.log(`runs: ${walls.map((w) => w.toFixed(0)).join(', ')} ms`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
