import { normalizeTag, TAG_SEARCH_LIMIT, TRENDING_TAGS_LIMIT, isTag } from '@campus/contracts';
import type { TagSearchResult, TrendingTags } from '@campus/contracts';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import type { AppContext } from '../../context';
import { startOfDayIn } from '../../platform/time';
import { hiddenAuthors } from '../posts/discovery-page';
import { tagsStartingWith, tagUseBetween } from '../posts/discovery-queries';
import { viewerSafety } from '../safety/relations';

/**
 * "Trending today": the tags used today (the app's time zone, `APP_TIMEZONE`) by the most
 * distinct members, then by posts, then alphabetically; at most TRENDING_TAGS_LIMIT. Members the
 * caller blocked, was blocked by or muted do not count (their posts are not seen).
 */
export async function trendingTags(ctx: AppContext, viewerId: number): Promise<TrendingTags> {
  const timeZone = ctx.config.timezone;
  const now = ctx.clock.now();
  const since = startOfDayIn(timeZone, now);
  // 26 hours after midnight lies in the next day whatever its length (as posts/feed.ts reckons days).
  const until = startOfDayIn(timeZone, new Date(since.getTime() + 26 * 60 * 60 * 1000));
  const [uses, safety] = await Promise.all([
    tagUseBetween(ctx, since, until),
    viewerSafety(ctx, viewerId),
  ]);
  const hidden = new Set(hiddenAuthors(safety));
  const tags = uses
    .map(({ tag, authors }) => {
      const seen = authors.filter((a) => !hidden.has(a.id));
      return {
        tag,
        authorsCount: seen.length,
        postsCount: seen.reduce((n, a) => n + a.posts, 0),
      };
    })
    .filter((t) => t.authorsCount > 0)
    .sort(
      (a, b) =>
        b.authorsCount - a.authorsCount ||
        b.postsCount - a.postsCount ||
        (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0),
    )
    .slice(0, TRENDING_TAGS_LIMIT);
  return { day: format(new TZDate(now.getTime(), timeZone), 'yyyy-MM-dd'), timeZone, tags };
}

/**
 * Tags starting with `q` (a leading '#' ignored, normalized as tags are), most used first. A q
 * that cannot begin a tag finds none.
 */
export async function searchTags(ctx: AppContext, q: string): Promise<TagSearchResult> {
  const prefix = normalizeTag(q.trim().replace(/^#+/, ''));
  if (!/^[\p{L}\p{M}\p{N}_]+$/u.test(prefix) || prefix.length > 64) return { tags: [] };
  const tags = await tagsStartingWith(ctx, prefix, TAG_SEARCH_LIMIT);
  return { tags: tags.filter((t) => isTag(t.tag)) };
}
