/**
 * Post search (`GET /api/search/posts`, issue 40): MongoDB's text index over each post's own
 * text (posts/model.ts `post_text`), `$text` with its text score, ranked by relevance and
 * recency (posts/discovery-queries.ts says how, and why the rank is stable), with the filters
 * from a member, JD posts only, with pictures and a range of days in the app's time zone.
 * What the viewer hides is left out as in the feed, muted words are marked.
 */
import { DISCOVERY_PAGE_SIZE, type PostPage, type postSearchQuerySchema } from '@campus/contracts';
import type { z } from 'zod';
import { TZDate } from '@date-fns/tz';
import type { AppContext } from '../../context';
import { badRequest } from '../../platform/errors';
import { hiddenAuthors, presentScreenedPosts } from '../posts/discovery-page';
import {
  searchPostsRanked,
  type PostSearchFilters,
  type RankPosition,
} from '../posts/discovery-queries';
import { viewerSafety } from '../safety/relations';

/** The query as the contract reads it (`from` a number). */
type PostSearchQuery = z.output<typeof postSearchQuerySchema>;

const BAD_CURSOR = 'The cursor must be a nextCursor from a page before';

/** A ranked page's cursor: the last result's rank (its float64 bits, hex) and id. */
export function encodeRankCursor(p: RankPosition): string {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleBE(p.rank);
  return `${bytes.toString('hex')}.${p.id}`;
}

export function decodeRankCursor(cursor: string): RankPosition {
  const m = /^([0-9a-f]{16})\.(\d{1,15})$/.exec(cursor);
  if (!m) throw badRequest(BAD_CURSOR);
  const rank = Buffer.from(m[1]!, 'hex').readDoubleBE();
  const id = Number(m[2]);
  if (!Number.isFinite(rank) || !Number.isSafeInteger(id) || id < 1) throw badRequest(BAD_CURSOR);
  return { rank, id };
}

/** Midnight starting `day` (YYYY-MM-DD) in `timeZone`, `plusDays` later. */
function dayStart(day: string, timeZone: string, plusDays = 0): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d + plusDays, timeZone).getTime());
}

/** The filters of a query, days read in the app's time zone (`until` inclusive). */
export function searchFilters(
  query: Omit<PostSearchQuery, 'q' | 'cursor'>,
  timeZone: string,
): PostSearchFilters {
  const filters: PostSearchFilters = {};
  if (query.from !== undefined) filters.authorId = query.from;
  if (query.jd === 'true') filters.jdOnly = true;
  if (query.images === 'true') filters.withImages = true;
  if (query.since) filters.since = dayStart(query.since, timeZone);
  if (query.until) filters.until = dayStart(query.until, timeZone, 1);
  if (query.since && query.until && query.since > query.until)
    throw badRequest('since must not be after until');
  return filters;
}

/** MongoDB's errors for a search string or query it cannot read (never a 500). */
const UNREADABLE = new Set([2, 4, 9, 14, 17, 16, 17287, 17288]);

function isUnreadableSearch(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { name, code } = err as { name?: unknown; code?: unknown };
  return (
    typeof name === 'string' &&
    name.startsWith('Mongo') &&
    typeof code === 'number' &&
    UNREADABLE.has(code)
  );
}

export async function searchPosts(
  ctx: AppContext,
  viewerId: number,
  query: PostSearchQuery,
): Promise<PostPage> {
  const after = query.cursor === undefined ? undefined : decodeRankCursor(query.cursor);
  const filters = searchFilters(query, ctx.config.timezone);
  const safety = await viewerSafety(ctx, viewerId);
  let docs;
  try {
    docs = await searchPostsRanked(
      ctx,
      query.q,
      filters,
      hiddenAuthors(safety),
      after,
      DISCOVERY_PAGE_SIZE + 1,
    );
  } catch (err) {
    if (isUnreadableSearch(err)) throw badRequest('q could not be read as a search');
    throw err;
  }
  const more = docs.length > DISCOVERY_PAGE_SIZE;
  const page = docs.slice(0, DISCOVERY_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    posts: await presentScreenedPosts(ctx, viewerId, safety, page),
    nextCursor: more && last ? encodeRankCursor({ rank: last.rank, id: last._id }) : null,
  };
}
