/** The feed's tabs (spec §4): For You, Following, JD and Top Posts, through the feed cache. */
import type { FeedQuery, Post as PostView } from '@campus/contracts';
import type { AppContext } from '../../context';
import { startOfDayIn } from '../../platform/time';
import { followedIds } from '../follows/queries';
import type { HeadQuery } from './feed-heads';
import { postsOf, type PostDoc } from './model';
import { presentPosts, presentPostsJson } from './presenters';
import { newestVisible } from './queries';
import type { TopEntry, TopQuery } from './top-posts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Followed authors up to which a Following page is one query sorted by merging each author's
 * index range (`followingPage`). MongoDB merges at most 200 index scans for a sort
 * (`internalQueryMaxScansToExplode`), and `deletedAt: null` takes up to two per author; past that
 * it sorts in memory. The embedded server merges any number (planner.ts `mergeScans`).
 */
const SORT_MERGE_AUTHORS = 100;

/** Top Posts' entries (a few fields each) per reply when today's posts are read. */
const TOP_BATCH = 10_000;

/**
 * Midnight of today in a time zone, worked out once per day: the time zone arithmetic
 * (`startOfDayIn`) cost more than the rest of a cached Top Posts page. Kept with the next
 * midnight (26 h after this one lies in the next day whether it has 23, 24 or 25 hours).
 */
function dayStarts() {
  const kept = new Map<string, { from: number; until: number; start: Date }>();
  return (timezone: string, now: Date = new Date()): Date => {
    const at = now.getTime();
    const day = kept.get(timezone);
    if (day && at >= day.from && at < day.until) return day.start;
    const start = startOfDayIn(timezone, now);
    const until = startOfDayIn(timezone, new Date(start.getTime() + 26 * 60 * 60 * 1000));
    kept.set(timezone, { from: start.getTime(), until: until.getTime(), start });
    return start;
  };
}

const startOfToday = dayStarts();

/**
 * The newest posts of `authors`, one page. For up to SORT_MERGE_AUTHORS authors one query: the
 * index on (authorId, deletedAt, createdAt, _id) holds each author's posts newest first, and the
 * database merges those ranges, reading about a page of keys. Past that, MongoDB sorts every
 * post of every followed author instead (a cost as large as all they ever wrote), so the page is
 * first looked for among recent posts (a day per 20 posts the page reaches down to: page 1
 * looks at the last day). A full page found there is exactly the page (every newer post is in
 * the window); otherwise the authors post little, and reading all their posts is cheap.
 */
export async function followingPage(
  ctx: AppContext,
  authors: number[],
  page: { skip: number; limit: number },
  now: Date,
): Promise<PostDoc[]> {
  const query = (since: Date | undefined) =>
    newestVisible(
      ctx,
      { authorId: { $in: authors }, ...(since ? { createdAt: { $gte: since } } : {}) },
      page,
    );
  if (authors.length <= SORT_MERGE_AUTHORS) return query(undefined);
  const days = Math.ceil((page.skip + page.limit) / 20);
  const recent = await query(new Date(now.getTime() - days * DAY_MS));
  return recent.length === page.limit ? recent : query(undefined);
}

/** One page of a feed tab, newest first (Top Posts: today's, most engaged first). */
export async function listFeed(
  ctx: AppContext,
  viewerId: number,
  query: FeedQuery,
): Promise<PostView[]> {
  return presentPosts(ctx, await feedPosts(ctx, viewerId, query), viewerId);
}

/** `listFeed` as the bytes of the JSON the client receives (what `GET /api/posts` sends). */
export async function listFeedJson(
  ctx: AppContext,
  viewerId: number,
  query: FeedQuery,
): Promise<Buffer> {
  const { posts, ids } = await feedPage(ctx, viewerId, query);
  // `ids`: the cached page's own id list, with which the page's JSON is kept.
  return presentPostsJson(ctx, posts, viewerId, ids);
}

/** The stored posts of one page of a feed tab. */
async function feedPosts(ctx: AppContext, viewerId: number, query: FeedQuery): Promise<PostDoc[]> {
  return (await feedPage(ctx, viewerId, query)).posts;
}

/** A tab's newest visible posts (For You, or JD), created at or after `since` when given. */
function newest(ctx: AppContext, filter: { isJdTagged?: true }): HeadQuery {
  return (since, limit) =>
    newestVisible(ctx, { ...filter, ...(since ? { createdAt: { $gte: since } } : {}) }, { limit });
}

/**
 * Today's visible posts, all of them, with only what orders them (what Top Posts ranks,
 * feed-cache.ts), in one reply where they fit (not a first batch of 101 and a `getMore`).
 */
const todaysPosts =
  (ctx: AppContext): TopQuery =>
  (since) =>
    postsOf(ctx)
      .collection.find<TopEntry>(
        { deletedAt: null, authorSuspended: { $ne: true }, createdAt: { $gte: since } },
        {
          projection: { createdAt: 1, likesCount: 1, commentsCount: 1, repostsCount: 1 },
          batchSize: TOP_BATCH,
        },
      )
      .toArray();

/** One page of a feed tab: its stored posts, and the id list the cache keeps for it. */
export async function feedPage(
  ctx: AppContext,
  viewerId: number,
  query: FeedQuery,
): Promise<{ posts: PostDoc[]; ids: readonly number[] }> {
  const page = { skip: query.offset, limit: query.limit };
  const at = `${page.skip}:${page.limit}`;
  if (query.tab === 'following') {
    return ctx.caches.feed.cachedPage('following', `${viewerId}:${at}`, async () => {
      // The caller's own posts appear too, so a new post shows up where its author is looking.
      const authors = await ctx.caches.feed.followedBy(viewerId, () => followedIds(ctx, viewerId));
      ctx.caches.feed.followingOf(viewerId, authors);
      // Members who follow many active authors find their page among the newest posts of all.
      return (
        (await ctx.caches.feed.headPageOf(authors, page, newest(ctx, {}))) ??
        followingPage(ctx, [...authors], page, ctx.clock.now())
      );
    });
  } else if (query.tab === 'jd') {
    return (
      (await ctx.caches.feed.heads.page('jd', page, newest(ctx, { isJdTagged: true }))) ??
      ctx.caches.feed.cachedPage('shared', `jd:${at}`, () =>
        newestVisible(ctx, { isJdTagged: true }, page),
      )
    );
  } else if (query.topFilter === 'true') {
    const today = startOfToday(ctx.config.timezone, ctx.clock.now());
    const top = await ctx.caches.feed.top.page(today, page, todaysPosts(ctx));
    if (top) return top;
    // Nothing kept (READ_CACHE_MS=0), or the ranking was forgotten while it was read.
    const posts = await postsOf(ctx).aggregate<PostDoc>([
      {
        $match: { deletedAt: null, authorSuspended: { $ne: true }, createdAt: { $gte: today } },
      },
      { $addFields: { score: { $add: ['$likesCount', '$commentsCount', '$repostsCount'] } } },
      { $sort: { score: -1, createdAt: -1, _id: -1 } },
      { $skip: page.skip },
      { $limit: page.limit },
      { $project: { score: 0 } },
    ]);
    return { posts, ids: posts.map((p) => p._id) };
  }
  return (
    (await ctx.caches.feed.heads.page('all', page, newest(ctx, {}))) ??
    ctx.caches.feed.cachedPage('shared', `all:${at}`, () => newestVisible(ctx, {}, page))
  );
}
