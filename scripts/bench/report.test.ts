// What is the root benchmarks' own: their sections, Prettier over the file, the runs of another
// checkout. The writer they share with every benchmark (the header line, the marked sections,
// BENCH_WRITE=0) is tested where it lives: packages/embedded-mongo/test/bench-report.test.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { table, writeSection, type SectionName } from './report';

/** A file with the summary and the mixed figures of an earlier run. */
const EARLIER =
  '# Benchmarks\n\nBy hand.\n\n## Mixed\n\n<!-- bench:mixed:start -->\n\nold\n\n<!-- bench:mixed:end -->\n';

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
    expect(text).toContain(
      '## `BENCH_READ_CACHE_MS=0 npm run bench:api`: each endpoint, no read caches\n\n<!-- bench:api:uncached:start -->',
    );
    for (const name of names) {
      expect(text.split(`<!-- ${name}:start -->`)).toHaveLength(2);
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
    // The same figures again: the same file.
    writeSection('bench:web', `Figures of bench:web:\n\n${table(['row', 'µs'], [['a', 1]])}`, {
      file,
      header,
    });
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });

  it('leaves the table as it is with format: false', () => {
    fs.writeFileSync(file, EARLIER);
    writeSection('bench:mixed', table(['row', 'µs'], [['a', 1]]), {
      file,
      header,
      format: false,
    });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toBe(
      EARLIER.replace('old', `${header}\n\n| row | µs |\n| --- | --- |\n| a | 1 |`),
    );
  });

  it.each([
    ['BENCH_API_ROOT', "BENCH_API_ROOT runs another checkout's API"],
    ['BENCH_DB_ROOT', "BENCH_DB_ROOT runs another checkout's database server"],
  ])("leaves the file alone with %s: another checkout's figures", (key, why) => {
    fs.writeFileSync(file, EARLIER);
    process.env[key] = '/elsewhere';
    expect(writeSection('bench:api', 'new', { file, header })).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe(EARLIER);
    expect(console.log).toHaveBeenCalledWith(expect.stringContaining(why));
  });

  it("says the benchmark's own reason first", () => {
    process.env.BENCH_API_ROOT = '/elsewhere';
    expect(writeSection('bench:api', 'new', { file, header, skip: 'some rows only' })).toBe(false);
    expect(fs.existsSync(file)).toBe(false);
    expect(console.log).toHaveBeenCalledWith(expect.stringContaining('some rows only'));
  });
});
