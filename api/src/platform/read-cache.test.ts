import { ReadCache } from './read-cache';

describe('ReadCache', () => {
  test('when a key is forgotten while it is being read, then the read is not kept', () => {
    const cache = new ReadCache<number, string>(60_000, 100);
    const mark = cache.mark();
    cache.delete(1);
    cache.set(1, 'read before the write', mark);
    expect(cache.get(1)).toBeUndefined();
  });

  test('when another key is forgotten while a key is being read, then the read is kept', () => {
    const cache = new ReadCache<number, string>(60_000, 100);
    const mark = cache.mark();
    cache.delete(2);
    cache.set(1, 'untouched by the write', mark);
    expect(cache.get(1)).toBe('untouched by the write');
    // The generation still moved: equal marks mean that nothing at all was forgotten.
    expect(cache.mark()).not.toBe(mark);
  });

  test('when keys are forgotten by a predicate during reads, then no read under way is kept (the predicate may depend on them); the entries it does not match stay', () => {
    const cache = new ReadCache<string, string>(60_000, 100);
    cache.set('9:0:20', 'page of member 9', cache.mark());
    const mark = cache.mark();
    cache.deleteWhere((key) => key.startsWith('7:'));
    cache.set('7:0:20', 'page of member 7', mark);
    cache.set('8:0:20', 'page of member 8', mark);
    expect(cache.get('7:0:20')).toBeUndefined();
    expect(cache.get('8:0:20')).toBeUndefined();
    expect(cache.get('9:0:20')).toBe('page of member 9');
  });

  test('when the cache is cleared during a read, then the read is not kept; a read begun after is', () => {
    const cache = new ReadCache<number, string>(60_000, 100);
    const mark = cache.mark();
    cache.clear();
    cache.set(1, 'before the clear', mark);
    expect(cache.get(1)).toBeUndefined();
    cache.set(1, 'after the clear', cache.mark());
    expect(cache.get(1)).toBe('after the clear');
  });

  test('when more keys are forgotten than it tracks, then every read under way is refused', () => {
    const cache = new ReadCache<number, string>(60_000, 100);
    const mark = cache.mark();
    for (let key = 1_000; key < 11_001; key++) cache.delete(key);
    cache.set(1, 'overlapped too many writes to tell', mark);
    expect(cache.get(1)).toBeUndefined();
    const later = cache.mark();
    cache.delete(5);
    cache.set(1, 'read after them', later);
    expect(cache.get(1)).toBe('read after them');
  });
});
