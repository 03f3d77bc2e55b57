/**
 * MongoDB's own CRUD conformance tests (unified test format, `<repo>/../shared/mongo-crud-spec`)
 * run with the official driver against a fresh in-process server. Prints
 * `N passed, N failed, N skipped` and the failing tests, and fails unless exactly the tests of
 * `crud-spec/expected-failures.ts` fail; see the package README ("Conformance").
 */
import { start, type RunningServer } from '../src';
import { specDir } from './crud-spec/location';
import { expectedFailures } from './crud-spec/expected-failures';
import { describeVerdict, judge } from './crud-spec/gate';
import { formatSummary, runSpecs, type Summary, type TestOutcome } from './crud-spec/runner';

jest.setTimeout(300_000);

let server: RunningServer;
let summary: Summary;

beforeAll(async () => {
  const dir = specDir(); // throws a clear error when the shared folder is missing
  // Test commands (configureFailPoint) are needed by the tests that inject server errors.
  server = await start({ port: 0, enableTestCommands: true });
  summary = await runSpecs(dir, { uri: server.uri });
  process.stdout.write(`\n${formatSummary(summary)}\n`);
});

afterAll(async () => {
  await server?.stop();
});

test('when the CRUD conformance suite runs, then exactly the listed expected failures fail', () => {
  expect(summary.passed + summary.failed).toBeGreaterThan(0);
  const verdict = judge(summary.results, expectedFailures);
  // One readable list of every regression and every stale entry, rather than the first mismatch.
  expect(describeVerdict(verdict)).toBe('');
});

test('when the gate judges a run, then a new failure and a listed test that passes both fail it', () => {
  const run = (status: TestOutcome['status'], description: string): TestOutcome => ({
    file: 'f',
    description,
    status,
  });
  const listed = [{ file: 'f', description: 'known', reason: 'driver' }];
  expect(judge([run('failed', 'known'), run('passed', 'other')], listed)).toEqual({
    unexpectedFailures: [],
    staleEntries: [],
  });
  const regressed = judge([run('failed', 'known'), run('failed', 'other')], listed);
  expect(regressed.unexpectedFailures.map((r) => r.description)).toEqual(['other']);
  const fixed = judge([run('passed', 'known')], listed);
  expect(fixed.staleEntries.map((e) => e.status)).toEqual(['passed']);
  expect(judge([], listed).staleEntries.map((e) => e.status)).toEqual(['missing']);
  expect(describeVerdict(regressed)).toContain('unexpected failure: f: other');
});

test('when a test is skipped, then it is never counted as passed', () => {
  expect(summary.passed + summary.failed + summary.skipped).toBe(summary.results.length);
  for (const r of summary.results.filter((x) => x.status === 'skipped')) {
    expect(r.reason).toBeTruthy();
  }
});
