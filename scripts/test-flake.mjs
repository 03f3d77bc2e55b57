// `npm run test:flake -- <pattern...> [--runs N] [--hogs K] [-- <jest args>]`: runs the Jest
// suites whose paths match the patterns N times while K busy loops take the CPUs, then prints
// each suite's pass count and the tests that failed, so a test that waits on time instead of on
// a mechanism shows up here rather than on a busy CI machine. Exits 1 if any suite failed a run.
// Jest runs as `npm run test:unit` does (root config, two workers) unless Jest args say otherwise.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const jestBin = createRequire(import.meta.url).resolve('jest/bin/jest');
const USAGE = 'usage: npm run test:flake -- <pattern...> [--runs N] [--hogs K] [-- <jest args>]';

function parseArgs(argv) {
  const options = { patterns: [], runs: 20, hogs: 2, jestArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      options.jestArgs = argv.slice(i + 1);
      break;
    }
    const [name, inline] = arg.split('=', 2);
    if (name === '--runs' || name === '--hogs') {
      const value = Number(inline ?? argv[++i]);
      const least = name === '--runs' ? 1 : 0;
      if (!Number.isInteger(value) || value < least) fail(`${name} needs an integer >= ${least}`);
      options[name.slice(2)] = value;
    } else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (arg.startsWith('-')) {
      fail(`unknown option ${arg} (Jest options go after a second --)`);
    } else {
      options.patterns.push(arg);
    }
  }
  return options;
}

function fail(message) {
  console.error(`test:flake: ${message}\n${USAGE}`);
  process.exit(2);
}

// A hog is a pure CPU spin in its own process. It also checks, between spins, that the process
// that started it is still its parent, so a hog whose runner was killed outright (SIGKILL, a
// closed terminal) stops by itself instead of spinning on a shared machine.
const HOG_SOURCE = `
  const parent = process.ppid;
  for (;;) {
    const until = Date.now() + 200;
    while (Date.now() < until);
    if (process.ppid !== parent) process.exit(0);
  }`;

/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();

function startHogs(count) {
  for (let i = 0; i < count; i++) {
    const hog = spawn(process.execPath, ['-e', HOG_SOURCE], { stdio: 'ignore' });
    children.add(hog);
    hog.on('exit', () => children.delete(hog));
  }
}

function stopChildren(signal = 'SIGTERM') {
  for (const child of children) child.kill(signal);
}

/** Runs Jest once; resolves to its exit code and the parsed --json report (null if none). */
function runJest(options, outputFile, logFile) {
  const choosesWorkers = options.jestArgs.some((a) =>
    /^(--maxWorkers|-w|--runInBand|-i)\b/.test(a),
  );
  const args = [
    jestBin,
    '--ci',
    '--json',
    `--outputFile=${outputFile}`,
    ...(choosesWorkers ? [] : ['--maxWorkers=2']),
    ...options.jestArgs,
    ...options.patterns,
  ];
  return new Promise((resolve) => {
    // Jest's output goes to the log as it comes, so a slow run can be followed with tail -f.
    const log = openSync(logFile, 'w');
    const jest = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', log, log] });
    children.add(jest);
    jest.on('close', (code, signal) => {
      children.delete(jest);
      closeSync(log);
      let report = null;
      try {
        report = JSON.parse(readFileSync(outputFile, 'utf8'));
      } catch {
        // No report: Jest crashed or was stopped; the run counts as failed for every suite.
      }
      resolve({ code: code ?? 128, signal, report });
    });
  });
}

/** @typedef {{ passes: number, runs: number, failures: Map<string, number>, seconds: number[] }} SuiteTally */
/** @type {Map<string, SuiteTally>} */
const tallies = new Map();
let runsDone = 0;
let runsWithoutReport = 0;
/** The machine's 1-minute load average after each run: how busy it was besides the hogs. */
const loads = [];

function record(report) {
  for (const suite of report.testResults) {
    const file = path.relative(root, suite.name);
    const tally = tallies.get(file) ?? { passes: 0, runs: 0, failures: new Map(), seconds: [] };
    tallies.set(file, tally);
    tally.runs++;
    tally.seconds.push((suite.endTime - suite.startTime) / 1000);
    const failed = suite.assertionResults.filter((a) => a.status === 'failed');
    if (suite.status === 'passed' && failed.length === 0) tally.passes++;
    for (const test of failed)
      tally.failures.set(test.fullName, (tally.failures.get(test.fullName) ?? 0) + 1);
    if (suite.status !== 'passed' && failed.length === 0) {
      const reason = `(suite did not run: ${(suite.message || 'no message').split('\n').find(Boolean)})`;
      tally.failures.set(reason, (tally.failures.get(reason) ?? 0) + 1);
    }
  }
}

function printTable(options, started) {
  const rows = [...tallies.entries()].sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max('suite'.length, ...rows.map(([file]) => file.length));
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  const load = loads.length
    ? `, 1-min load after each run: mean ${(loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(1)}` +
      ` max ${Math.max(...loads).toFixed(1)}`
    : '';
  console.log(
    `\ntest:flake: ${runsDone} of ${options.runs} runs, ${options.hogs} hogs, ` +
      `${availableParallelism()} CPUs${load}, ${minutes} min wall`,
  );
  console.log(`  ${'suite'.padEnd(width)}  passed  slowest`);
  for (const [file, tally] of rows) {
    // A suite that was missing from a run (Jest crashed) has fewer runs than were done.
    const passed = `${tally.passes}/${runsDone}`.padStart(6);
    const slowest = `${Math.max(...tally.seconds).toFixed(1)} s`.padStart(7);
    console.log(`  ${file.padEnd(width)}  ${passed}  ${slowest}`);
    for (const [name, count] of tally.failures) console.log(`      failed ${count}x: ${name}`);
  }
  const flaky = rows.filter(([, t]) => t.passes < runsDone).length;
  const reportless = runsWithoutReport ? `, ${runsWithoutReport} runs without a Jest report` : '';
  console.log(`  ${rows.length} suites, ${rows.length - flaky} passed every run${reportless}`);
  return flaky === 0 && runsWithoutReport === 0 && rows.length > 0;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const scratch = mkdtempSync(path.join(tmpdir(), 'test-flake-'));
  const started = performance.now();
  let stopping = false;
  const finish = (ok) => {
    stopChildren();
    if (ok) rmSync(scratch, { recursive: true, force: true });
    process.exit(ok ? 0 : 1);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log(`\ntest:flake: stopped (${signal}); results of the finished runs:`);
      stopChildren('SIGKILL');
      printTable(options, started);
      process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15));
    });
  }
  process.on('exit', () => stopChildren('SIGKILL'));

  startHogs(options.hogs);
  const what = options.patterns.length ? options.patterns.join(' ') : 'every suite';
  console.log(
    `test:flake: ${what}, ${options.runs} runs, ${options.hogs} hogs; logs in ${scratch}`,
  );
  for (let run = 1; run <= options.runs; run++) {
    const runStarted = performance.now();
    const outputFile = path.join(scratch, `run-${run}.json`);
    const logFile = path.join(scratch, `run-${run}.log`);
    const { code, report } = await runJest(options, outputFile, logFile);
    if (stopping) return;
    runsDone++;
    loads.push(loadavg()[0]);
    const seconds = ((performance.now() - runStarted) / 1000).toFixed(0);
    if (!report) {
      runsWithoutReport++;
      console.log(`  run ${run}: no Jest report (exit ${code}), see ${logFile}`);
      continue;
    }
    record(report);
    const { numPassedTestSuites: passed, numTotalTestSuites: total } = report;
    const failedTests = report.numFailedTests ? `, ${report.numFailedTests} tests failed` : '';
    const logNote = code === 0 ? '' : ` (exit ${code}, see ${logFile})`;
    console.log(
      `  run ${run}: ${passed}/${total} suites passed${failedTests} in ${seconds} s${logNote}`,
    );
  }
  finish(printTable(options, started));
}

await main();
