/**
 * Benchmark (prints figures; not a test): the server's CPU time per command, read from
 * /proc/<pid>/stat of the server running as its own process (the CLI, journaled to a temporary
 * data directory), so the client's work is not counted and the neighbours' load barely moves it:
 *   - `find` of 20 documents by an `_id` `$in` list (1 KB posts, 20,000 in the collection)
 *   - `insertOne` of such a post
 *   - `updateOne` `$inc` of one counter of a 5 KB post, and the journal bytes it writes
 *   - `ping`: the floor of any command (a message read, dispatched, answered; no data)
 * Each row runs ROUNDS times (interleaved) and prints the median.
 *   npm run bench:cpu -w @campus/embedded-mongo [-- --ops 3000 --rounds 3 --cpu-prof <dir>]
 * `--cpu-prof <dir>` starts the server with node's `--cpu-prof` (profile written at exit);
 * `--only ping|find|insertOne|updateOne` measures one row (to profile it alone).
 * The figures also go into its section of the repository's BENCHMARKS.md, unless BENCH_WRITE=0 or
 * the run is not of this checkout's whole table (`--bin`, `--only`, `--cpu-prof`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient, ObjectId } from 'mongodb';
import { writeSection } from './report';

const { values } = parseArgs({
  options: {
    ops: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '3' },
    'cpu-prof': { type: 'string' },
    only: { type: 'string' },
    /** Another copy of the CLI (e.g. the code before a change, for a before/after figure). */
    bin: { type: 'string' },
  },
});
const OPS = Number(values.ops);
const ROUNDS = Number(values.rounds);
const TICK_MS = 1000 / 100; // USER_HZ: /proc reports CPU in clock ticks of 10 ms

const bin = path.resolve(values.bin ?? path.join(__dirname, '../bin/embedded-mongo.cjs'));

/** user + system CPU of a process so far, in ms. */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime (fields 14, 15)
}

function startServer(dbPath: string): Promise<{ uri: string; child: ChildProcess }> {
  const nodeArgs = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [];
  const child = spawn(
    process.execPath,
    [...nodeArgs, bin, '--port', '0', '--dbpath', dbPath, '--fsync', 'interval'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (mongodb:\/\/\S+)/.exec(out);
      if (m) resolve({ uri: m[1] as string, child });
    });
    child.on('exit', (code) => reject(new Error(`embedded-mongo exited with ${code}`)));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function post(i: number, contentBytes: number) {
  return {
    _id: new ObjectId(),
    authorId: i % 500,
    content: 'x'.repeat(contentBytes),
    isJdTagged: i % 7 === 0,
    likesCount: i % 97,
    commentsCount: i % 13,
    repostsCount: 0,
    mediaUrls: [],
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
    updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
  };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-cpu-'));
  const { uri, child } = await startServer(dir);
  const pid = child.pid as number;
  const client = await MongoClient.connect(`${uri}/?directConnection=true`);
  const db = client.db('bench');
  const posts = db.collection('posts');
  const big = db.collection('bigposts');
  const journal = path.join(dir, 'journal.bson');
  const rows: Record<string, number[]> = {};
  const add = (k: string, v: number) => (rows[k] ??= []).push(v);
  try {
    const ids: ObjectId[] = [];
    for (let i = 0; i < 20_000; i += 1000) {
      const batch = Array.from({ length: 1000 }, (_, k) => post(i + k, 800));
      ids.push(...batch.map((d) => d._id));
      await posts.insertMany(batch);
    }
    await posts.createIndex({ authorId: 1, createdAt: -1 });
    await posts.createIndex({ createdAt: -1, _id: -1 });
    const bigIds: ObjectId[] = [];
    const bigBatch = Array.from({ length: 200 }, (_, k) => post(k, 5000));
    bigIds.push(...bigBatch.map((d) => d._id));
    await big.insertMany(bigBatch);

    let seq = 0;
    const findRow = async () => {
      for (let i = 0; i < OPS; i++) {
        const start = (i * 37) % (ids.length - 20);
        await posts.find({ _id: { $in: ids.slice(start, start + 20) } }).toArray();
      }
    };
    const insertRow = async () => {
      for (let i = 0; i < OPS; i++) await posts.insertOne(post(100_000 + seq++, 800));
    };
    // The floor of any command: a message parsed, dispatched and answered, with no data touched.
    const pingRow = async () => {
      for (let i = 0; i < OPS; i++) await db.command({ ping: 1 });
    };
    const updateRow = async () => {
      for (let i = 0; i < OPS; i++)
        await big.updateOne({ _id: bigIds[i % bigIds.length] }, { $inc: { likesCount: 1 } });
    };
    const table = (
      [
        ['ping (no data)', pingRow],
        ['find 20 by _id $in', findRow],
        ['insertOne (1 KB post)', insertRow],
        ['updateOne $inc (5 KB post)', updateRow],
      ] as const
    ).filter(([name]) => !values.only || name.startsWith(values.only));
    // Warm up (JIT) before measuring.
    for (const [, run] of table) await run();

    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, run] of table) {
        const bytes = fs.statSync(journal).size;
        const cpu = cpuMs(pid);
        const t = performance.now();
        await run();
        add(`${name}: server CPU µs/command`, ((cpuMs(pid) - cpu) * 1000) / OPS);
        add(`${name}: wall µs/command`, ((performance.now() - t) * 1000) / OPS);
        add(`${name}: journal bytes/command`, (fs.statSync(journal).size - bytes) / OPS);
      }
    }
  } finally {
    await client.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const width = Math.max(...Object.keys(rows).map((k) => k.length));
  const lines = [
    `embedded-mongo CPU per command: ${OPS} commands per row, median of ${ROUNDS} rounds, ` +
      `${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}, node ${process.version}`,
    ...Object.entries(rows)
      .filter(([k, v]) => !(k.includes('journal') && median(v) === 0))
      .map(([k, v]) => `${k.padEnd(width)}  ${median(v).toFixed(0)}`),
  ];
  for (const line of lines) console.log(line);
  writeSection('bench:cpu', lines, {
    skip: values.bin
      ? '--bin measures another CLI'
      : values.only
        ? '--only measures one row'
        : values['cpu-prof']
          ? '--cpu-prof profiles the server'
          : undefined,
  });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
