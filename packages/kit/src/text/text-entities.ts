// The parts of a member's text that are links (issue 40): @mentions (ranges the API stored),
// web addresses (found by linkifyjs once it is fetched) and #tags (contracts' `tagsInText`, the
// same rule the API stores tags by). Pure, so the order of precedence is tested on its own.
import { tagsInText, type TextMention } from '@campus/contracts';

/** A web address linkifyjs found: where it is and where it leads. */
export interface FoundLink {
  start: number;
  end: number;
  href: string;
}

/** A run of the text: plain, or one of the three kinds of link. */
export type TextSegment =
  | { kind: 'text'; text: string }
  | { kind: 'mention'; text: string; id: number }
  | { kind: 'url'; text: string; href: string }
  | { kind: 'tag'; text: string; tag: string };

type Range = { start: number; end: number; segment: Exclude<TextSegment, { kind: 'text' }> };

/**
 * The mentions that really are in this text: in order, inside it, not overlapping, and each
 * starting with '@'. Anything else (a stale range after an edit, a newer API's shape) stays text.
 */
function mentionRanges(text: string, mentions: readonly TextMention[]): Range[] {
  const ranges: Range[] = [];
  let from = 0;
  for (const { id, start, end } of [...mentions].sort((a, b) => a.start - b.start)) {
    if (start < from || end <= start + 1 || end > text.length || text[start] !== '@') continue;
    ranges.push({ start, end, segment: { kind: 'mention', text: text.slice(start, end), id } });
    from = end;
  }
  return ranges;
}

const overlaps = (range: { start: number; end: number }, taken: readonly Range[]) =>
  taken.some((other) => range.start < other.end && other.start < range.end);

/**
 * The text cut into segments whose texts joined are the text. Precedence where they overlap:
 * a mention (stored by the API) first, then a web address (so `example.org/#top` stays one
 * link), then a tag; `tags: false` leaves '#' words as text (a bio).
 */
export function textSegments(
  text: string,
  {
    mentions = [],
    tags = false,
    links = [],
  }: { mentions?: readonly TextMention[]; tags?: boolean; links?: readonly FoundLink[] },
): TextSegment[] {
  const ranges = mentionRanges(text, mentions);
  for (const link of links) {
    if (link.start < 0 || link.end > text.length || overlaps(link, ranges)) continue;
    ranges.push({
      start: link.start,
      end: link.end,
      segment: { kind: 'url', text: text.slice(link.start, link.end), href: link.href },
    });
  }
  if (tags && text.includes('#')) {
    for (const found of tagsInText(text)) {
      if (overlaps(found, ranges)) continue;
      ranges.push({
        start: found.start,
        end: found.end,
        segment: { kind: 'tag', text: text.slice(found.start, found.end), tag: found.tag },
      });
    }
  }
  ranges.sort((a, b) => a.start - b.start);
  const segments: TextSegment[] = [];
  let at = 0;
  for (const { start, end, segment } of ranges) {
    if (start > at) segments.push({ kind: 'text', text: text.slice(at, start) });
    segments.push(segment);
    at = end;
  }
  if (at < text.length || segments.length === 0) {
    segments.push({ kind: 'text', text: text.slice(at) });
  }
  return segments;
}

/** Where a tag's link leads: its page (`/tags/<tag>`, the tag normalized). */
export const tagPath = (tag: string) => `/tags/${encodeURIComponent(tag)}`;
/** Where a mention's link leads: the member's profile, by id (a rename keeps it). */
export const mentionPath = (id: number) => `/profile/${id}`;
