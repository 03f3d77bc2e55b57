import { MAX_MENTIONS_PER_TEXT } from '@campus/contracts';
import { activeMention, insertMention, mentionIdsIn } from './mention-query';

describe('activeMention', () => {
  it('finds the @ being typed before the caret, with up to three words of a name', () => {
    expect(activeMention('Hi @', 4)).toEqual({ start: 3, query: '' });
    expect(activeMention('Hi @Ad', 6)).toEqual({ start: 3, query: 'Ad' });
    expect(activeMention('@Ada Ok', 7)).toEqual({ start: 0, query: 'Ada Ok' });
    expect(activeMention('(@زينب', 6)).toEqual({ start: 1, query: 'زينب' });
    // the caret decides: here it is right after '@Ad'
    expect(activeMention('Hi @Ad and more', 6)).toEqual({ start: 3, query: 'Ad' });
  });

  it('finds none in an e-mail address, after a newline, past three words or 50 characters', () => {
    expect(activeMention('mail ada@campus', 15)).toBeNull();
    expect(activeMention('Hi @Ada\nthere', 13)).toBeNull();
    expect(activeMention('@one two three four', 19)).toBeNull();
    expect(activeMention(`@${'a'.repeat(51)}`, 52)).toBeNull();
    expect(activeMention(`x${'a'.repeat(49)}@bc`, 53)).toBeNull();
    expect(activeMention('no at sign', 10)).toBeNull();
  });
});

describe('insertMention', () => {
  it("replaces what was typed with '@Name ' and puts the caret after it", () => {
    expect(insertMention('Hi @Ad', { start: 3, caret: 6 }, 'Ada Okafor')).toEqual({
      text: 'Hi @Ada Okafor ',
      caret: 15,
    });
    // text after the caret stays, without doubling its space
    expect(insertMention('@b see you', { start: 0, caret: 2 }, 'Ben')).toEqual({
      text: '@Ben see you',
      caret: 5,
    });
  });
});

describe('mentionIdsIn', () => {
  const ada = { id: 1, name: 'Ada Okafor' };
  const ben = { id: 2, name: 'Ben' };

  it('sends the picked members still named in the text, in their order, once each', () => {
    expect(mentionIdsIn('@Ben and @Ada Okafor, @Ben again', [ada, ben, ben])).toEqual([2, 1]);
    // deleted from the text, or only a longer word left: not sent
    expect(mentionIdsIn('@Benjamin and Ada', [ada, ben])).toEqual([]);
    expect(mentionIdsIn('x@Ben', [ben])).toEqual([]);
  });

  it(`sends at most ${MAX_MENTIONS_PER_TEXT}`, () => {
    const picks = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, name: `M${i}` }));
    const text = picks.map((p) => `@${p.name}`).join(' ');
    expect(mentionIdsIn(text, picks)).toEqual(
      picks.slice(0, MAX_MENTIONS_PER_TEXT).map((p) => p.id),
    );
  });
});
