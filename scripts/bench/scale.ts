/**
 * `npm run bench:scale -- --scales 1,3,10` (issue 42): how the cost of a request grows with the
 * data. For each scale, in one sitting:
 *
 * 1. the dataset `bench:data --scale N` made (made first when it is missing): its load rate, data
 *    and index sizes and the database's resident memory on it (bench-data.json beside it);
 * 2. a start: the database and one API process started on the dataset, and the seconds until the
 *    API has served the first feed page (what a restart costs);
 * 3. `bench:api --scale N` for the rows of ROWS (CPU per request of the API and of the database);
 * 4. `bench:mixed --scale N` with one API process: p99 at BENCH_CONNECTIONS, errors, count
 *    mismatches and the resident memory of the API and of the database under the mix.
 *
 * Then prints each row's CPU per request (API + database) against the data's size, its ratio to
 * the smallest scale's, and the targets (at 10x: each row ≤ 1.25x its 1x cost; the mix's p99 ≤
 * 300 ms with 0 errors and 0 mismatches; the database ≤ 1.5x its data and indexes; an API process
 * ≤ 400 MB; the first feed page ≤ 30 s after a start), and rewrites BENCHMARKS.md's `bench:scale`
 * section (unless BENCH_WRITE=0).
 *
 * The children run with BENCH_DURATION (default 5 s a row), BENCH_REPEATS (default 1) and
 * BENCH_MIXED_DURATION (default 30 s); set them higher for a closer look.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { datasetDirFor, openBenchDatabase, readLoadFigures, type LoadFigures } from './database';
import { residentBytes } from './cpu';
import { signToken } from './load';
import { REPO_ROOT, startApi } from './processes';
import { fmt, table, writeJsonFigures, writeSection } from './report';
import { ROWS } from './scale-rows';

const MiB = 2 ** 20;

export function scalesOf(argv: string[]): number[] {
  const at = argv.findIndex((a) => a === '--scales' || a.startsWith('--scales='));
  const text =
    at < 0 ? '1,3,10' : argv[at]!.includes('=') ? argv[at]!.split('=')[1]! : argv[at + 1]!;
  const scales = text.split(',').map(Number);
  if (scales.length === 0 || scales.some((s) => !Number.isFinite(s) || s <= 0))
    throw new Error(`--scales must be positive numbers separated by commas: ${text}`);
  return [...new Set(scales)].sort((a, b) => a - b);
}

interface ApiFigures {
  posts: number;
  rows: Array<{
    name: string;
    apiUs: number;
    dbUs: number;
    p99: number;
    errors: number;
    measured: boolean;
  }>;
}
interface MixedFigures {
  dataset: string;
  runs: Array<{
    processes: number;
    total: number;
    errors: number;
    p99: number;
    requestsPerSecond: number;
    apiUs: number;
    dbUs: number;
    apiResidentBytes: number;
    dbResidentBytes: number;
    mismatches: number;
  }>;
}
interface ScaleFigures {
  scale: number;
  load: LoadFigures;
  start: { firstFeedSeconds: number; dbResidentBytes: number };
  api: ApiFigures;
  mixed: MixedFigures['runs'][number];
}

/** Runs `npm run <script> -- --scale N` of this workspace with `env`, its output shown as it comes. */
function runChild(script: string, scale: number, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', script, '--', '--scale', String(scale)], {
      cwd: path.join(REPO_ROOT, 'scripts'),
      env: { ...process.env, BENCH_SCALE: String(scale), ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${script} --scale ${scale} exited with ${code}`)),
    );
  });
}

async function childFigures<T>(
  script: string,
  scale: number,
  env: Record<string, string>,
): Promise<T> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-scale-')), 'figures.json');
  try {
    await runChild(script, scale, { ...env, BENCH_WRITE: '0', BENCH_JSON: file });
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/**
 * The database and one API process started on the dataset, and the seconds from the database's
 * start until the API has answered the first page of the For You feed (the database is warm by
 * then: an upper bound of a restart's cost).
 */
async function measureStart(scale: number): Promise<ScaleFigures['start']> {
  const started = performance.now();
  const db = await openBenchDatabase({ dir: datasetDirFor(scale) });
  try {
    const api = await startApi({
      mongodbUri: db.uri,
      dataDir: path.join(REPO_ROOT, '.data', 'bench'),
    });
    try {
      const headers = {
        authorization: `Bearer ${signToken(Number(process.env.ADMIN_USER_ID ?? 107))}`,
      };
      for (;;) {
        const res = await fetch(`${api.url}/api/posts?limit=20&offset=0`, { headers });
        await res.arrayBuffer();
        if (res.status === 200) break;
        if (res.status !== 503) throw new Error(`the first feed page answered ${res.status}`);
      }
      return {
        firstFeedSeconds: (performance.now() - started) / 1000,
        dbResidentBytes: residentBytes(db.pid),
      };
    } finally {
      await api.stop();
    }
  } finally {
    await db.close();
  }
}

async function main() {
  const scales = scalesOf(process.argv.slice(2));
  const env = {
    BENCH_DURATION: process.env.BENCH_DURATION ?? '5',
    BENCH_REPEATS: process.env.BENCH_REPEATS ?? '1',
    BENCH_MIXED_DURATION: process.env.BENCH_MIXED_DURATION ?? '30',
    BENCH_MIXED_WARMUP: process.env.BENCH_MIXED_WARMUP ?? '10',
  };
  const figures: ScaleFigures[] = [];
  for (const scale of scales) {
    const dir = datasetDirFor(scale);
    if (!readLoadFigures(dir)) {
      console.log(`\n## scale ${scale}: no dataset in ${dir}: bench:data --scale ${scale} first`);
      await runChild('bench:data', scale, { BENCH_WRITE: '0' });
    }
    const load = readLoadFigures(dir)!;
    console.log(`\n## scale ${scale}: a start`);
    const start = await measureStart(scale);
    console.log(`first feed page ${fmt(start.firstFeedSeconds, 1)} s after the start`);
    console.log(`\n## scale ${scale}: bench:api`);
    const api = await childFigures<ApiFigures>('bench:api', scale, {
      ...env,
      BENCH_ONLY: ROWS.map(([, name]) => `=${name}`).join('|'),
    });
    console.log(`\n## scale ${scale}: bench:mixed`);
    const mixed = await childFigures<MixedFigures>('bench:mixed', scale, {
      ...env,
      BENCH_MIXED_PROCESSES: '1',
    });
    figures.push({ scale, load, start, api, mixed: mixed.runs[0]! });
  }
  report(figures);
}

/** A bench:api row by its label (an exact name: BENCH_ONLY's substrings match some rows twice). */
function rowOf(f: ScaleFigures, only: string) {
  return f.api.rows.find((r) => r.name === only);
}

function report(figures: ScaleFigures[]): void {
  const base = figures[0]!;
  const largest = figures[figures.length - 1]!;
  const cost = (r: { apiUs: number; dbUs: number }) => r.apiUs + r.dbUs;
  const growth = ROWS.map(([label, only]) => {
    const cells = figures.map((f) => rowOf(f, only));
    const first = cells[0];
    return {
      label,
      cells,
      ratios: cells.map((c) => (c && first && cost(first) > 0 ? cost(c) / cost(first) : NaN)),
    };
  });
  const sizeCell = (f: ScaleFigures) =>
    `${f.scale}× (${fmt(f.api.posts)} posts, ${fmt((f.load.dataBytes + f.load.indexBytes) / MiB)} MiB)`;
  const rowsTable = table(
    [
      'row: API + DB CPU µs/request',
      ...figures.map(sizeCell),
      `${largest.scale}× ÷ ${base.scale}×`,
    ],
    growth.map((g) => [
      g.label,
      ...g.cells.map((c, i) =>
        c
          ? `${fmt(c.apiUs)} + ${fmt(c.dbUs)} = ${fmt(cost(c))}${i > 0 ? ` (${fmt(g.ratios[i]!, 2)}×)` : ''}`
          : '–',
      ),
      Number.isNaN(g.ratios[g.ratios.length - 1]!)
        ? '–'
        : `**${fmt(g.ratios[g.ratios.length - 1]!, 2)}×**`,
    ]),
  );
  const other = table(
    ['scale', ...figures.map((f) => `${f.scale}×`)],
    [
      ['documents loaded', ...figures.map((f) => fmt(f.load.documents))],
      ['load rate (documents/s)', ...figures.map((f) => fmt(f.load.documentsPerSecond))],
      [
        'data / indexes MiB',
        ...figures.map((f) => `${fmt(f.load.dataBytes / MiB)} / ${fmt(f.load.indexBytes / MiB)}`),
      ],
      [
        'database resident MiB, warm after a start (÷ data + indexes)',
        ...figures.map(
          (f) => `${fmt(f.load.residentBytes / MiB)} (${fmt(f.load.residentRatio, 2)}×)`,
        ),
      ],
      [
        'database resident MiB under the mix (÷ data + indexes)',
        ...figures.map(
          (f) =>
            `${fmt(f.mixed.dbResidentBytes / MiB)} (${fmt(f.mixed.dbResidentBytes / (f.load.dataBytes + f.load.indexBytes), 2)}×)`,
        ),
      ],
      [
        'an API process, resident MiB under the mix (highest)',
        ...figures.map((f) => fmt(f.mixed.apiResidentBytes / MiB)),
      ],
      [
        'first feed page after a start (s)',
        ...figures.map((f) => fmt(f.start.firstFeedSeconds, 1)),
      ],
      [
        `the mix: req/s, p99 ms, errors, mismatches`,
        ...figures.map(
          (f) =>
            `${fmt(f.mixed.requestsPerSecond)}, ${f.mixed.p99}, ${f.mixed.errors}, ${f.mixed.mismatches}`,
        ),
      ],
      [
        'the mix: API + DB CPU µs/request',
        ...figures.map(
          (f) =>
            `${fmt(f.mixed.apiUs)} + ${fmt(f.mixed.dbUs)} = ${fmt(f.mixed.apiUs + f.mixed.dbUs)}`,
        ),
      ],
    ],
  );
  const worst = growth.reduce(
    (w, g) => {
      const r = g.ratios[g.ratios.length - 1]!;
      return Number.isFinite(r) && r > w.ratio ? { ratio: r, label: g.label } : w;
    },
    { ratio: 0, label: '' },
  );
  const dataIndexes = largest.load.dataBytes + largest.load.indexBytes;
  const judged = (ok: boolean) => (ok ? 'met' : 'not met');
  const targets =
    largest.scale === 10 && base.scale === 1
      ? [
          `- CPU per request at 10× ≤ 1.25× the same row at 1×: highest ${fmt(worst.ratio, 2)}× (${worst.label}) → **${judged(worst.ratio <= 1.25)}**`,
          `- the mix at 10×: p99 ${largest.mixed.p99} ms ≤ 300 ms, ${largest.mixed.errors} errors, ${largest.mixed.mismatches} count mismatches → **${judged(largest.mixed.p99 <= 300 && largest.mixed.errors === 0 && largest.mixed.mismatches === 0)}**`,
          `- the database's resident memory ≤ 1.5× its data and indexes: ${fmt(largest.load.residentRatio, 2)}× warm after a start, ${fmt(largest.mixed.dbResidentBytes / dataIndexes, 2)}× under the mix → **${judged(Math.max(largest.load.residentRatio, largest.mixed.dbResidentBytes / dataIndexes) <= 1.5)}**`,
          `- an API process ≤ 400 MB resident under the mix: ${fmt(largest.mixed.apiResidentBytes / 1e6)} MB → **${judged(largest.mixed.apiResidentBytes <= 400e6)}**`,
          `- the first feed page ≤ 30 s after a start: ${fmt(largest.start.firstFeedSeconds, 1)} s → **${judged(largest.start.firstFeedSeconds <= 30)}**`,
          `- load ≥ 20,000 documents/s: ${fmt(largest.load.documentsPerSecond)}/s → **${judged(largest.load.documentsPerSecond >= 20_000)}**`,
        ]
      : [];
  writeJsonFigures(figures);
  console.log(`\n${rowsTable}\n\n${other}\n${targets.length ? `\n${targets.join('\n')}` : ''}`);
  writeSection(
    'bench:scale',
    [
      `Scales ${figures.map((f) => `${f.scale}×`).join(', ')} of the bench dataset (\`bench:data --scale N\`), measured one after the other in one sitting: ` +
        `each row by \`bench:api --scale N\` (${process.env.BENCH_DURATION ?? 5} s at 50 connections, ${process.env.BENCH_REPEATS ?? 1} repetition; API and database CPU per request from \`/proc\`), ` +
        `the mix by \`bench:mixed --scale N\` with one API process (${process.env.BENCH_MIXED_DURATION ?? 30} s), a start by the database and one API process started on the dataset until the first feed page is served.`,
      '',
      rowsTable,
      '',
      other,
      '',
      targets.length
        ? `Targets (issue 42):\n\n${targets.join('\n')}`
        : 'Targets are judged at 10× against 1×.',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
