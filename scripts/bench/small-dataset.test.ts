/**
 * Issue 42: the dataset generator and the benchmark scripts, end to end on a small dataset, so
 * neither can rot between two benchmark sittings. `bench:scale` at scale 0.01 (50 members, 1,000
 * posts, 10,000 likes) makes the dataset with `bench:data` (which restarts the database, compacted
 * offline, after every collection here, as a 10x load does on the way, and at its end), starts
 * the database and an API on it, runs `bench:api` over issue 42's rows and `bench:mixed` with one
 * API process, each a second or two. Outcomes only: no figure is judged.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readLoadFigures } from './database';
import { ROWS } from './scale-rows';

const SCALE = 0.01;

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-small-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

interface ScaleJson {
  scale: number;
  load: { documents: number; mismatches: number; restarts: number };
  start: { firstFeedSeconds: number };
  api: { rows: Array<{ name: string; errors: number; measured: boolean }> };
  mixed: { total: number; errors: number; mismatches: number; apiResidentBytes: number };
}

test('bench:scale makes a small dataset, serves it and runs the rows and the mix on it', async () => {
  const json = path.join(dir, 'scale.json');
  await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'scale.ts'), '--scales', String(SCALE)],
    {
      cwd: path.join(__dirname, '..'),
      env: {
        ...process.env,
        BENCH_DIR: dir,
        // The admin the benchmarks sign in as, among the 50 members.
        ADMIN_USER_ID: '7',
        BENCH_WRITE: '0',
        BENCH_JSON: json,
        BENCH_DURATION: '1',
        BENCH_HELLO_DURATION: '1',
        BENCH_WARMUP: '0',
        BENCH_REPEATS: '1',
        BENCH_CONNECTIONS: '4',
        BENCH_MIXED_DURATION: '2',
        BENCH_MIXED_WARMUP: '1',
        // A restart of the database (stopped, compacted offline, started) after every chunk
        // that grew its memory at all: the path a 10x load takes about ten times.
        BENCH_DB_RESTART_MB: '0',
      },
      maxBuffer: 64 * 2 ** 20,
    },
  );

  const load = readLoadFigures(path.join(dir, `db-${SCALE}x`));
  expect(load).toMatchObject({ scale: SCALE, mismatches: 0 });
  expect(load!.documents).toBeGreaterThan(10_000);
  expect(load!.dataBytes).toBeGreaterThan(0);
  expect(load!.restarts).toBeGreaterThan(0);

  const [figures] = JSON.parse(fs.readFileSync(json, 'utf8')) as ScaleJson[];
  expect(figures!.start.firstFeedSeconds).toBeGreaterThan(0);
  // Every row of issue 42 that the small dataset has material for answered, without an error.
  const names = figures!.api.rows.map((r) => r.name);
  for (const [, only] of ROWS.filter(
    ([label]) => !['post detail', 'comments page'].includes(label),
  ))
    expect(names).toContain(only);
  for (const row of figures!.api.rows)
    expect({ row: row.name, errors: row.errors }).toEqual({ row: row.name, errors: 0 });
  expect(figures!.mixed.total).toBeGreaterThan(0);
  expect(figures!.mixed).toMatchObject({ errors: 0, mismatches: 0 });
  expect(figures!.mixed.apiResidentBytes).toBeGreaterThan(0);
}, 600_000);
