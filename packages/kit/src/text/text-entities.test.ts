import { MAX_TAGS_PER_TEXT } from '@campus/contracts';
import { tagPath, textSegments, type TextSegment } from './text-entities';

const joined = (segments: TextSegment[]) => segments.map((s) => s.text).join('');

describe('textSegments', () => {
  it('links #tags as contracts reads them, normalized, and keeps every character', () => {
    const text = 'Fair on #Café and #مَدرسة, not a#b, ##x or &#39; (#2026 is no tag)';
    const segments = textSegments(text, { tags: true });
    expect(joined(segments)).toBe(text);
    expect(segments.filter((s) => s.kind === 'tag')).toEqual([
      { kind: 'tag', text: '#Café', tag: 'cafe' },
      { kind: 'tag', text: '#مَدرسة', tag: 'مدرسة' },
    ]);
    expect(tagPath('cafe')).toBe('/tags/cafe');
    expect(tagPath('مدرسة')).toBe(`/tags/${encodeURIComponent('مدرسة')}`);
  });

  it('leaves #tags as text without `tags` (a bio), and links only the first 10 distinct tags', () => {
    expect(textSegments('Hi #fair', {})).toEqual([{ kind: 'text', text: 'Hi #fair' }]);
    const many = Array.from({ length: MAX_TAGS_PER_TEXT + 2 }, (_, i) => `#t${i}x`).join(' ');
    const tags = textSegments(`${many} #t0x`, { tags: true }).filter((s) => s.kind === 'tag');
    // every occurrence of the first ten distinct tags, none of the later ones
    expect(tags).toHaveLength(MAX_TAGS_PER_TEXT + 1);
    expect(tags.map((s) => s.text)).not.toContain('#t10x');
  });

  it('links the mentions the API stored, by id, and drops ranges that are not an @name here', () => {
    const text = 'Thanks @Ada Okafor and @Ben!';
    const segments = textSegments(text, {
      mentions: [
        { id: 2, start: 23, end: 27 },
        { id: 1, start: 7, end: 18 },
        { id: 9, start: 8, end: 12 }, // overlaps Ada's
        { id: 8, start: 0, end: 6 }, // not an '@'
        { id: 7, start: 26, end: 40 }, // past the end (a stale range after an edit)
      ],
    });
    expect(segments).toEqual([
      { kind: 'text', text: 'Thanks ' },
      { kind: 'mention', text: '@Ada Okafor', id: 1 },
      { kind: 'text', text: ' and ' },
      { kind: 'mention', text: '@Ben', id: 2 },
      { kind: 'text', text: '!' },
    ]);
  });

  it('keeps a web address whole over a tag inside it, beside mentions and tags', () => {
    const text = '@Zoë #fair see example.org/#news and #news';
    const segments = textSegments(text, {
      tags: true,
      mentions: [{ id: 5, start: 0, end: 4 }],
      links: [{ start: 15, end: 32, href: 'https://example.org/#news' }],
    });
    expect(joined(segments)).toBe(text);
    expect(segments.filter((s) => s.kind !== 'text')).toEqual([
      { kind: 'mention', text: '@Zoë', id: 5 },
      { kind: 'tag', text: '#fair', tag: 'fair' },
      { kind: 'url', text: 'example.org/#news', href: 'https://example.org/#news' },
      { kind: 'tag', text: '#news', tag: 'news' },
    ]);
  });

  it('keeps an empty text one empty segment', () => {
    expect(textSegments('', { tags: true })).toEqual([{ kind: 'text', text: '' }]);
  });
});
