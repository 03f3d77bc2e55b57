import { MAX_MENTIONS_PER_TEXT } from '@campus/contracts';
import { placeMentions } from './find-mentions';

const pick = (userId: number, ...written: string[]) => ({ userId, written });
const slices = (text: string, found: ReturnType<typeof placeMentions>) =>
  found.map((m) => [m.userId, text.slice(m.start, m.end)]);

describe('placeMentions', () => {
  test('when a picked name stands in the text, then its mention covers "@Name" with UTF-16 offsets', () => {
    const text = 'Thanks 🎉 @Ada Lovelace!';
    const found = placeMentions(text, [pick(7, '@Ada Lovelace')]);
    expect(found).toEqual([{ userId: 7, start: 10, end: 23 }]);
    expect(text.slice(10, 23)).toBe('@Ada Lovelace');
  });

  test('when the name is only part of a word or of an e-mail address, then it is no mention', () => {
    expect(placeMentions('ask @Annabel', [pick(1, '@Ann')])).toEqual([]);
    expect(placeMentions('mail me at x@Ann', [pick(1, '@Ann')])).toEqual([]);
    expect(placeMentions('@Ann_x', [pick(1, '@Ann')])).toEqual([]);
    // A boundary is any other character: punctuation, a line break, the end.
    expect(slices('(@Ann)\n@Ann', placeMentions('(@Ann)\n@Ann', [pick(1, '@Ann')]))).toEqual([
      [1, '@Ann'],
    ]);
  });

  test('when a member is picked twice, then two occurrences are taken; a third pick finds none', () => {
    const text = '@Bo and @Bo again';
    const found = placeMentions(text, [pick(2, '@Bo'), pick(2, '@Bo'), pick(2, '@Bo')]);
    expect(found.map((m) => m.start)).toEqual([0, 8]);
  });

  test('when one name starts another, then the longer is placed first and neither overlaps', () => {
    const text = 'hi @Ann and @Ann Lee';
    const found = placeMentions(text, [pick(1, '@Ann'), pick(2, '@Ann Lee')]);
    expect(slices(text, found)).toEqual([
      [1, '@Ann'],
      [2, '@Ann Lee'],
    ]);
  });

  test('when the name now is not in the text, then the text written before is looked for', () => {
    const text = 'as @Old Name said';
    expect(slices(text, placeMentions(text, [pick(3, '@New Name', '@Old Name')]))).toEqual([
      [3, '@Old Name'],
    ]);
  });

  test(`when more than ${MAX_MENTIONS_PER_TEXT} members are mentioned, then only the first ${MAX_MENTIONS_PER_TEXT} in the text count`, () => {
    const names = Array.from({ length: 12 }, (_, i) => `M${String.fromCharCode(97 + i)}`);
    const text = names.map((n) => `@${n}`).join(' ');
    // Picked in reverse: the text's order decides, not the order of the picks.
    const found = placeMentions(text, names.map((n, i) => pick(i + 1, `@${n}`)).reverse());
    expect(found.map((m) => m.userId)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  test('when names are in Arabic or accented, then they are found as written', () => {
    const text = 'شكرا @سارة و @José';
    expect(slices(text, placeMentions(text, [pick(1, '@سارة'), pick(2, '@José')]))).toEqual([
      [1, '@سارة'],
      [2, '@José'],
    ]);
  });
});
