/**
 * BENCHMARKS.md at the repository root: a hand-written summary, then one generated section per
 * benchmark between `<!-- <name>:start -->` and `<!-- <name>:end -->`. Each benchmark, when it
 * finishes, rewrites its own section (and nothing else) with its figures under one line saying
 * when, at which commit, on which machine and by which command they were made; a section whose
 * markers are missing is added at the end. BENCH_WRITE=0 (or the older BENCH_REPORT=0) prints the
 * figures and leaves the file alone.
 *
 * The writer lives here, once, for every benchmark of the repository: a package never imports an
 * app, but the apps may import a package, and the root benchmarks' own writer
 * (scripts/bench/report.ts: their section names, Markdown tables, Prettier) imports this one as
 * `@campus/embedded-mongo/bench/report`. This package's own benchmarks write their sections with
 * {@link writeSection} below: `<!-- embedded-mongo:<name>:start -->` ...
 * `<!-- embedded-mongo:<name>:end -->`, the figures as printed in a code block, which Prettier
 * leaves as it is.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const BENCHMARKS_FILE = path.join(REPO_ROOT, 'BENCHMARKS.md');

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
 * Whether `npm run <script>` at the repository root runs `script` of workspace `pkg`: the root
 * package's own script, or one the root package.json forwards under the same name
 * (`"bench:api": "npm run bench:api -w scripts"`).
 */
function runsFromRoot(script: string, pkg: string): boolean {
  try {
    const root = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      name?: string;
      scripts?: Record<string, string>;
    };
    return pkg === root.name || root.scripts?.[script] === `npm run ${script} -w ${pkg}`;
  } catch {
    return false;
  }
}

/**
 * The command that ran this benchmark, as one would type it again at the repository root: the
 * BENCH_* variables set (and whether MONGODB_URI was, never its value), the npm script (with `-w`
 * when the root does not run it under that name) or the file node or tsx ran, and its arguments.
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
  const pkg = env.npm_package_name;
  const workspace = script && pkg && !runsFromRoot(script, pkg) ? ` -w ${pkg}` : '';
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

export interface SectionOptions {
  /** Leave the file alone and say why (a run of another checkout's code, or of some rows only). */
  skip?: string;
  /** Another file than the repository's BENCHMARKS.md (tests). */
  file?: string;
  /** The line above the figures (tests); default {@link runHeader}. */
  header?: string;
}

export interface MarkedSection extends SectionOptions {
  /** The markers' name: `<!-- <name>:start -->`. */
  name: string;
  /** The heading the section gets when it is added at the end. */
  heading: string;
  /** The figures, below the header line. */
  body: string;
  /** Rewrites the whole file's text before it is written (the root benchmarks: Prettier). */
  format?: (text: string, file: string) => string;
}

/**
 * Rewrites section `name` of BENCHMARKS.md with `body` under the run's header line, unless
 * BENCH_WRITE=0 (BENCH_REPORT=0) or `skip` says not to. Returns whether it wrote.
 */
export function writeMarkedSection(section: MarkedSection): boolean {
  const { name, file = BENCHMARKS_FILE } = section;
  const shown = path.relative(process.cwd(), file) || file;
  const off = ['BENCH_WRITE', 'BENCH_REPORT'].find((key) => process.env[key] === '0');
  const skip = (off && `${off}=0`) || section.skip;
  if (skip) {
    console.log(`\n${skip}: the ${name} section of ${shown} was not rewritten`);
    return false;
  }
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const body = section.body.trim();
  // A body that opens with a paragraph continues the header's after a line break (a line less).
  const opensWithProse = !/^([\s|`#<>*+-]|\d+[.)]\s)/.test(body);
  const header = section.header ?? runHeader();
  let text = replaceSection(
    before,
    name,
    `${header}${opensWithProse ? '\\\n' : '\n\n'}${body}`,
    section.heading,
  );
  if (section.format) text = section.format(text, file);
  fs.writeFileSync(file, text);
  console.log(`\nwrote the ${name} section of ${shown}`);
  return true;
}

const PACKAGE = '@campus/embedded-mongo';

/** The sections this package's benchmarks write, with the heading a missing one gets. */
const HEADINGS = {
  bench: `## \`npm run bench -w ${PACKAGE}\`: inserts, a find, a transaction, change events`,
  'bench:cpu': `## \`npm run bench:cpu -w ${PACKAGE}\`: the server's CPU per command`,
  'bench:restart': `## \`npm run bench:restart -w ${PACKAGE}\`: a restart on the bench dataset`,
  'bench:snapshot-reads': `## \`npm run bench:snapshot-reads -w ${PACKAGE}\`: reads after a restart`,
  'heap-bench': `## \`bench/heap-bench.ts\` (${PACKAGE}): the warm server's memory`,
  'bench:compaction': `## \`npm run bench:compaction -w ${PACKAGE}\`: reads while compacting`,
  'bench:text': `## \`npm run bench:text -w ${PACKAGE}\`: text search over short posts`,
} as const;
export type BenchName = keyof typeof HEADINGS;

/**
 * Rewrites this package's benchmark's section of BENCHMARKS.md (`embedded-mongo:<name>`) with the
 * lines it printed, in a code block. `skip` says why a run's figures are not this checkout's
 * current ones (another CLI, one row, a profile). Returns whether it wrote.
 */
export function writeSection(
  name: BenchName,
  printed: string[],
  options: SectionOptions = {},
): boolean {
  return writeMarkedSection({
    ...options,
    name: `embedded-mongo:${name}`,
    heading: HEADINGS[name],
    body: ['```text', ...printed, '```'].join('\n'),
  });
}
