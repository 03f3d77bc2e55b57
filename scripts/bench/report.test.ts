import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  commandLine,
  replaceSection,
  runHeader,
  table,
  writeSection,
  type SectionName,
} from './report';

const FILE_WITH_TWO = [
  '# Benchmarks',
  '',
  'A summary written by hand.',
  '',
  '## `npm run bench:api`',
  '',
  '<!-- bench:api:start -->',
  '',
  'old api figures',
  '',
  '<!-- bench:api:end -->',
  '',
  '## `npm run bench:mixed`',
  '',
  '<!-- bench:mixed:start -->',
  '',
  'old mixed figures',
  '',
  '<!-- bench:mixed:end -->',
  '',
].join('\n');

describe('replaceSection', () => {
  it('replaces its own section only', () => {
    const text = replaceSection(FILE_WITH_TWO, 'bench:api', 'new api figures', '## unused');
    expect(text).toBe(FILE_WITH_TWO.replace('old api figures', 'new api figures'));
  });

  it('does not take bench:api:uncached for bench:api, nor the reverse', () => {
    const both = replaceSection(FILE_WITH_TWO, 'bench:api:uncached', 'uncached', '## Uncached');
    const again = replaceSection(both, 'bench:api', 'cached', '## unused');
    expect(again).toContain('<!-- bench:api:uncached:start -->\n\nuncached\n\n');
    expect(again).toContain('<!-- bench:api:start -->\n\ncached\n\n<!-- bench:api:end -->');
    expect(again).toContain('old mixed figures');
  });

  it('adds a missing section at the end under its heading', () => {
    const text = replaceSection(FILE_WITH_TWO, 'bench:stream', 'stream figures', '## Stream');
    expect(text).toBe(
      `${FILE_WITH_TWO.trimEnd()}\n\n## Stream\n\n<!-- bench:stream:start -->\n\nstream figures\n\n<!-- bench:stream:end -->\n`,
    );
  });

  it('is idempotent: the same figures written twice give the same text', () => {
    for (const name of ['bench:api', 'bench:web']) {
      const once = replaceSection(FILE_WITH_TWO, name, 'figures', '## Heading');
      expect(replaceSection(once, name, 'figures', '## Heading')).toBe(once);
    }
  });

  it('keeps `$` sequences of the figures as they are', () => {
    const text = replaceSection(FILE_WITH_TWO, 'bench:api', "cost $& and $1 and $'", '## x');
    expect(text).toContain("cost $& and $1 and $'\n");
  });
});

describe('commandLine', () => {
  it('names the root npm script, the BENCH_* variables and the arguments', () => {
    const env = {
      npm_lifecycle_event: 'bench:api',
      npm_package_name: 'scripts',
      BENCH_DURATION: '5',
      BENCH_API_NODE_ARGS: '--cpu-prof --cpu-prof-dir=/tmp/p',
      BENCH_WRITE: '1',
      PATH: '/usr/bin',
    };
    expect(commandLine(env, ['node', 'bench/api.ts'])).toBe(
      "BENCH_API_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/p' BENCH_DURATION=5 npm run bench:api",
    );
  });

  it("names another workspace's script with -w and its arguments after --", () => {
    const env = { npm_lifecycle_event: 'bench:cpu', npm_package_name: '@campus/embedded-mongo' };
    expect(commandLine(env, ['node', 'bench/cpu-bench.ts', '--ops', '3000'])).toBe(
      'npm run bench:cpu -w @campus/embedded-mongo -- --ops 3000',
    );
  });

  it('says MONGODB_URI was set without its value, and names the file tsx ran outside npm', () => {
    const file = path.resolve(__dirname, 'stream.ts');
    const tsx = ['--require', '/x/node_modules/tsx/dist/preflight.cjs'];
    expect(commandLine({ MONGODB_URI: 'mongodb://user:secret@db' }, ['node', file], tsx)).toBe(
      'MONGODB_URI=… tsx scripts/bench/stream.ts',
    );
    expect(commandLine({}, ['node', file, '--x'], ['--import', 'tsx'])).toBe(
      'node --import tsx scripts/bench/stream.ts --x',
    );
  });
});

describe('runHeader', () => {
  it('says when, at which commit, on what and by which command', () => {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: __dirname,
      encoding: 'utf8',
    }).trim();
    const header = runHeader(new Date('2026-11-29T10:04:59Z'));
    expect(header).toMatch(/^_Generated 2026-11-29 10:04 UTC at `/);
    expect(header).toContain(`at \`${head}`);
    expect(header).toContain(`${os.cpus().length} cores (`);
    expect(header).toContain(`Node ${process.version}`);
    expect(header).toMatch(/ by `.+` on /);
  });
});

describe('writeSection', () => {
  let dir: string;
  let file: string;
  const saved = { ...process.env };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-report-'));
    file = path.join(dir, 'BENCHMARKS.md');
    for (const key of ['BENCH_WRITE', 'BENCH_REPORT', 'BENCH_API_ROOT', 'BENCH_DB_ROOT'])
      delete process.env[key];
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
  });

  afterEach(() => {
    process.env = { ...saved };
    jest.restoreAllMocks();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const header = '_Generated 2026-11-29 10:04 UTC at `abc1234` by `npm run x` on 2 cores._';
  const names: SectionName[] = [
    'bench:data',
    'bench:api',
    'bench:api:uncached',
    'bench:mixed',
    'bench:stream',
    'bench:bundle',
    'bench:web',
  ];

  it('creates the file and every section a benchmark writes, each once, formatted as lint wants', () => {
    for (const name of names) {
      const body = `Figures of ${name}:\n\n${table(['row', 'µs'], [['a', 1]])}`;
      expect(writeSection(name, body, { file, header })).toBe(true);
    }
    const text = fs.readFileSync(file, 'utf8');
    expect(text.startsWith('# Benchmarks\n')).toBe(true);
    for (const name of names) {
      expect(text.split(`<!-- ${name}:start -->`)).toHaveLength(2);
      // A body opening with a paragraph goes on after the header's line break.
      expect(text).toContain(`${header}\\\nFigures of ${name}:\n`);
    }
    // Prettier's table: padded cells.
    expect(text).toContain('| row | µs  |');
    const again = execFileSync(
      process.execPath,
      [
        require.resolve('prettier/bin/prettier.cjs'),
        '--stdin-filepath',
        file,
        // Not .prettierignore's say: the check itself.
        '--ignore-path',
        path.join(dir, 'none'),
      ],
      { input: text, encoding: 'utf8' },
    );
    expect(again).toBe(text);
  });

  it('rewrites one section, leaves the others, and gives the same file for the same figures', () => {
    fs.writeFileSync(file, FILE_WITH_TWO);
    writeSection('bench:mixed', '```text\na   1\nbb  2\n```', { file, header });
    const once = fs.readFileSync(file, 'utf8');
    expect(once).toContain('old api figures');
    expect(once).not.toContain('old mixed figures');
    expect(once).toContain(`${header}\n\n\`\`\`text\na   1\nbb  2\n\`\`\`\n`);
    writeSection('bench:mixed', '```text\na   1\nbb  2\n```', { file, header });
    expect(fs.readFileSync(file, 'utf8')).toBe(once);
  });

  it.each([
    ['BENCH_WRITE', '0'],
    ['BENCH_REPORT', '0'],
    ['BENCH_API_ROOT', '/elsewhere'],
    ['BENCH_DB_ROOT', '/elsewhere'],
  ])('leaves the file alone with %s=%s', (key, value) => {
    fs.writeFileSync(file, FILE_WITH_TWO);
    process.env[key] = value;
    expect(writeSection('bench:api', 'new', { file, header })).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe(FILE_WITH_TWO);
  });

  it('leaves the file alone when the benchmark says why', () => {
    expect(writeSection('bench:api', 'new', { file, header, skip: 'some rows only' })).toBe(false);
    expect(fs.existsSync(file)).toBe(false);
    expect(console.log).toHaveBeenCalledWith(expect.stringContaining('some rows only'));
  });
});
