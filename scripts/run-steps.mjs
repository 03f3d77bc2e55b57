// `npm test`: runs the npm scripts named on the command line in order, stops at the first that
// fails, and ends with a table of how long each step took, so a slow run says where its time went.
// Usage: node scripts/run-steps.mjs lint typecheck test:unit ...
import { spawn } from 'node:child_process';

const steps = process.argv.slice(2);
if (steps.length === 0) {
  console.error('usage: node scripts/run-steps.mjs <npm script>...');
  process.exit(2);
}

/** @type {{ step: string, started: number, seconds: number | null, result: string }[]} */
const results = steps.map((step) => ({ step, started: 0, seconds: null, result: 'not run' }));
let current = null;

function runStep(step) {
  return new Promise((resolve) => {
    // npm's own process group: a signal to ours (Ctrl+C, CI's timeout) reaches the step as well.
    current = spawn('npm', ['run', step], { stdio: 'inherit' });
    current.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    current.on('error', (error) => {
      console.error(`npm test: could not start ${step}: ${error.message}`);
      resolve(1);
    });
  });
}

function printTable() {
  const width = Math.max(...steps.map((s) => s.length), 'total'.length);
  const format = (seconds) => (seconds === null ? '' : `${seconds.toFixed(1)} s`).padStart(9);
  const total = results.reduce((sum, r) => sum + (r.seconds ?? 0), 0);
  console.log('\nnpm test steps:');
  for (const r of results)
    console.log(`  ${r.step.padEnd(width)} ${format(r.seconds)}  ${r.result}`);
  console.log(`  ${'total'.padEnd(width)} ${format(total)}`);
}

// If the run is stopped from outside, still say how far it got.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    const running = results.find((r) => r.result === 'running');
    if (running) {
      running.result = `stopped (${signal})`;
      running.seconds = (performance.now() - running.started) / 1000;
    }
    current?.kill(signal);
    printTable();
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  });
}

let status = 0;
for (const entry of results) {
  entry.result = 'running';
  entry.started = performance.now();
  const code = await runStep(entry.step);
  entry.seconds = (performance.now() - entry.started) / 1000;
  entry.result = code === 0 ? 'passed' : `failed (exit ${code})`;
  if (code !== 0) {
    status = code;
    break;
  }
}
printTable();
process.exit(status);
