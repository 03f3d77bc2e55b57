// A mocha reporter for the mongoose conformance run (see main.ts): every test's outcome is
// appended as one JSON line to the file named by MONGOOSE_SUITE_RESULTS as soon as it is known
// (a run that dies halfway still leaves what it ran), failures are printed as they happen and
// a count every 250 tests, so a long run shows where it is.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

function firstLine(err) {
  if (!err) return '';
  const text = String(err.message === undefined ? err : err.message);
  return text.split('\n').find((l) => l.trim() !== '') || text.trim();
}

function MongooseSuiteReporter(runner) {
  const out = process.env.MONGOOSE_SUITE_RESULTS;
  if (!out) throw new Error('MONGOOSE_SUITE_RESULTS must name the results file');
  const cwd = process.cwd();
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const record = (state, test, err) => {
    const file = test.file ? path.relative(cwd, test.file) : '';
    const line = {
      state,
      file,
      title: test.fullTitle(),
      hook: test.type === 'hook',
      error: err ? firstLine(err) : undefined,
    };
    fs.appendFileSync(out, JSON.stringify(line) + '\n');
    counts[state]++;
    if (state === 'failed') console.log(`FAIL ${file}: ${line.title}\n     ${line.error}`);
    const total = counts.passed + counts.failed + counts.skipped;
    if (total % 250 === 0)
      console.log(
        `... ${total} tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
      );
  };
  runner.on('pass', (test) => record('passed', test));
  runner.on('fail', (test, err) => record('failed', test, err));
  runner.on('pending', (test) => record('skipped', test));
  runner.once('end', () => {
    fs.appendFileSync(out, JSON.stringify({ state: 'end' }) + '\n');
  });
}

module.exports = MongooseSuiteReporter;
