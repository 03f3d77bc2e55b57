/**
 * compareValues: MongoDB's order of BSON values (the order of index keys and sorts), for values of
 * one type (the common pairs have a fast path) and across types.
 */
import { Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { compareValues, valueKey } from '../src/values';

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

test('values of one type compare by value; numbers across numeric types, NaN lowest', () => {
  const ordered: unknown[][] = [
    [NaN, -Infinity, -5, new Int32(-1), -0.5, 0, new Long(1), 1.5, new Double(2), 3, Infinity],
    ['', 'A', 'B', 'a', 'ab', 'b', 'é'],
    [new Date(-1), new Date(0), new Date(1), new Date(1e12)],
  ];
  for (const list of ordered)
    for (let i = 0; i < list.length; i++)
      for (let j = 0; j < list.length; j++)
        expect([list[i], list[j], sign(compareValues(list[i], list[j]))]).toEqual([
          list[i],
          list[j],
          sign(i - j),
        ]);
  // Equal by value though of different types or objects.
  expect(compareValues(0, -0)).toBe(0);
  expect(compareValues(NaN, NaN)).toBe(0);
  expect(compareValues(2, new Long(2))).toBe(0);
  expect(compareValues(new Date(5), new Date(5))).toBe(0);
  expect(compareValues('x', 'x')).toBe(0);
});

test('values of different types compare by type, in MongoDB order', () => {
  const ordered = [
    new MinKey(),
    null,
    NaN,
    1,
    'a',
    { a: 1 },
    [1],
    new Uint8Array([1]),
    new ObjectId('000000000000000000000001'),
    false,
    new Date(0),
    new Timestamp({ t: 1, i: 1 }),
    /a/,
    new MaxKey(),
  ];
  for (let i = 0; i < ordered.length; i++)
    for (let j = 0; j < ordered.length; j++)
      expect([i, j, sign(compareValues(ordered[i], ordered[j]))]).toEqual([i, j, sign(i - j)]);
});

test('a timestamp is neither equal to nor ordered as the number of the same value', () => {
  const ts = new Timestamp({ t: 0, i: 7 }); // the 64-bit value 7
  expect(valueKey(ts)).not.toBe(valueKey(7));
  expect(valueKey(ts)).toBe(valueKey(new Timestamp({ t: 0, i: 7 })));
  expect(compareValues(ts, 7)).toBe(1);
  expect(compareValues(ts, new Date(8e12))).toBe(1);
});
