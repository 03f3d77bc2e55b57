/** The feed's tabs (spec §4): For You, Following, JD and Top Posts, through the feed cache. */
import type { FeedQuery, Post as PostView } from '@campus/contracts';
import type { AppContext } from '../../context';
import { startOfDayIn } from '../../platform/time';
import { followedIds } from '../follows/queries';
import { viewerSafety, type ViewerSafety } from '../safety/relations';
import { followedTagsOf } from '../tags/queries';
import type { SafetyRecord } from '../safety/safety-cache';
import type { HeadQuery } from './feed-heads';
import { postsOf, type PostDoc } from './model';
import { presentPosts, presentPostsJson } from './presenters';
import { newestVisible } from './queries';
import { screenPosts } from './screen';
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

/**
 * A Following page of a member who follows tags: the posts of `authors` and the posts carrying
 * any of `tags`, newest first. From the For You head where it holds the page (as for authors
 * alone); otherwise the top `skip + limit` of each (two index ranges: authors', and the tags
 * index's) merged, duplicates (a followed author's tagged post) once.
 */
async function followingWithTags(
  ctx: AppContext,
  authors: ReadonlySet<number>,
  tags: readonly string[],
  page: { skip: number; limit: number },
): Promise<PostDoc[]> {
  const tagSet = new Set(tags);
  const inHead = await ctx.caches.feed.headPageOf(authors, page, newest(ctx, {}), (p) =>
    (p.tags ?? []).some((t) => tagSet.has(t)),
  );
  if (inHead) return inHead;
  const top = { skip: 0, limit: page.skip + page.limit };
  const [byAuthors, byTags] = await Promise.all([
    followingPage(ctx, [...authors], top, ctx.clock.now()),
    newestVisible(ctx, { tags: tags.length === 1 ? tags[0] : { $in: [...tags] } }, top),
  ]);
  const merged = new Map<number, PostDoc>();
  for (const p of [...byAuthors, ...byTags]) merged.set(p._id, p);
  return [...merged.values()]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b._id - a._id)
    .slice(page.skip, page.skip + page.limit);
}

/** One page of a feed tab, newest first (Top Posts: today's, most engaged first). */
export async function listFeed(
  ctx: AppContext,
  viewerId: number,
  query: FeedQuery,
): Promise<PostView[]> {
  const safety = await viewerSafety(ctx, viewerId);
  if (safety.empty)
    return presentPosts(ctx, (await feedPage(ctx, viewerId, query)).posts, viewerId);
  const { posts, muted } = await screenedPage(ctx, viewerId, query, safety);
  return withMutedWords(await presentPosts(ctx, posts, viewerId), muted);
}

/** `listFeed` as the bytes of the JSON the client receives (what `GET /api/posts` sends). */
export async function listFeedJson(
  ctx: AppContext,
  viewerId: number,
  query: FeedQuery,
): Promise<Buffer> {
  const safety = await viewerSafety(ctx, viewerId);
  if (safety.empty) {
    const { posts, ids } = await feedPage(ctx, viewerId, query);
    // `ids`: the cached page's own id list, with which the page's JSON is kept.
    return presentPostsJson(ctx, posts, viewerId, ids);
  }
  const { posts, ids, muted } = await screenedPage(ctx, viewerId, query, safety);
  const body = await presentPostsJson(ctx, posts, viewerId, ids);
  return muted.size === 0 ? body : withMutedWordsJson(body, muted);
}

/** The views, each post with a muted word marked with it (the client shows it collapsed). */
export function withMutedWords(views: PostView[], muted: Map<number, string>): PostView[] {
  if (muted.size === 0) return views;
  return views.map((v) => {
    const word = muted.get(v.id);
    return word === undefined ? v : { ...v, mutedWord: word };
  });
}

/** Rounds of reading further down a tab for a page the viewer's blocks and mutes thinned. */
const SCREEN_ROUNDS = 4;

interface ScreenedPage {
  posts: PostDoc[];
  /** The page's id list, the same array while the page holds: its JSON is kept with it. */
  ids: readonly number[];
  muted: Map<number, string>;
}

/**
 * Screened pages, kept while what they were made of is the same: the tab's cached page that the
 * last round read (its id list, the feed cache's own array, and the posts the feed cache holds:
 * an edited post is a new object there, its new text screened again for muted words, issue 38),
 * the originals screened with, and the viewer's record (the safety cache's object, a new one
 * after any block, mute or word), until a mute or word in it runs out. The last round's posts
 * begin with every earlier round's, so they alone decide whether the page holds: a page read
 * again costs one cached read and its comparison, not a screen.
 */
interface KeptScreen {
  /** The last round: its size, the id list and the posts it read. */
  last: { read: number; ids: readonly number[]; posts: PostDoc[] };
  /** The originals the rounds screened with. */
  originals: Map<number, PostDoc>;
  until: number;
  result: ScreenedPage;
}

/** The same posts, as the same cached objects (the feed cache hands the same array while so). */
function samePosts(a: PostDoc[], b: PostDoc[]): boolean {
  if (a === b) return true;
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

/** Screened pages kept per viewer's record, at most this many pages each (oldest go first). */
const KEPT_SCREENS_PER_VIEWER = 32;
const screens = new WeakMap<SafetyRecord, Map<string, KeptScreen>>();
/** Screens under way, by viewer's record and page. */
const screening = new WeakMap<SafetyRecord, Map<string, Promise<ScreenedPage>>>();

function keptScreen(
  ctx: AppContext,
  kept: KeptScreen | undefined,
  now: number,
  last: { ids: readonly number[]; posts: PostDoc[] },
): boolean {
  if (!kept || now >= kept.until) return false;
  if (last.ids !== kept.last.ids || !samePosts(last.posts, kept.last.posts)) return false;
  for (const [id, original] of kept.originals)
    if (ctx.caches.feed.cachedPost(id) !== original) return false;
  return true;
}

/**
 * One page of a tab as a viewer who hides some members sees it: offsets count the posts the
 * viewer sees (so a page the hidden posts thinned is still full and the next starts where it
 * ended). The tab is read from its top down to the page's end (`offset + limit` posts: for page
 * one, the same page everyone reads, from the same caches), further while hidden posts leave
 * it short, at most SCREEN_ROUNDS times.
 */
async function screenedPage(
  ctx: AppContext,
  viewerId: number,
  query: FeedQuery,
  safety: ViewerSafety,
): Promise<ScreenedPage> {
  const end = query.offset + query.limit;
  const read = (limit: number) => feedPage(ctx, viewerId, { ...query, offset: 0, limit });
  const key = `${query.tab}|${query.topFilter ?? ''}|${query.offset}:${query.limit}`;
  const now = ctx.clock.now().getTime();
  const kept = screens.get(safety.record)?.get(key);
  const firstRead = kept ? await read(kept.last.read) : await read(end);
  if (kept && keptScreen(ctx, kept, now, firstRead)) return kept.result;
  // Concurrent requests of the viewer for the page (50 at once as a cached page runs out) wait
  // for one screen rather than each making its own.
  const first = kept ? await read(end) : firstRead;
  let underWay = screening.get(safety.record);
  const running = underWay?.get(key);
  if (running) return running;
  if (!underWay) screening.set(safety.record, (underWay = new Map()));
  const made = screen(ctx, query, safety, key, first, read);
  underWay.set(key, made);
  try {
    return await made;
  } finally {
    if (underWay.get(key) === made) underWay.delete(key);
  }
}

/** Screens the tab from `page` (its top `offset + limit` posts) down; keeps the result. */
async function screen(
  ctx: AppContext,
  query: FeedQuery,
  safety: ViewerSafety,
  key: string,
  first: { posts: PostDoc[]; ids: readonly number[] },
  read: (limit: number) => Promise<{ posts: PostDoc[]; ids: readonly number[] }>,
): Promise<ScreenedPage> {
  const end = query.offset + query.limit;
  let page = first;
  const originals = new Map<number, PostDoc>();
  let size = end;
  for (let round = 1; ; round++) {
    if (round > 1) page = await read(size);
    const screened = await screenPosts(ctx, safety, page.posts);
    const { kept: shown, muted, hidden } = screened;
    for (const [id, original] of screened.originals) originals.set(id, original);
    const exhausted = page.posts.length < size;
    if (shown.length >= end || exhausted || round === SCREEN_ROUNDS) {
      const posts = shown.slice(query.offset, end);
      const whole = hidden === 0 && query.offset === 0 && posts.length === page.posts.length;
      // Only the page's own posts: `muted` may name posts further down the tab.
      const mutedHere = new Map<number, string>();
      for (const p of posts) if (muted.has(p._id)) mutedHere.set(p._id, muted.get(p._id)!);
      const result = { posts, ids: whole ? page.ids : posts.map((p) => p._id), muted: mutedHere };
      let byPage = screens.get(safety.record);
      if (!byPage) screens.set(safety.record, (byPage = new Map()));
      byPage.delete(key);
      if (byPage.size >= KEPT_SCREENS_PER_VIEWER) byPage.delete(byPage.keys().next().value!);
      byPage.set(key, {
        last: { read: size, ids: page.ids, posts: page.posts },
        originals,
        until: safety.stableUntil(),
        result,
      });
      return result;
    }
    // Read as much further again as the hidden posts took away, at least a page.
    size += Math.max(query.limit, Math.ceil((hidden * end) / Math.max(shown.length, 1)));
  }
}

/**
 * The page's JSON with `"mutedWord"` added to each top-level post that has one (a top-level
 * post's object starts the array or follows a comma; an original's follows `"originalPost":`).
 * Kept per body (presentPostsJson hands the same bytes again while the page holds).
 */
const mutedBodies = new WeakMap<Buffer, { muted: Map<number, string>; body: Buffer }>();

function withMutedWordsJson(body: Buffer, muted: Map<number, string>): Buffer {
  const kept = mutedBodies.get(body);
  if (kept && kept.muted === muted) return kept.body;
  let text = body.toString();
  for (const [id, word] of muted) {
    const field = `"mutedWord":${JSON.stringify(word)},`;
    for (const before of ['[', ',']) {
      const at = text.indexOf(`${before}{"id":${id},`);
      if (at >= 0) {
        text = `${text.slice(0, at + 2)}${field}${text.slice(at + 2)}`;
        break;
      }
    }
  }
  const out = Buffer.from(text);
  mutedBodies.set(body, { muted, body: out });
  return out;
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
      const [authors, tags] = await Promise.all([
        ctx.caches.feed.followedBy(viewerId, () => followedIds(ctx, viewerId)),
        ctx.caches.feed.followedTagsBy(viewerId, () => followedTagsOf(ctx, viewerId)),
      ]);
      // And the posts of the tags they follow (issue 40). Whose posts such a page shows is not
      // a list of authors: it is not remembered, so any new post forgets it.
      if (tags.length > 0) return followingWithTags(ctx, authors, tags, page);
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
