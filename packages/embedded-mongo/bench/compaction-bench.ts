/**
 * Benchmark (prints figures; not a test): the latency of a steady read load while the server
 * compacts its journal in the background, against the same load without compaction.
 *   npm run bench:compaction -w @campus/embedded-mongo [-- --dbpath .data/bench/db --concurrency 4 --seconds 15 --rounds 4 --as-is]
 * Copies the data directory (the API benchmark's dataset by default: `npm run bench:data`) and,
 * unless `--as-is`, compacts the copy offline first (`embedded-mongo compact`), so that every
 * measured compaction is the steady one: a journal that is a snapshot. Starts the CLI on the
 * copy in its own process, waits for its warm-up, then runs `--concurrency` loops of feed-like
 * finds over the wire (the API's read shapes, one after the other per loop) throughout:
 * `--seconds` unmeasured, then `--rounds` times `--seconds` without compaction followed by a
 * compaction (the `compact` command; the load is measured until it replies), then `--seconds`
 * without. Alternating the two keeps a shared machine's changing load from falling on one side.
 * Prints p50 / p99 / max without and during compaction, p99 during ÷ p99 without (issue 36's
 * target: ≤ 2), for all rounds and per round (against the windows on either side), and each
 * compaction's duration, its switch (the one step on the server's thread), its process's CPU
 * (the server's child) and the nice values of that process's threads. The figures also go into
 * its section of BENCHMARKS.md (BENCH_WRITE=0: not).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient, type Db } from 'mongodb';
import { writeSection } from './report';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const { values } = parseArgs({
  options: {
    dbpath: { type: 'string', default: path.join(REPO_ROOT, '.data/bench/db') },
    concurrency: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '15' },
    rounds: { type: 'string', default: '4' },
    'as-is': { type: 'boolean', default: false },
  },
});
const CONCURRENCY = Number(values.concurrency);
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const TICK_MS = 10;

/** The CPU ms so far of process `pid` (all its threads) and the nice values of its threads. */
function processStat(pid: number): { cpuMs: number; nice: Set<number> } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const nice = new Set<number>();
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      const t = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      nice.add(Number(t.slice(t.lastIndexOf(')') + 2).split(' ')[16]));
    }
    return { cpuMs: (Number(f[11]) + Number(f[12])) * TICK_MS, nice };
  } catch {
    return undefined; // it ended
  }
}

/** The child processes of `pid`. */
function children(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

interface Phase {
  label: string;
  /** Finds that failed (none expected: a failure is a server that stopped answering). */
  errors: number;
  latencies: number[];
  ms: number;
}

async function main(): Promise<void> {
  const source = path.resolve(values.dbpath);
  if (!fs.existsSync(path.join(source, 'journal.bson')))
    throw new Error(`No journal in ${source}: run \`npm run bench:data\` first, or pass --dbpath`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-compaction-'));
  execFileSync('cp', ['-r', `${source}/.`, dir]);
  const journal = path.join(dir, 'journal.bson');
  const bin = path.join(__dirname, '../bin/embedded-mongo.cjs');
  let prepared = 'the copy as it is';
  if (!values['as-is']) {
    const started = performance.now();
    execFileSync(process.execPath, [bin, 'compact', '--dbpath', dir], { stdio: 'ignore' });
    prepared = `the copy compacted offline first (${((performance.now() - started) / 1000).toFixed(0)} s)`;
  }
  const child = spawn(
    process.execPath,
    [
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      ...(require('../bin/node-args.cjs') as string[]),
      // Node options for the server (a profile, --trace-gc), as the other benchmarks take them.
      ...(process.env.BENCH_DB_NODE_ARGS ?? '').split(' ').filter(Boolean),
      bin,
      '--port',
      '0',
      '--dbpath',
      dir,
    ],
    // With an IPC channel: the server stops when this process goes away, however it ends.
    { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  if (process.env.BENCH_SERVER_LOG)
    child.stdout!.pipe(fs.createWriteStream(process.env.BENCH_SERVER_LOG));
  const pid = child.pid as number;
  const clients: MongoClient[] = [];
  try {
    let out = '';
    const uri = await new Promise<string>((resolve, reject) => {
      let uri: string | undefined;
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        uri ??= /listening on (mongodb:\/\/\S+)/.exec(out)?.[1];
        if (uri && /warm:/.test(out)) resolve(uri);
      });
      child.on('exit', (code) => reject(new Error(`embedded-mongo exited with ${code}`)));
    });
    const client = await MongoClient.connect(`${uri}/?directConnection=true`, {
      maxPoolSize: CONCURRENCY,
    });
    // The compact command waits for the compaction: on a connection of its own.
    const admin = await MongoClient.connect(`${uri}/?directConnection=true`, {
      socketTimeoutMS: 0,
    });
    clients.push(client, admin);
    const db = client.db('campus');

    // Values the queries use, read from the dataset.
    const users = (
      await db
        .collection('users')
        .find({}, { projection: { _id: 1 } })
        .limit(300)
        .toArray()
    ).map((u) => u._id);
    const posts = (
      await db
        .collection('posts')
        .find({ deletedAt: null }, { projection: { _id: 1 } })
        .sort({ createdAt: -1, _id: -1 })
        .limit(4000)
        .toArray()
    ).map((p) => p._id);
    const commented = (
      await db
        .collection('comments')
        .find({}, { projection: { postId: 1 } })
        .limit(2000)
        .toArray()
    ).map((c) => c.postId);
    const pick = <T>(xs: T[], i: number, n = 1): T[] =>
      Array.from({ length: n }, (_, k) => xs[(i * 7919 + k * 104_729) % xs.length] as T);
    // The feed's reads, in turn (see bench/snapshot-reads-bench.ts).
    const queries: Array<(d: Db, i: number) => Promise<unknown>> = [
      (d, i) =>
        d
          .collection('posts')
          .find({ deletedAt: null })
          .sort({ createdAt: -1, _id: -1 })
          .skip((i % 10) * 20)
          .limit(21)
          .toArray(),
      (d, i) =>
        d
          .collection('posts')
          .find({ _id: { $in: pick(posts, i, 20) } })
          .toArray(),
      (d, i) =>
        d
          .collection('likes')
          .find({ userId: pick(users, i)[0], postId: { $in: pick(posts, i, 20) } })
          .toArray(),
      (d, i) =>
        d
          .collection('posts')
          .find({ authorId: { $in: pick(users, i, 50) }, deletedAt: null })
          .sort({ createdAt: -1, _id: -1 })
          .limit(21)
          .toArray(),
      (d, i) =>
        d
          .collection('comments')
          .find({ postId: pick(commented, i)[0], parentId: null })
          .sort({ createdAt: 1, _id: 1 })
          .limit(21)
          .toArray(),
      (d, i) =>
        d
          .collection('notifications')
          .find({ userId: pick(users, i)[0] })
          .sort({ createdAt: -1, _id: -1 })
          .limit(21)
          .toArray(),
    ];

    const phases: Phase[] = [];
    let current: Phase | undefined;
    let running = true;
    let seq = 0;
    const loops = Array.from({ length: CONCURRENCY }, async () => {
      while (running) {
        const i = seq++;
        const phase = current;
        const t0 = performance.now();
        const ok = await queries[i % queries.length]!(db, i).then(
          () => true,
          () => false,
        );
        if (!phase) continue;
        if (!ok) {
          phase.errors++;
          continue;
        }
        const ms = performance.now() - t0;
        phase.latencies.push(ms);
      }
    });
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const measure = async (label: string, work: () => Promise<unknown>) => {
      const t0 = performance.now();
      const phase: Phase = {
        label,
        errors: 0,
        latencies: [],
        ms: 0,
      };
      current = phase;
      await work();
      current = undefined;
      phase.ms = performance.now() - t0;
      phases.push(phase);
      return phase;
    };

    const loadBefore = os.loadavg()[0]!;
    await sleep(SECONDS * 1000); // unmeasured: JIT, caches
    const compactions: Array<{ ms: number; cpuMs: number; switchMs: number; mib: string }> = [];
    const scheduling = new Set<string>();
    for (let n = 1; n <= ROUNDS; n++) {
      await measure('without compaction', () => sleep(SECONDS * 1000));
      const bytesBefore = fs.statSync(journal).size;
      // The compaction's process: the server's child, sampled while it lives.
      const seen = new Map<number, { cpuMs: number; nice: Set<number> }>();
      const sampler = setInterval(() => {
        for (const c of children(pid)) {
          const stat = processStat(c);
          if (stat) seen.set(c, stat);
        }
      }, 100);
      const phase = await measure(`compaction ${n}`, () =>
        admin.db('campus').command({ compact: 'posts' }),
      );
      clearInterval(sampler);
      for (const t of seen.values()) scheduling.add(`nice ${[...t.nice].sort().join('/')}`);
      // The server prints its line when the compaction is done (the reply may come first).
      const printed = () => [...out.matchAll(/the switch to it: ([\d.]+) ms/g)][n - 1]?.[1];
      while (!printed()) await new Promise((r) => child.stdout!.once('data', r));
      compactions.push({
        ms: phase.ms,
        cpuMs: [...seen.values()].reduce((sum, t) => sum + t.cpuMs, 0),
        switchMs: Number(printed()),
        mib: `${(bytesBefore / 2 ** 20).toFixed(0)} → ${(fs.statSync(journal).size / 2 ** 20).toFixed(0)} MiB`,
      });
    }
    await measure('without compaction', () => sleep(SECONDS * 1000));
    running = false;
    await Promise.all(loops);

    const row = (label: string, latencies: number[], ms: number) => {
      const sorted = [...latencies].sort((a, b) => a - b);
      return [
        label.padEnd(30),
        String(sorted.length).padStart(7),
        ((sorted.length / ms) * 1000).toFixed(0).padStart(7),
        percentile(sorted, 50).toFixed(1).padStart(7),
        percentile(sorted, 99).toFixed(1).padStart(7),
        (sorted.at(-1) ?? NaN).toFixed(1).padStart(7),
      ].join(' ');
    };
    const isWithout = (p: Phase) => p.label === 'without compaction';
    const without = phases.filter(isWithout);
    const during = phases.filter((p) => !isWithout(p));
    const all = (ps: Phase[]) => ps.flatMap((p) => p.latencies);
    const sum = (ps: Phase[]) => ps.reduce((s, p) => s + p.ms, 0);
    const p99 = (ps: Phase[]) =>
      percentile(
        all(ps).sort((a, b) => a - b),
        99,
      );
    const ratio = p99(during) / p99(without);
    // Each compaction against the windows without on either side of it.
    const perRound = during.map((p) => {
      const i = phases.indexOf(p);
      return p99([p]) / p99([phases[i - 1]!, phases[i + 1]!]);
    });
    const range = (xs: number[], digits = 1) =>
      `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
    const lines = [
      `embedded-mongo: ${CONCURRENCY} loops of feed-like finds over the wire on a copy of ` +
        `${path.relative(REPO_ROOT, source) || source} (${prepared}), ${ROUNDS} rounds of ` +
        `${SECONDS} s without compaction then a compaction; ${os.cpus().length} cores, load ` +
        `average ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end, ` +
        `node ${process.version}`,
      `${''.padEnd(30)} ${'finds'.padStart(7)} ${'/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)}`,
      row(`without compaction (${without.length} × ${SECONDS} s)`, all(without), sum(without)),
      row(`during compaction (${during.length})`, all(during), sum(during)),
      `compactions: ${range(compactions.map((c) => c.ms / 1000))} s each, their process ` +
        `${range(compactions.map((c) => c.cpuMs / 1000))} s of CPU (${[...scheduling].join('; ') || 'not seen'}; ` +
        `the server: nice ${os.getPriority(pid)}), the switch ${range(
          compactions.map((c) => c.switchMs),
        )} ms, journal ${compactions[0]?.mib ?? '?'}`,
      ...(phases.some((p) => p.errors > 0)
        ? [`failed finds: ${phases.map((p) => `${p.label} ${p.errors}`).join(', ')}`]
        : []),
      `p99 during compaction ÷ p99 without: ${ratio.toFixed(2)} (target ≤ 2: ${ratio <= 2 ? 'met' : 'not met'}); ` +
        `per round, against the windows on either side: ${perRound.map((r) => r.toFixed(2)).join(', ')}`,
    ];
    for (const line of lines) console.log(line);
    writeSection('bench:compaction', lines);
  } finally {
    for (const c of clients) await c.close().catch(() => undefined);
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(undefined)));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
