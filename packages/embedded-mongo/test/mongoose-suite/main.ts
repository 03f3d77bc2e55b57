/**
 * mongoose's own test suite against the embedded server (not a jest test: it takes a long time).
 *
 *   npm run conformance:mongoose -w @campus/embedded-mongo -- --mongoose <dir>
 *       [--files <part of a file name>[,<another>]] [--grep <mocha pattern>]
 *       [--timeout <ms per test, default 10000>] [--no-install] [--no-write]
 *
 * `<dir>` (or MONGOOSE_SUITE_DIR) is a checkout of mongoose's repository at the tag of the
 * version the app uses (node_modules/mongoose/package.json): the npm package has no tests. The
 * script installs there what the suite needs from the npm registry (mongoose's dependencies in
 * `<dir>/node_modules`; mocha and the test helpers at the checkout's devDependency versions in
 * `<dir>/.conformance-deps`, found through NODE_PATH), starts an in-memory server (`start()`,
 * replica set `rs0`, TTL monitor every second as the suite's own mongod runs it), and runs every
 * `test/**\/*.test.js` but the encryption ones (as mongoose's `npm test` does) under mocha with
 * MONGOOSE_TEST_URI (test/common.js) and REPLICA_SET=rs0 (the suite's replica-set tests). It
 * prints the failures as they come, then `N passed, N failed, N skipped` and the rate, and
 * writes them with the list of failing tests into the package README ("Conformance", between the
 * `embedded-mongo:mongoose-suite` markers). A partial run (`--files`, `--grep`) or `--no-write`
 * leaves the README alone.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { start } from '../../src';
import { REPO_ROOT, replaceSection, runHeader } from '../../bench/report';

const README = path.resolve(__dirname, '../../README.md');
const SECTION = 'embedded-mongo:mongoose-suite';
const HEADING = "### mongoose's test suite";
/** The test files' own imports that are not mongoose's dependencies (checkout's versions). */
const TEST_PACKAGES = [
  'mocha',
  'sinon',
  'uuid',
  'moment',
  'ajv',
  'lodash.isequal',
  'lodash.isequalwith',
];

interface PackageJson {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

export interface TestResult {
  state: 'passed' | 'failed' | 'skipped';
  file: string;
  title: string;
  hook?: boolean;
  error?: string;
}

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as PackageJson;

function usage(message: string): never {
  console.error(`conformance:mongoose: ${message}`);
  console.error(
    'usage: npm run conformance:mongoose -w @campus/embedded-mongo -- --mongoose <mongoose checkout> ' +
      '[--files a,b] [--grep pattern] [--timeout ms] [--no-install] [--no-write]',
  );
  process.exit(2);
}

/** The mongoose version the app runs (the API's dependency). */
function appMongooseVersion(): string {
  const req = createRequire(path.join(REPO_ROOT, 'api', 'package.json'));
  return readJson(req.resolve('mongoose/package.json')).version ?? '?';
}

function npm(args: string[], cwd: string): void {
  console.log(`$ (cd ${cwd} && npm ${args.join(' ')})`);
  const r = spawnSync('npm', args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed in ${cwd}`);
}

/** Installs mongoose's dependencies and the suite's test packages when they are not there. */
function install(dir: string, pkg: PackageJson): string {
  const missing = Object.keys(pkg.dependencies ?? {}).filter(
    (name) => !fs.existsSync(path.join(dir, 'node_modules', name, 'package.json')),
  );
  const flags = ['--no-package-lock', '--ignore-scripts', '--no-audit', '--no-fund'];
  if (missing.length) npm(['install', '--omit=dev', ...flags], dir);
  const deps = path.join(dir, '.conformance-deps');
  const wanted: Record<string, string> = {};
  for (const name of TEST_PACKAGES) {
    const spec = pkg.devDependencies?.[name];
    if (spec) wanted[name] = spec;
  }
  if (!wanted.mocha)
    throw new Error(`${dir}/package.json names no mocha among its devDependencies`);
  const manifest = JSON.stringify({ private: true, dependencies: wanted }, null, 2) + '\n';
  const manifestFile = path.join(deps, 'package.json');
  const current = fs.existsSync(manifestFile) ? fs.readFileSync(manifestFile, 'utf8') : '';
  const complete = Object.keys(wanted).every((name) =>
    fs.existsSync(path.join(deps, 'node_modules', name, 'package.json')),
  );
  if (current !== manifest || !complete) {
    fs.mkdirSync(deps, { recursive: true });
    fs.writeFileSync(manifestFile, manifest);
    npm(['install', ...flags], deps);
  }
  return path.join(deps, 'node_modules');
}

/** `test/**\/*.test.js` without `test/encryption/`, in order. */
function testFiles(dir: string, filters: string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (child !== 'test/encryption' && entry.name !== 'node_modules') walk(child);
      } else if (entry.name.endsWith('.test.js')) out.push(child);
    }
  };
  walk('test');
  out.sort();
  return filters.length ? out.filter((f) => filters.some((part) => f.includes(part))) : out;
}

export function readResults(file: string): { results: TestResult[]; complete: boolean } {
  const results: TestResult[] = [];
  let complete = false;
  if (!fs.existsSync(file)) return { results, complete };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as TestResult | { state: 'end' };
    if (r.state === 'end') complete = true;
    else results.push(r);
  }
  return { results, complete };
}

const thousands = (n: number) => n.toLocaleString('en-US');

export function summarize(results: TestResult[]) {
  const passed = results.filter((r) => r.state === 'passed').length;
  const failed = results.filter((r) => r.state === 'failed').length;
  const skipped = results.filter((r) => r.state === 'skipped').length;
  const ran = passed + failed;
  const rate = ran === 0 ? 0 : (100 * passed) / ran;
  return {
    passed,
    failed,
    skipped,
    ran,
    rate,
    line:
      `${thousands(passed)} passed, ${thousands(failed)} failed, ${thousands(skipped)} skipped: ` +
      `${rate.toFixed(2)} % of the ${thousands(ran)} that ran`,
  };
}

/** The failing tests grouped by file, as Markdown list items. */
export function failureList(results: TestResult[]): string[] {
  const byFile = new Map<string, TestResult[]>();
  for (const r of results) {
    if (r.state !== 'failed') continue;
    const list = byFile.get(r.file) ?? [];
    list.push(r);
    byFile.set(r.file, list);
  }
  const clean = (s: string) => s.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
  const lines: string[] = [];
  for (const [file, list] of [...byFile].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`- \`${file}\` (${list.length})`);
    for (const r of list) {
      // mocha's timeout message goes on with advice (and the file's path): its first sentence.
      const error = clean(r.error ?? '')
        .replace(/\. For async tests and hooks, ensure .*$/, '')
        .slice(0, 200);
      lines.push(
        `  - ${clean(r.title)}${r.hook ? ' (hook)' : ''}: ${error ? `\`${error.replace(/`/g, "'")}\`` : ''}`,
      );
    }
  }
  return lines;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      mongoose: { type: 'string' },
      files: { type: 'string' },
      grep: { type: 'string' },
      timeout: { type: 'string', default: '10000' },
      'no-install': { type: 'boolean', default: false },
      'no-write': { type: 'boolean', default: false },
    },
  });
  const given = values.mongoose ?? process.env.MONGOOSE_SUITE_DIR;
  if (!given) usage('give the mongoose checkout with --mongoose <dir> (or MONGOOSE_SUITE_DIR)');
  const dir = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
  if (
    !fs.existsSync(path.join(dir, 'package.json')) ||
    !fs.existsSync(path.join(dir, 'test', 'common.js'))
  )
    usage(`${dir} is not a checkout of mongoose's repository (no package.json and test/common.js)`);
  const pkg = readJson(path.join(dir, 'package.json'));
  if (pkg.name !== 'mongoose') usage(`${dir}/package.json is not mongoose's`);
  const suiteVersion = pkg.version ?? '?';
  const appVersion = appMongooseVersion();
  if (suiteVersion !== appVersion)
    console.warn(
      `conformance:mongoose: WARNING: the checkout is mongoose ${suiteVersion}, the app uses ${appVersion}; ` +
        `check out the tag ${appVersion} to measure the version the app runs`,
    );
  const filters = (values.files ?? '').split(',').filter(Boolean);
  const files = testFiles(dir, filters);
  if (files.length === 0) usage(`no test file matches ${values.files}`);
  const timeout = Number(values.timeout);
  if (!Number.isInteger(timeout) || timeout <= 0) usage(`invalid --timeout ${values.timeout}`);

  const nodePath = values['no-install']
    ? path.join(dir, '.conformance-deps', 'node_modules')
    : install(dir, pkg);
  const mocha = path.join(nodePath, 'mocha', 'bin', 'mocha.js');
  if (!fs.existsSync(mocha))
    usage(`mocha is not installed in ${nodePath} (run without --no-install)`);
  const driverVersion = readJson(path.join(dir, 'node_modules', 'mongodb', 'package.json')).version;

  const resultsFile = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'mongoose-suite-')),
    'results.jsonl',
  );
  const server = await start({ port: 0, ttlMonitorIntervalMs: 1000 });
  const uri = `${server.uri}/?replicaSet=rs0`;
  console.log(
    `mongoose ${suiteVersion} (driver ${driverVersion}): ${files.length} test files against ${uri}`,
  );
  const started = Date.now();
  let exitCode: number | null;
  try {
    const args = [
      '--disable-warning=MONGOOSE',
      mocha,
      '--no-config',
      '--exit',
      '--ui',
      'bdd',
      '--timeout',
      String(timeout),
      '--reporter',
      path.join(__dirname, 'reporter.cjs'),
      ...(values.grep ? ['--grep', values.grep] : []),
      ...files,
    ];
    exitCode = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, args, {
        cwd: dir,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: {
          ...process.env,
          MONGOOSE_TEST_URI: uri,
          REPLICA_SET: 'rs0',
          MONGOOSE_SUITE_RESULTS: resultsFile,
          NODE_PATH: nodePath,
          START_REPLICA_SET: '',
          MONGOOSE_REPLSET_URI: '',
        },
      });
      child.on('error', reject);
      child.on('exit', (code) => resolve(code));
    });
  } finally {
    await server.stop();
  }
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  const { results, complete } = readResults(resultsFile);
  fs.rmSync(path.dirname(resultsFile), { recursive: true, force: true });
  const summary = summarize(results);
  const failures = failureList(results);
  console.log(`\nmongoose ${suiteVersion}: ${summary.line} (${minutes} min)`);
  if (!complete)
    console.log(`mocha stopped before the end of the run (exit code ${String(exitCode)})`);
  if (failures.length) console.log(['failing tests:', ...failures].join('\n'));

  const partial = filters.length > 0 || values.grep !== undefined;
  if (values['no-write'] || partial || !complete) {
    const why = values['no-write'] ? '--no-write' : partial ? 'a partial run' : 'an incomplete run';
    console.log(`\n${why}: ${path.relative(process.cwd(), README)} was not rewritten`);
    return;
  }
  const versions =
    suiteVersion === appVersion
      ? `mongoose ${suiteVersion}'s suite (the version the app uses)`
      : `mongoose ${suiteVersion}'s suite (the app uses ${appVersion}: see above)`;
  const body = [
    `${runHeader()}\\`,
    `${versions}, driver ${driverVersion}, its ${files.length} test files under mocha ` +
      `(${timeout / 1000} s per test), against \`start({ port: 0 })\` as replica set \`rs0\`, ` +
      `in ${minutes} min:`,
    '',
    `    ${summary.line}`,
    '',
    failures.length
      ? `Failing tests (${summary.failed}), by file, with the first line of their error:`
      : 'No test failed.',
    '',
    ...failures,
  ].join('\n');
  const before = fs.readFileSync(README, 'utf8');
  fs.writeFileSync(README, replaceSection(before, SECTION, body, HEADING));
  console.log(`\nwrote the mongoose-suite section of ${path.relative(process.cwd(), README)}`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
