/**
 * Benchmark (prints figures; not a test): how much of the V8 heap a warm database holds, and
 * what a full GC of it costs. Opens a COPY of a data directory in-process with the engine of
 * `<src>` (default this package's src/; another worktree's for a before/after pair), runs the
 * background warm-up to the end, then prints: CPU of the open and of the warm-up, RSS, heap used
 * and external memory after a full GC, the time of one more full GC, and the CPU of 200,000
 * document reads (posts, 70 % among the newest 5,000, and users).
 *   node --expose-gc --max-old-space-size=8192 --import tsx bench/heap-bench.ts <src> <dbPath copy>
 * Never point it at a dataset in place: it opens the directory for writing. The figures of this
 * package's engine (not another worktree's) also go into its section of the repository's
 * BENCHMARKS.md (BENCH_WRITE=0: not).
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeSection } from './report';
const [src = `${__dirname}/../src`, dbPath] = process.argv.slice(2);
if (!dbPath) throw new Error('usage: heap-bench.ts <src> <dbPath of a copy>');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Engine } = require(`${src}/engine`);
const gc = (globalThis as { gc?: () => void }).gc!;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const t0 = cpu();
const engine = new Engine({ dbPath, fsync: 'never' });
const t1 = cpu();
while (engine.warmUp()) continue;
const t2 = cpu();
gc();
gc();
const m = process.memoryUsage();
const g0 = performance.now();
gc();
const g1 = performance.now();
const colls: Array<{
  name: string;
  docs: { keys(): Iterable<string>; get(k: string): unknown; size: number };
}> = [];
for (const c of engine.dbs.get('campus').values()) colls.push(c);
const posts = colls.find((c) => c.name === 'posts')!;
const users = colls.find((c) => c.name === 'users')!;
const pk = [...posts.docs.keys()];
const uk = [...users.docs.keys()];
let x = 0;
const r0 = cpu();
for (let i = 0; i < 200000; i++) {
  // 70 % of reads among the newest 5,000 posts, the rest anywhere; users anywhere.
  const k =
    i % 3 === 0
      ? uk[(Math.random() * uk.length) | 0]
      : Math.random() < 0.7
        ? pk[pk.length - 1 - ((Math.random() * 5000) | 0)]
        : pk[(Math.random() * pk.length) | 0];
  const d = (i % 3 === 0 ? users : posts).docs.get(k!) as Record<string, unknown>;
  if (d) x++;
}
const r1 = cpu();
const g2 = performance.now();
gc();
const g3 = performance.now();
const m2 = process.memoryUsage();
const rawCounts = colls
  .map((c) => [c.name, c.docs.size, (c.docs as unknown as { rawCount?: number }).rawCount])
  .filter((r) => (r[1] as number) > 10000);
const figures = {
  src,
  openCpuMs: Math.round(t1 - t0),
  warmCpuMs: Math.round(t2 - t1),
  afterWarm: {
    rssMB: Math.round(m.rss / 1e6),
    heapUsedMB: Math.round(m.heapUsed / 1e6),
    externalMB: Math.round(m.external / 1e6),
    fullGcMs: Math.round(g1 - g0),
  },
  reads: x,
  readCpuUsPerRead: Math.round((((r1 - r0) * 1000) / 200000) * 100) / 100,
  afterReads: { heapUsedMB: Math.round(m2.heapUsed / 1e6), fullGcMs: Math.round(g3 - g2) },
  rawCounts,
  engineAlive: engine.dbs.size,
};
console.log(JSON.stringify(figures));
writeSection('heap-bench', [JSON.stringify(figures)], {
  skip:
    path.resolve(src) === path.resolve(__dirname, '../src')
      ? undefined
      : "<src> is another checkout's engine",
});
