/**
 * This package's benchmarks write their figures into their own sections of the repository's
 * BENCHMARKS.md, with the same markers and header line as the scripts' writer
 * (scripts/bench/report.ts, which a package must not import): `<!-- embedded-mongo:<name>:start -->`
 * ... `<!-- embedded-mongo:<name>:end -->`, replacing that section only (added at the end when
 * missing). The figures go in as printed, in a code block, which Prettier leaves as it is.
 * BENCH_WRITE=0 (or BENCH_REPORT=0) prints them only.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const PACKAGE = '@campus/embedded-mongo';

const HEADINGS = {
  bench: `## \`npm run bench -w ${PACKAGE}\`: inserts, a find, a transaction, change events`,
  'bench:cpu': `## \`npm run bench:cpu -w ${PACKAGE}\`: the server's CPU per command`,
  'bench:restart': `## \`npm run bench:restart -w ${PACKAGE}\`: a restart on the bench dataset`,
  'bench:snapshot-reads': `## \`npm run bench:snapshot-reads -w ${PACKAGE}\`: reads after a restart`,
  'heap-bench': `## \`bench/heap-bench.ts\` (${PACKAGE}): the warm server's memory`,
} as const;
export type BenchName = keyof typeof HEADINGS;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with section `name` holding `content`; added at the end under `heading` if missing. */
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
  if (pattern.test(text)) return text.replace(pattern, () => block);
  return `${text.trimEnd()}\n\n${heading}\n\n${block}\n`;
}

const quoted = (word: string) =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;

/** The command that ran the benchmark: BENCH_* variables, the npm script or file, arguments. */
export function commandLine(
  env: NodeJS.ProcessEnv = process.env,
  argv: string[] = process.argv,
  execArgv: string[] = process.execArgv,
): string {
  const variables = Object.keys(env)
    .filter((key) => key.startsWith('BENCH_') && key !== 'BENCH_WRITE' && key !== 'BENCH_REPORT')
    .sort()
    .map((key) => `${key}=${quoted(env[key] ?? '')}`);
  const args = argv.slice(2).map(quoted);
  const file = path.relative(REPO_ROOT, argv[1] ?? '?');
  const command = env.npm_lifecycle_event
    ? `npm run ${env.npm_lifecycle_event} -w ${PACKAGE}${args.length > 0 ? ` -- ${args.join(' ')}` : ''}`
    : execArgv.some((arg) => arg.includes('tsx/dist')) // the tsx command's own loader
      ? ['tsx', file, ...args].join(' ')
      : ['node', ...execArgv.map(quoted), file, ...args].join(' ');
  return [...variables, command].join(' ');
}

function commit(): string {
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

/** The line above the figures: when, at which commit, by which command, on what. */
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
 * Rewrites this benchmark's section of BENCHMARKS.md with the lines it printed. `skip` says why
 * a run's figures are not this checkout's current ones (another CLI, one row, a profile).
 * Returns whether it wrote.
 */
export function writeSection(
  name: BenchName,
  printed: string[],
  options: { skip?: string; file?: string; header?: string } = {},
): boolean {
  const file = options.file ?? path.join(REPO_ROOT, 'BENCHMARKS.md');
  const section = `embedded-mongo:${name}`;
  const off = ['BENCH_WRITE', 'BENCH_REPORT'].find((key) => process.env[key] === '0');
  const skip = (off && `${off}=0`) || options.skip;
  if (skip) {
    console.log(`${skip}: the ${section} section of BENCHMARKS.md was not rewritten`);
    return false;
  }
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const content = [options.header ?? runHeader(), '', '```text', ...printed, '```'].join('\n');
  fs.writeFileSync(file, replaceSection(before, section, content, HEADINGS[name]));
  console.log(`wrote the ${section} section of ${path.relative(process.cwd(), file) || file}`);
  return true;
}
