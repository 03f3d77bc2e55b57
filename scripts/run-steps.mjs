// `npm test`, `npm run lint`, `npm run build`: runs the npm scripts named on the command line in
// order, stops at the first that fails, and ends with a table of how long each step took, so a
// slow run says where its time went. `a+b` runs the scripts a and b at the same time (the machine
// has two cores; each of them leaves one mostly idle), prints each one's output whole when it
// ends, and fails if either fails.
// Usage: node scripts/run-steps.mjs [--title <what>] lint+typecheck test:unit ...
//
// Each row gives the step's wall time and its CPU time (user + system, of every process it ran
// and waited for, as the shell's `times` counts them): on a machine shared with other jobs the
// wall time moves with their load, the CPU time much less, so two runs compare by it.
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
let title = 'npm test';
if (args[0] === '--title') {
  title = args[1] ?? title;
  args.splice(0, 2);
}
if (args.length === 0) {
  console.error(
    'usage: node scripts/run-steps.mjs [--title <what>] <npm script>[+<npm script>]...',
  );
  process.exit(2);
}

/**
 * @typedef {{ step: string, group: number, parallel: boolean, started: number,
 *   seconds: number | null, cpu: number | null, result: string,
 *   child: import('node:child_process').ChildProcess | null }} Step
 */
/** @type {Step[]} */
const results = args.flatMap((arg, group) => {
  const names = arg.split('+').filter(Boolean);
  return names.map((step) => ({
    step,
    group,
    parallel: names.length > 1,
    started: 0,
    seconds: null,
    cpu: null,
    result: 'not run',
    child: null,
  }));
});
const runStarted = performance.now();

/** `times` prints the shell's own user and system time, then its children's: `0m1.50s 0m0.20s`. */
function parseTimes(text) {
  const lines = text.trim().split('\n');
  const children = lines.at(-1)?.match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/);
  if (!children) return null;
  const [, um, us, sm, ss] = children.map(Number);
  return um * 60 + us + sm * 60 + ss;
}

/** Runs `npm run <step>`; a step that runs alone keeps the terminal, one of a group is buffered. */
function runStep(entry) {
  return new Promise((resolve) => {
    entry.result = 'running';
    entry.started = performance.now();
    // bash reports the CPU time of npm and everything it waited for on fd 3 when npm ends (npm
    // itself does not get fd 3, so nothing it leaves running holds that pipe open).
    const child = spawn(
      'bash',
      ['-c', 'npm run "$0" 3>&-; status=$?; times >&3; exit $status', entry.step],
      {
        // Our process group: a signal to it (Ctrl+C, CI's timeout) reaches the step as well.
        stdio: entry.parallel
          ? ['inherit', 'pipe', 'pipe', 'pipe']
          : ['inherit', 'inherit', 'inherit', 'pipe'],
      },
    );
    entry.child = child;
    let output = '';
    let times = '';
    const ended = (stream) => new Promise((done) => (stream ? stream.once('close', done) : done()));
    const outputEnded = Promise.all([ended(child.stdout), ended(child.stderr)]);
    const timesEnded = ended(child.stdio[3]);
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.stdio[3]?.on('data', (chunk) => (times += chunk));
    const finish = async (code) => {
      if (entry.result !== 'running') return;
      // A process the step left behind may still hold its output open: wait a little, not forever.
      await Promise.race([
        Promise.all([outputEnded, timesEnded]),
        new Promise((done) => setTimeout(done, 2000).unref()),
      ]);
      entry.seconds = (performance.now() - entry.started) / 1000;
      entry.cpu = parseTimes(times);
      entry.result = code === 0 ? 'passed' : `failed (exit ${code})`;
      entry.child = null;
      if (entry.parallel) {
        process.stdout.write(`\n[${entry.step}: ${entry.result}, ${entry.seconds.toFixed(1)} s]\n`);
        process.stdout.write(output);
      }
      resolve(code);
    };
    child.on('exit', (code, signal) => finish(code ?? (signal ? 128 : 1)));
    child.on('error', (error) => {
      output += `${title}: could not start ${entry.step}: ${error.message}\n`;
      if (!entry.parallel) console.error(output);
      finish(1);
    });
  });
}

function printTable() {
  const label = (r) => (r.parallel ? `${r.step} (parallel)` : r.step);
  const width = Math.max(...results.map((r) => label(r).length), 'total'.length);
  const format = (seconds) => (seconds === null ? '' : `${seconds.toFixed(1)} s`).padStart(9);
  const totalCpu = results.reduce((sum, r) => sum + (r.cpu ?? 0), 0);
  const wall = (performance.now() - runStarted) / 1000;
  console.log(
    `\n${title} steps:${' '.repeat(Math.max(0, width - title.length - 5))}     wall       CPU`,
  );
  for (const r of results)
    console.log(`  ${label(r).padEnd(width)} ${format(r.seconds)} ${format(r.cpu)}  ${r.result}`);
  console.log(`  ${'total'.padEnd(width)} ${format(wall)} ${format(totalCpu)}`);
}

// If the run is stopped from outside, still say how far it got.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const running of results.filter((r) => r.result === 'running')) {
      running.result = `stopped (${signal})`;
      running.seconds = (performance.now() - running.started) / 1000;
      running.child?.kill(signal);
    }
    printTable();
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  });
}

let status = 0;
for (let group = 0; group < args.length; group++) {
  const codes = await Promise.all(results.filter((r) => r.group === group).map(runStep));
  const failed = codes.find((code) => code !== 0);
  if (failed !== undefined) {
    status = failed;
    break;
  }
}
printTable();
process.exit(status);
