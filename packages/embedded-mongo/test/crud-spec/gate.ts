/**
 * The conformance gate: the run must fail exactly the tests of the expected-failure list.
 * A percentage threshold would stay green through dozens of regressions; an exact list turns
 * each one (and each fix that leaves a stale entry behind) into a failing test.
 */
import type { ExpectedFailure } from './expected-failures';
import type { TestOutcome } from './runner';

export interface GateVerdict {
  /** Failing tests that are not on the list: regressions. */
  unexpectedFailures: TestOutcome[];
  /** Listed tests that did not fail (passed, skipped or missing): the list is stale. */
  staleEntries: Array<ExpectedFailure & { status: TestOutcome['status'] | 'missing' }>;
}

const keyOf = (t: { file: string; description: string }) => `${t.file}: ${t.description}`;

export function judge(results: TestOutcome[], expected: ExpectedFailure[]): GateVerdict {
  const listed = new Set(expected.map(keyOf));
  const byKey = new Map(results.map((r) => [keyOf(r), r]));
  return {
    unexpectedFailures: results.filter((r) => r.status === 'failed' && !listed.has(keyOf(r))),
    staleEntries: expected
      .map((e) => ({ ...e, status: byKey.get(keyOf(e))?.status ?? ('missing' as const) }))
      .filter((e) => e.status !== 'failed'),
  };
}

/** What to print when the gate fails: every regression and every stale entry, one per line. */
export function describeVerdict(v: GateVerdict): string {
  return [
    ...v.unexpectedFailures.map((r) => `unexpected failure: ${keyOf(r)} -- ${r.reason ?? ''}`),
    ...v.staleEntries.map(
      (e) =>
        `listed as expected to fail but ${e.status}: ${keyOf(e)} (remove it from test/crud-spec/expected-failures.ts)`,
    ),
  ].join('\n');
}
