import { Query } from 'mingo';
import { Engine } from '../src/engine';
import { coveredCount, plan } from '../src/planner';
import type { Doc } from '../src/values';

const N = 100_000;
const engine = new Engine();
const posts = engine.getOrCreate('bench', 'posts');
const DAY = 86_400_000;
const t0 = Date.UTC(2026, 0, 1);

beforeAll(() => {
  for (let i = 1; i <= N; i++) {
    engine.insert(posts, {
      _id: i,
      authorId: i % 500,
      isJdTagged: i % 10 === 0,
      deleted: i % 50 === 0,
      createdAt: new Date(t0 + (i * 90 * DAY) / N),
    });
  }
  engine.createIndex(posts, { name: 'createdAt_-1', key: { createdAt: -1 } });
  engine.createIndex(posts, {
    name: 'authorId_1_createdAt_-1',
    key: { authorId: 1, createdAt: -1 },
  });
  engine.createIndex(posts, {
    name: 'isJdTagged_1_createdAt_-1',
    key: { isJdTagged: 1, createdAt: -1 },
  });
});

/** Runs the plan like find does and counts the documents it had to look at for one page. */
function page(filter: Doc, sort: Array<[string, 1 | -1]>, limit = 20) {
  const p = plan(posts, filter, sort);
  const q = new Query(filter);
  let examined = 0;
  const out: Doc[] = [];
  for (const d of p.candidates) {
    examined++;
    if (q.test(d)) out.push(d);
    if (p.sorted && out.length === limit) break;
  }
  return { summary: p.summary, sorted: p.sorted, examined, out };
}

test('when a page is sorted by an indexed field, then the index yields it in order without a scan', () => {
  const r = page({ deleted: { $ne: true } }, [['createdAt', -1]]);
  expect(r.summary).toBe('IXSCAN createdAt_-1 (sorted)');
  expect(r.out.map((d) => d._id)).toEqual(
    [100_000 - 1, ...Array.from({ length: 19 }, (_, i) => 99_998 - i)].slice(0, 20),
  );
  expect(r.examined).toBeLessThanOrEqual(21);
});

test('when filtering by equality and sorting by the next field of a compound index, then it reads only that page', () => {
  const r = page({ isJdTagged: true, deleted: { $ne: true } }, [['createdAt', -1]]);
  expect(r.summary).toBe('IXSCAN isJdTagged_1_createdAt_-1 (sorted)');
  expect(r.out).toHaveLength(20);
  expect(r.out.every((d) => d.isJdTagged === true)).toBe(true);
  expect(r.examined).toBeLessThanOrEqual(30);
});

test('when filtering by $in on the compound prefix, then only those authors are read', () => {
  const r = page({ authorId: { $in: [1, 2, 3] } }, [['createdAt', -1]]);
  expect(r.summary).toBe('IXSCAN authorId_1_createdAt_-1');
  expect(r.examined).toBe(600);
});

test('when filtering by a range, then only the range is read', () => {
  const from = new Date(t0 + 89 * DAY);
  const r = page({ createdAt: { $gte: from } }, []);
  expect(r.summary).toBe('IXSCAN createdAt_-1');
  expect(r.out.every((d) => (d.createdAt as Date) >= from)).toBe(true);
  expect(r.examined).toBeLessThan(N / 50);
});

test('when no index fits, then the planner falls back to a collection scan', () => {
  const r = page({ deleted: true }, [], Infinity);
  expect(r.summary).toBe('COLLSCAN');
  expect(r.out).toHaveLength(N / 50);
});

test('when looking up by _id, then the document is fetched directly', () => {
  expect(page({ _id: 12345 }, []).examined).toBe(1);
});

/** coveredCount on the 100k posts, with any read of a stored document recorded. */
function countFromKeys(filter: Doc): { n: number | undefined; read: boolean } {
  const get = jest.spyOn(posts.docs, 'get');
  const values = jest.spyOn(posts.docs, 'values');
  try {
    const n = coveredCount(posts, filter);
    return { n, read: get.mock.calls.length + values.mock.calls.length > 0 };
  } finally {
    get.mockRestore();
    values.mockRestore();
  }
}

test('when a count only needs indexed fields, then it is read from index keys and equals a mingo count', () => {
  const from = new Date(t0 + 30 * DAY);
  const to = new Date(t0 + 45 * DAY);
  const filters: Doc[] = [
    { isJdTagged: true },
    { isJdTagged: false, createdAt: { $gte: from } },
    { authorId: { $in: [1, 2, 3, 3] }, createdAt: { $gte: from, $lt: to } },
    { createdAt: { $gt: from, $lte: to } },
    { authorId: 7, createdAt: { $lt: from } },
    { authorId: '7' },
  ];
  for (const filter of filters) {
    const q = new Query(filter);
    let expected = 0;
    for (const d of posts.docs.values()) if (q.test(d)) expected++;
    expect([filter, countFromKeys(filter)]).toEqual([filter, { n: expected, read: false }]);
  }
});

test('when a count filter is not provably covered by an index, then coveredCount declines', () => {
  const filters: Doc[] = [
    { deleted: true }, // no index
    { isJdTagged: true, deleted: false }, // one field in no index
    { $or: [{ authorId: 1 }, { authorId: 2 }] },
    { authorId: { $ne: 1 } },
    { authorId: { $in: [/1/] } },
    { authorId: { $gt: NaN } },
    { authorId: {} },
    { authorId: { $eq: { x: 1 } } },
    { createdAt: { $gte: null } },
    { 'author.id': 1 },
  ];
  for (const filter of filters) {
    expect([filter, coveredCount(posts, filter)]).toEqual([filter, undefined]);
  }
});
