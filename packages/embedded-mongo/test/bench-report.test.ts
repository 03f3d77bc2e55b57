// The repository's BENCHMARKS.md writer, which every benchmark uses: this package's through
// writeSection, the root ones (scripts/bench/report.ts, tested there for what is theirs only)
// through writeMarkedSection.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  REPO_ROOT,
  commandLine,
  commit,
  replaceSection,
  runHeader,
  writeMarkedSection,
  writeSection,
} from '../bench/report';

const FILE = [
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
  '## cpu',
  '',
  '<!-- embedded-mongo:bench:cpu:start -->',
  '',
  'old cpu figures',
  '',
  '<!-- embedded-mongo:bench:cpu:end -->',
  '',
].join('\n');

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: __dirname, encoding: 'utf8' }).trim();

/** What `prettier --check` wants of `text` (the repository's lint checks BENCHMARKS.md). */
const prettier = (text: string, file: string) =>
  execFileSync(
    process.execPath,
    [
      require.resolve('prettier/bin/prettier.cjs'),
      '--stdin-filepath',
      file,
      // Not .prettierignore's say: the check itself.
      '--ignore-path',
      path.join(path.dirname(file), 'none'),
    ],
    { input: text, encoding: 'utf8' },
  );

describe('replaceSection', () => {
  it('replaces its own section only', () => {
    const text = replaceSection(FILE, 'bench:api', 'new api figures', '## unused');
    expect(text).toBe(FILE.replace('old api figures', 'new api figures'));
  });

  it('does not take a section for another whose name it begins', () => {
    const both = replaceSection(FILE, 'embedded-mongo:bench', 'find', '## Find');
    const again = replaceSection(both, 'embedded-mongo:bench:cpu', 'cpu', '## unused');
    expect(again).toContain(
      '<!-- embedded-mongo:bench:start -->\n\nfind\n\n<!-- embedded-mongo:bench:end -->',
    );
    expect(again).toContain('<!-- embedded-mongo:bench:cpu:start -->\n\ncpu\n\n');
    expect(replaceSection(again, 'embedded-mongo:bench', 'x', '## x')).toContain('\ncpu\n');
    expect(again).toContain('old api figures');
  });

  it('adds a missing section at the end under its heading', () => {
    const text = replaceSection(FILE, 'bench:stream', 'stream figures', '## Stream');
    expect(text).toBe(
      `${FILE.trimEnd()}\n\n## Stream\n\n<!-- bench:stream:start -->\n\nstream figures\n\n<!-- bench:stream:end -->\n`,
    );
  });

  it('is idempotent: the same figures written twice give the same text', () => {
    for (const name of ['bench:api', 'bench:web']) {
      const once = replaceSection(FILE, name, 'figures', '## Heading');
      expect(replaceSection(once, name, 'figures', '## Heading')).toBe(once);
    }
  });

  it('keeps `$` sequences of the figures as they are', () => {
    const text = replaceSection(FILE, 'bench:api', "cost $& and $1 and $'", '## x');
    expect(text).toContain("cost $& and $1 and $'\n");
  });
});

describe('commandLine', () => {
  it('names a script the root package.json forwards as typed at the root, with the BENCH_* variables', () => {
    const root = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // e.g. "bench:api": "npm run bench:api -w scripts"
    const [script, pkg] = Object.entries(root.scripts)
      .map(([name, run]) => [name, run.match(new RegExp(`^npm run ${name} -w (\\S+)$`))?.[1]])
      .find(([, pkg]) => pkg) as [string, string];
    const env = {
      npm_lifecycle_event: script,
      npm_package_name: pkg,
      BENCH_DURATION: '5',
      BENCH_API_NODE_ARGS: '--cpu-prof --cpu-prof-dir=/tmp/p',
      BENCH_WRITE: '1',
      BENCH_REPORT: '1',
      PATH: '/usr/bin',
    };
    expect(commandLine(env, ['node', 'bench/x.ts'])).toBe(
      `BENCH_API_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/p' BENCH_DURATION=5 npm run ${script}`,
    );
  });

  it("names another workspace's script with -w and its arguments after --", () => {
    const env = {
      npm_lifecycle_event: 'bench:cpu',
      npm_package_name: '@campus/embedded-mongo',
      BENCH_X: 'a b',
    };
    expect(commandLine(env, ['node', 'bench/cpu-bench.ts', '--ops', '3000'])).toBe(
      "BENCH_X='a b' npm run bench:cpu -w @campus/embedded-mongo -- --ops 3000",
    );
  });

  it('says MONGODB_URI was set without its value, and names the file tsx or node ran outside npm', () => {
    const file = path.resolve(__dirname, '../bench/cpu-bench.ts');
    const tsx = ['--require', '/x/node_modules/tsx/dist/preflight.cjs'];
    expect(commandLine({ MONGODB_URI: 'mongodb://user:secret@db' }, ['node', file], tsx)).toBe(
      'MONGODB_URI=… tsx packages/embedded-mongo/bench/cpu-bench.ts',
    );
    expect(commandLine({}, ['node', file, '--x'], ['--import', 'tsx'])).toBe(
      'node --import tsx packages/embedded-mongo/bench/cpu-bench.ts --x',
    );
  });
});

describe('runHeader', () => {
  it('says when, at which commit, on what and by which command', () => {
    const head = git('rev-parse', '--short', 'HEAD');
    expect(commit()).toMatch(new RegExp(`^${head}( \\+ uncommitted changes)?$`));
    const header = runHeader(new Date('2026-11-29T10:04:59Z'));
    expect(header).toMatch(/^_Generated 2026-11-29 10:04 UTC at `/);
    expect(header).toContain(`at \`${commit()}\``);
    expect(header).toContain(`${os.cpus().length} cores (`);
    expect(header).toContain(`Node ${process.version}`);
    expect(header).toMatch(/ by `.+` on /);
  });
});

describe('writing BENCHMARKS.md', () => {
  let dir: string;
  let file: string;
  const saved = { ...process.env };
  const header = '_Generated 2026-11-29 10:04 UTC at `abc1234` by `npm run x` on 2 cores._';

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-report-'));
    file = path.join(dir, 'BENCHMARKS.md');
    delete process.env.BENCH_WRITE;
    delete process.env.BENCH_REPORT;
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
  });

  afterEach(() => {
    process.env = { ...saved };
    jest.restoreAllMocks();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('writeMarkedSection', () => {
    const section = { name: 'bench:api', heading: '## unused', header };

    it('creates the file, and puts a paragraph after the header line, anything else below it', () => {
      expect(writeMarkedSection({ ...section, file, body: 'Figures:\n\n| a |' })).toBe(true);
      writeMarkedSection({ ...section, file, name: 'b', heading: '## B', body: '```text\n1\n```' });
      expect(fs.readFileSync(file, 'utf8')).toBe(
        [
          '# Benchmarks',
          '',
          '## unused',
          '',
          '<!-- bench:api:start -->',
          '',
          `${header}\\`,
          'Figures:',
          '',
          '| a |',
          '',
          '<!-- bench:api:end -->',
          '',
          '## B',
          '',
          '<!-- b:start -->',
          '',
          header,
          '',
          '```text',
          '1',
          '```',
          '',
          '<!-- b:end -->',
          '',
        ].join('\n'),
      );
    });

    it('formats the whole file when asked, after the section is in', () => {
      fs.writeFileSync(file, FILE);
      const format = jest.fn((text: string) => text.toUpperCase());
      writeMarkedSection({ ...section, file, body: '- new', format });
      expect(format).toHaveBeenCalledWith(
        FILE.replace('old api figures', `${header}\n\n- new`),
        file,
      );
      expect(fs.readFileSync(file, 'utf8')).toBe(
        FILE.replace('old api figures', `${header}\n\n- new`).toUpperCase(),
      );
    });

    it.each(['BENCH_WRITE', 'BENCH_REPORT'])('leaves the file alone with %s=0', (key) => {
      fs.writeFileSync(file, FILE);
      process.env[key] = '0';
      expect(writeMarkedSection({ ...section, file, body: 'new' })).toBe(false);
      expect(fs.readFileSync(file, 'utf8')).toBe(FILE);
      expect(console.log).toHaveBeenCalledWith(expect.stringContaining(`${key}=0`));
    });

    it('leaves the file alone when the benchmark says why', () => {
      expect(writeMarkedSection({ ...section, file, body: 'new', skip: 'some rows only' })).toBe(
        false,
      );
      expect(fs.existsSync(file)).toBe(false);
      expect(console.log).toHaveBeenCalledWith(expect.stringContaining('some rows only'));
    });
  });

  describe("this package's writeSection", () => {
    it('rewrites its own section only, the figures in a code block, the same way twice', () => {
      fs.writeFileSync(file, FILE);
      writeSection('bench:cpu', ['ping  70', 'find  200'], { file, header });
      const once = fs.readFileSync(file, 'utf8');
      expect(once).toBe(
        FILE.replace('old cpu figures', `${header}\n\n\`\`\`text\nping  70\nfind  200\n\`\`\``),
      );
      writeSection('bench:cpu', ['ping  70', 'find  200'], { file, header });
      expect(fs.readFileSync(file, 'utf8')).toBe(once);
    });

    it('adds a missing section at the end under its heading, in the order written', () => {
      writeSection('bench', ['a  1'], { file, header });
      writeSection('bench:restart', ['b  2'], { file, header });
      const text = fs.readFileSync(file, 'utf8');
      expect(text.startsWith('# Benchmarks\n\n## `npm run bench -w @campus/embedded-mongo`')).toBe(
        true,
      );
      expect(text.indexOf('<!-- embedded-mongo:bench:start -->')).toBeLessThan(
        text.indexOf('<!-- embedded-mongo:bench:restart:start -->'),
      );
    });

    it('writes what Prettier leaves as it is', () => {
      fs.writeFileSync(file, FILE);
      writeSection('heap-bench', JSON.stringify({ a: 1, b: [1, 2] }, null, 2).split('\n'), {
        file,
      });
      writeSection('bench:cpu', ['ping (no data): server CPU µs/command  70'], { file });
      const text = fs.readFileSync(file, 'utf8');
      expect(text).toContain(`\n_Generated `);
      expect(prettier(text, file)).toBe(text);
    });

    it('leaves the file alone when the run says why', () => {
      fs.writeFileSync(file, FILE);
      expect(writeSection('bench:cpu', ['x'], { file, header, skip: '--only' })).toBe(false);
      expect(fs.readFileSync(file, 'utf8')).toBe(FILE);
    });
  });
});
