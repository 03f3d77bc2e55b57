/**
 * BENCHMARKS.md at the repository root: a hand-written summary, then one generated section per
 * benchmark between `<!-- <name>:start -->` and `<!-- <name>:end -->`. Each benchmark, when it
 * finishes, rewrites its own section (and nothing else) with its figures under one line saying
 * when, at which commit, on which machine and by which command they were made; a section whose
 * markers are missing is added at the end. BENCH_WRITE=0 (or the older BENCH_REPORT=0) prints the
 * figures and leaves the file alone. The embedded-mongo package's benchmarks write their sections
 * the same way with their own copy of this (packages/embedded-mongo/bench/report.ts: a package
 * never imports scripts/).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../..');
export const BENCHMARKS_FILE = path.join(REPO_ROOT, 'BENCHMARKS.md');

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
} as const;
export type SectionName = keyof typeof HEADINGS;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` with section `name` holding `content` (between its markers, blank lines around it); a
 * section not in `text` is added at its end under `heading`. Everything else is left as it is.
 */
export function replaceSection(
  text: string,
  name: string,
  content: string,
  heading: string,
): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n\n${content.trim()}\n\n${end}`;
  const pattern = new RegExp(`${escapeRegExp(start)}[\\s\\S]*?${escapeRegExp(end)}`);
  // A function as the replacement: `content` may hold `$` sequences.
  if (pattern.test(text)) return text.replace(pattern, () => block);
  return `${text.trimEnd()}\n\n${heading}\n\n${block}\n`;
}

/** A word of a command line as a shell would need it. */
function quoted(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that ran this benchmark, as one would type it again: the BENCH_* variables set (and
 * whether MONGODB_URI was, never its value), the npm script (or the file node or tsx ran) and
 * its arguments.
 */
export function commandLine(
  env: NodeJS.ProcessEnv = process.env,
  argv: string[] = process.argv,
  execArgv: string[] = process.execArgv,
): string {
  const variables = Object.keys(env)
    .filter((key) => key.startsWith('BENCH_') && key !== 'BENCH_WRITE' && key !== 'BENCH_REPORT')
    .sort()
    .map((key) => `${key}=${quoted(env[key] ?? '')}`);
  if (env.MONGODB_URI) variables.push('MONGODB_URI=…');
  const args = argv.slice(2).map(quoted);
  const script = env.npm_lifecycle_event;
  // The root package.json runs `npm run <script> -w scripts` under the same script name.
  const workspace =
    env.npm_package_name && !['scripts', 'campus'].includes(env.npm_package_name)
      ? ` -w ${env.npm_package_name}`
      : '';
  const file = path.relative(REPO_ROOT, argv[1] ?? '?');
  const command = script
    ? `npm run ${script}${workspace}${args.length > 0 ? ` -- ${args.join(' ')}` : ''}`
    : execArgv.some((arg) => arg.includes('tsx/dist')) // the tsx command's own loader
      ? ['tsx', file, ...args].join(' ')
      : ['node', ...execArgv.map(quoted), file, ...args].join(' ');
  return [...variables, command].join(' ');
}

/** The checked-out commit, and whether tracked files other than BENCHMARKS.md differ from it. */
export function commit(): string {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: 'pipe' }).trim();
  try {
    const head = git('rev-parse', '--short', 'HEAD');
    const changed = git(
      'status',
      '--porcelain',
      '--untracked-files=no',
      '--',
      '.',
      ':!BENCHMARKS.md',
    );
    return changed ? `${head} + uncommitted changes` : head;
  } catch {
    return 'unknown commit';
  }
}

/** The line above a section's figures: when, at which commit, on what, by which command. */
export function runHeader(now = new Date()): string {
  const cpus = os.cpus();
  const date = `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const machine =
    `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ` +
    `${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ` +
    `load average ${os.loadavg()[0]!.toFixed(2)} at the end`;
  return `_Generated ${date} at \`${commit()}\` by \`${commandLine()}\` on ${machine}._`;
}

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

export interface WriteOptions {
  /** Leave the file alone and say why (a run of another checkout's code, or of some rows only). */
  skip?: string;
  /** Another file than the repository's BENCHMARKS.md (tests). */
  file?: string;
  /** The line above the figures (tests); default {@link runHeader}. */
  header?: string;
  /** Format the file with Prettier after writing (default true). */
  format?: boolean;
}

/**
 * Rewrites section `name` of BENCHMARKS.md with `body` under the run's header line. Returns
 * whether it wrote.
 */
export function writeSection(name: SectionName, body: string, options: WriteOptions = {}): boolean {
  const file = options.file ?? BENCHMARKS_FILE;
  const shown = path.relative(process.cwd(), file) || file;
  const off = ['BENCH_WRITE', 'BENCH_REPORT'].find((key) => process.env[key] === '0');
  // Figures of another checkout's code (processes.ts) are not this commit's.
  const skip =
    (off && `${off}=0`) ||
    options.skip ||
    (process.env.BENCH_API_ROOT && "BENCH_API_ROOT runs another checkout's API") ||
    (process.env.BENCH_DB_ROOT && "BENCH_DB_ROOT runs another checkout's database server");
  if (skip) {
    console.log(`\n${skip}: the ${name} section of ${shown} was not rewritten`);
    return false;
  }
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  // A body that opens with a paragraph continues the header's after a line break (a line less).
  const opensWithProse = !/^([\s|`#<>*+-]|\d+[.)]\s)/.test(body.trim());
  let text = replaceSection(
    before,
    name,
    `${options.header ?? runHeader()}${opensWithProse ? '\\\n' : '\n\n'}${body.trim()}`,
    HEADINGS[name],
  );
  if (options.format ?? true) text = prettier(text, file);
  fs.writeFileSync(file, text);
  console.log(`\nwrote the ${name} section of ${shown}`);
  return true;
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
