import { forgetMembersOf, MemberDocuments, ReadCache } from './read-cache';

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

describe('forgetMembersOf', () => {
  const deleted = (id: number) => ({ filter: { _id: id }, deleted: true as const });

  test('when a document recorded for a member is deleted by _id, then that member alone is forgotten, and reads under way are refused', () => {
    const cache = new ReadCache<number, string>(60_000, 100);
    const owners = new MemberDocuments();
    for (const member of [1, 2]) {
      owners.add(member, [member * 10]);
      cache.set(member, `flags of ${member}`, cache.mark());
    }
    const mark = cache.mark();
    forgetMembersOf(cache, deleted(10), owners);
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(2)).toBe('flags of 2');
    cache.set(3, 'read while the delete arrived', mark);
    expect(cache.get(3)).toBeUndefined();
  });

  test('when a document no entry was read from is deleted by _id, then every entry stays and only reads under way are refused', () => {
    const cache = new ReadCache<number, string>(60_000, 100);
    const owners = new MemberDocuments();
    owners.add(1, [10]);
    cache.set(1, 'flags of 1', cache.mark());
    const mark = cache.mark();
    forgetMembersOf(cache, deleted(99), owners);
    expect(cache.get(1)).toBe('flags of 1');
    cache.set(2, 'may have seen document 99', mark);
    expect(cache.get(2)).toBeUndefined();
  });

  test('when a delete names no member and there is no index, or an update names none, then everything is forgotten', () => {
    const cache = new ReadCache<number, string>(60_000, 100);
    const owners = new MemberDocuments();
    owners.add(1, [10]);
    cache.set(1, 'flags of 1', cache.mark());
    forgetMembersOf(cache, deleted(99));
    expect(cache.get(1)).toBeUndefined();
    cache.set(1, 'flags of 1', cache.mark());
    forgetMembersOf(cache, { filter: { _id: 10 }, update: { $set: { userId: 2 } } }, owners);
    expect(cache.get(1)).toBeUndefined();
  });

  test('when the index is full, then it starts afresh and says so (its cache must forget everything)', () => {
    const owners = new MemberDocuments(3);
    expect(owners.add(1, [1, 2, 3])).toBe(true);
    expect(owners.add(2, [4])).toBe(false);
    expect(owners.memberOf(1)).toBeUndefined();
    expect(owners.memberOf(4)).toBe(2);
  });
});
