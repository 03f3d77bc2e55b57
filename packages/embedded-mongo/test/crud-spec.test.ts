/**
 * MongoDB's own CRUD conformance tests (unified test format, `<repo>/../shared/mongo-crud-spec`)
 * run with the official driver against a fresh in-process server. Prints
 * `N passed, N failed, N skipped` and the failing tests; see the package README ("Conformance").
 */
import { start, type RunningServer } from '../src';
import { specDir } from './crud-spec/location';
import { formatSummary, runSpecs, type Summary } from './crud-spec/runner';

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

test('when the CRUD conformance suite runs, then at least 80 % of the tests not skipped pass', () => {
  const ran = summary.passed + summary.failed;
  expect(ran).toBeGreaterThan(0);
  expect(summary.passed / ran).toBeGreaterThanOrEqual(0.8);
});

test('when a test is skipped, then it is never counted as passed', () => {
  expect(summary.passed + summary.failed + summary.skipped).toBe(summary.results.length);
  for (const r of summary.results.filter((x) => x.status === 'skipped')) {
    expect(r.reason).toBeTruthy();
  }
});
