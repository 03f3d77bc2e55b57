import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandLine, replaceSection, runHeader, writeSection } from '../bench/report';

const FILE = [
  '# Benchmarks',
  '',
  '## `npm run bench:api`',
  '',
  '<!-- bench:api:start -->',
  '',
  'api figures',
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

describe("the benchmarks' BENCHMARKS.md writer", () => {
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

  it('rewrites its own section only, the same way twice', () => {
    fs.writeFileSync(file, FILE);
    writeSection('bench:cpu', ['ping  70', 'find  200'], { file, header });
    const once = fs.readFileSync(file, 'utf8');
    expect(once).toBe(
      FILE.replace('old cpu figures', `${header}\n\n\`\`\`text\nping  70\nfind  200\n\`\`\``),
    );
    writeSection('bench:cpu', ['ping  70', 'find  200'], { file, header });
    expect(fs.readFileSync(file, 'utf8')).toBe(once);
  });

  it('adds a missing section at the end, and the file when there is none', () => {
    writeSection('bench', ['a  1'], { file, header });
    writeSection('bench:restart', ['b  2'], { file, header });
    const text = fs.readFileSync(file, 'utf8');
    expect(text.startsWith('# Benchmarks\n\n## `npm run bench -w @campus/embedded-mongo`')).toBe(
      true,
    );
    expect(text.indexOf('<!-- embedded-mongo:bench:start -->')).toBeLessThan(
      text.indexOf('<!-- embedded-mongo:bench:restart:start -->'),
    );
    expect(replaceSection(text, 'embedded-mongo:bench', 'x', '## x')).not.toContain('a  1');
    expect(replaceSection(text, 'embedded-mongo:bench', 'x', '## x')).toContain('b  2');
  });

  it('writes what Prettier leaves as it is (the repository lint checks BENCHMARKS.md)', () => {
    fs.writeFileSync(file, FILE);
    writeSection('heap-bench', JSON.stringify({ a: 1, b: [1, 2] }, null, 2).split('\n'), {
      file,
    });
    writeSection('bench:cpu', ['ping (no data): server CPU µs/command  70'], { file });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain(`\n_Generated `);
    const formatted = execFileSync(
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
    expect(formatted).toBe(text);
  });

  it('leaves the file alone with BENCH_WRITE=0, or when the run says why', () => {
    fs.writeFileSync(file, FILE);
    process.env.BENCH_WRITE = '0';
    expect(writeSection('bench:cpu', ['x'], { file, header })).toBe(false);
    delete process.env.BENCH_WRITE;
    expect(writeSection('bench:cpu', ['x'], { file, header, skip: '--only' })).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe(FILE);
  });

  it('says when, at which commit, on what and by which command', () => {
    const header = runHeader(new Date('2026-11-29T10:04:00Z'));
    expect(header).toMatch(/^_Generated 2026-11-29 10:04 UTC at `[0-9a-f]{7,}/);
    expect(header).toContain(`Node ${process.version}`);
    const env = { npm_lifecycle_event: 'bench:cpu', BENCH_X: 'a b' };
    expect(commandLine(env, ['node', 'bench/cpu-bench.ts', '--ops', '300'])).toBe(
      "BENCH_X='a b' npm run bench:cpu -w @campus/embedded-mongo -- --ops 300",
    );
  });
});
