/**
 * The root benchmarks' sections of BENCHMARKS.md. The writer itself (the run's header line, the
 * marked sections, BENCH_WRITE=0) is the repository's one, in the embedded-mongo package
 * (packages/embedded-mongo/bench/report.ts: a package never imports scripts/, the scripts may
 * import a package); here are what is these benchmarks' own: their section names and headings,
 * the runs whose figures are another checkout's, Markdown tables and numbers, and Prettier over
 * the file (their tables are Markdown, which the repository's lint checks formatted).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  REPO_ROOT,
  writeMarkedSection,
  type SectionOptions,
} from '@campus/embedded-mongo/bench/report';

/** The sections the scripts in this folder write, with the heading a missing one gets. */
const HEADINGS = {
  'bench:data': '## `npm run bench:data`: the dataset',
  'bench:api': '## `npm run bench:api`: each endpoint, read caches on',
  'bench:api:uncached':
    '## `BENCH_READ_CACHE_MS=0 npm run bench:api`: each endpoint, no read caches',
  'bench:mixed': '## `npm run bench:mixed`: reads and writes together',
  'bench:stream': '## `npm run bench:stream`: the live stream',
  'bench:bundle': '## `npm run bench:bundle`: bytes of a first visit',
  'bench:web': '## `npm run bench:web`: the pages in Chromium',
  'bench:enumeration':
    '## `npm run bench:enumeration`: answers for addresses with and without an account',
  'bench:reload': '## `npm run bench:reload`: rolling restarts and a killed API process',
  'bench:media': '## `npm run bench:media`: processing pictures, and the API while members upload',
  'bench:scale': '## `npm run bench:scale`: cost per request against the size of the data',
} as const;
export type SectionName = keyof typeof HEADINGS;

/**
 * Formats Markdown as the repository's lint expects (prettier --check .), with its Prettier
 * config; `--ignore-path` to no file, so a .prettierignore entry cannot make it skip the file.
 */
function prettier(text: string, file: string): string {
  return execFileSync(
    process.execPath,
    [
      require.resolve('prettier/bin/prettier.cjs'),
      '--stdin-filepath',
      file,
      '--ignore-path',
      path.join(REPO_ROOT, '.no-prettierignore'),
    ],
    { cwd: REPO_ROOT, input: text, encoding: 'utf8', stdio: ['pipe', 'pipe', 'inherit'] },
  );
}

export interface WriteOptions extends SectionOptions {
  /** Format the file with Prettier after writing (default true). */
  format?: boolean;
}

/**
 * Rewrites section `name` of BENCHMARKS.md with `body` under the run's header line. Returns
 * whether it wrote.
 */
export function writeSection(name: SectionName, body: string, options: WriteOptions = {}): boolean {
  const { format = true, ...rest } = options;
  return writeMarkedSection({
    ...rest,
    name,
    heading: HEADINGS[name],
    body,
    // Figures of another checkout's code (processes.ts) are not this commit's.
    skip:
      options.skip ||
      (process.env.BENCH_API_ROOT && "BENCH_API_ROOT runs another checkout's API") ||
      (process.env.BENCH_DB_ROOT && "BENCH_DB_ROOT runs another checkout's database server") ||
      undefined,
    format: format ? prettier : undefined,
  });
}

/**
 * BENCH_JSON=<file>: a benchmark also writes its figures there as JSON, for a script that runs
 * it as a child and reports on several runs (`bench:scale`, scale.ts).
 */
export function writeJsonFigures(figures: unknown): void {
  const file = process.env.BENCH_JSON;
  if (file) fs.writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
}

/** A Markdown table. */
export function table(header: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', {
    maximumFractionDigits: digits,
    minimumFractionDigits: digits,
  });
}
