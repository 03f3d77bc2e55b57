/**
 * The conformance runner's matching rules (unified test format, "Evaluating Matches") and skip
 * rules: a lenient matcher or a broad skip would inflate the conformance figures.
 */
import { Long, ObjectId } from 'bson';
import { match, matchExact, MatchError } from './crud-spec/match';
import { requirementsUnmet, skipReason } from './crud-spec/skip';

const ctx = {
  entity: (name: string) => {
    if (name === 'id0') return 7;
    throw new MatchError(`unknown entity ${name}`);
  },
};
const ok = (expected: unknown, actual: unknown, root = true) =>
  expect(() => match(expected, actual, ctx, root)).not.toThrow();
const bad = (expected: unknown, actual: unknown, root = true) =>
  expect(() => match(expected, actual, ctx, root)).toThrow(MatchError);

describe('matching', () => {
  test('when a root document has extra fields, then it matches; a nested one does not', () => {
    ok({ x: 1 }, { x: 1, y: 1 });
    bad({ x: { y: 1 } }, { x: { y: 1, z: 1 } });
    bad({ x: 1, y: 1 }, { x: 1 });
  });

  test('when numbers differ only in type, then they match; different values do not', () => {
    ok({ n: 1 }, { n: Long.fromNumber(1) });
    ok(1, 1.0);
    bad(1, 1.5);
    bad(1, '1');
  });

  test('when arrays differ in length or order, then they do not match', () => {
    ok([1, 2], [1, 2]);
    bad([1, 2], [1, 2, 3]);
    bad([1, 2], [2, 1]);
  });

  test('when special operators are used, then they assert what the format says', () => {
    ok({ a: { $$exists: false } }, { b: 1 });
    bad({ a: { $$exists: false } }, { a: null });
    ok({ a: { $$exists: true } }, { a: null });
    ok({ a: { $$unsetOrMatches: 2 } }, {});
    bad({ a: { $$unsetOrMatches: 2 } }, { a: 3 });
    ok({ a: { $$type: ['int', 'long'] } }, { a: 5 });
    bad({ a: { $$type: 'string' } }, { a: 5 });
    ok({ a: { $$type: 'objectId' } }, { a: new ObjectId() });
    ok({ a: { $$matchesEntity: 'id0' } }, { a: 7 });
    bad({ a: { $$matchesEntity: 'id0' } }, { a: 8 });
    ok({ a: { $$lte: 5 } }, { a: 5 });
    bad({ a: { $$lte: 5 } }, { a: 6 });
  });

  test('when collection data is compared, then extra fields anywhere fail but key order does not', () => {
    expect(() => matchExact([{ _id: 1, x: 1 }], [{ x: 1, _id: 1 }])).not.toThrow();
    expect(() => matchExact([{ _id: 1 }], [{ _id: 1, x: 1 }])).toThrow(MatchError);
    expect(() => matchExact([{ _id: 1 }], [])).toThrow(MatchError);
  });
});

describe('skip rules', () => {
  test('when requirements allow a standalone 7.0.0, then the test runs', () => {
    expect(requirementsUnmet([{ minServerVersion: '4.4' }])).toBeUndefined();
    expect(
      requirementsUnmet([{ maxServerVersion: '8.1.99', topologies: ['single'] }]),
    ).toBeUndefined();
    expect(
      requirementsUnmet([{ topologies: ['replicaset'] }, { minServerVersion: '3.6' }]),
    ).toBeUndefined();
  });

  test('when no requirement can be met, then the test is skipped with the reason', () => {
    expect(requirementsUnmet([{ minServerVersion: '8.0' }])).toContain('>= 8.0');
    expect(requirementsUnmet([{ maxServerVersion: '4.4.99' }])).toContain('<= 4.4.99');
    expect(requirementsUnmet([{ topologies: ['replicaset', 'sharded'] }])).toContain('topology');
    expect(requirementsUnmet([{ serverless: 'require' }])).toBeDefined();
    expect(requirementsUnmet([{ auth: true }])).toBeDefined();
  });

  test('when a test uses collation or a transaction, then it is skipped as unsupported', () => {
    const op = (args: object, name = 'find') => ({
      operations: [{ name, object: 'c', arguments: args }],
    });
    expect(skipReason({}, op({ filter: {}, collation: { locale: 'fr' } }))).toContain('collation');
    expect(skipReason({}, op({}, 'startTransaction'))).toContain('transactions');
    expect(skipReason({}, op({ pipeline: [{ $geoNear: {} }] }, 'aggregate'))).toContain('geo');
    expect(skipReason({}, op({ filter: { x: 1 }, hint: '_id_' }))).toBeUndefined();
  });
});
