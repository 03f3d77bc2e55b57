/**
 * What post search, tag pages, trending tags and tag search read of the posts (issue 40; the
 * use cases are in modules/search and modules/tags). Every query leaves out what no reader may
 * see (deleted posts, suspended authors' posts) and the authors the caller hides (`hidden`).
 */
import type { AppContext } from '../../context';
import { postsOf, type PostDoc } from './model';
import { NEWEST_FIRST } from './queries';

/** Visible posts, not by the authors in `hidden`. A fresh object each time. */
function visibleNotBy(hidden: number[]): Record<string, unknown> {
  return {
    deletedAt: null,
    authorSuspended: { $ne: true },
    ...(hidden.length ? { authorId: { $nin: hidden } } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Post search.

/**
 * Ranking. A result's rank is `ln(relevance) + (createdAt - RANK_EPOCH) / RECENCY_SCALE_MS`,
 * i.e. relevance × e^(age / scale) against a fixed epoch: the order of relevance × recency, but
 * a number that does not depend on "now", so a result keeps its rank from one page to the next
 * and the cursor (the last rank and id) is stable while time passes. With a scale of 30 days /
 * ln 2, a post 30 days newer outranks one twice as relevant; at equal relevance the newer wins.
 *
 * Relevance is MongoDB's text score (stemmed words: "running" finds "runs") plus EXACT_BONUS
 * for each query word that the text holds as it was typed (case-insensitively, as a whole
 * word), so an exact word beats a stemmed one: the text score alone cannot tell them apart.
 *
 * Cost. The candidates are the SEARCH_CANDIDATES best text scores (one `find` sorted by score:
 * the text index hands them best first, and only they are read, with only the fields the rank
 * needs); they are ranked here. A word in fewer posts than that is ranked over all of them; for
 * a common word, posts outside the most relevant SEARCH_CANDIDATES are not results (ranking
 * every match by recency costs a read of all of them: 2 s for a word in a quarter of 100,000
 * posts on the embedded server). A new post that enters the candidates can push the last one
 * out between two pages; nothing is ever repeated.
 */
const RANK_EPOCH = Date.UTC(2020, 0, 1);
const RECENCY_SCALE_MS = (30 * 24 * 60 * 60 * 1000) / Math.LN2;
const EXACT_BONUS = 0.5;
/** Query words checked for an exact match at most (the first ones). */
const EXACT_WORDS_MAX = 8;
export const SEARCH_CANDIDATES = 100;

/** The words of a `$text` search string, without negated ones (`-word`), for the exact check. */
export function exactWords(q: string): string[] {
  const words = q
    .split(/\s+/)
    .filter((w) => w && !w.startsWith('-'))
    .map((w) => w.replace(/^["'(]+|["'.,;:!?)]+$/g, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  return [...new Set(words.map((w) => w.toLowerCase()))].slice(0, EXACT_WORDS_MAX);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Whole-word, case-insensitive matchers of the query's words. */
function exactMatchers(q: string): RegExp[] {
  return exactWords(q).map(
    (w) => new RegExp(`(?<![\\p{L}\\p{M}\\p{N}_])${escapeRegex(w)}(?![\\p{L}\\p{M}\\p{N}_])`, 'iu'),
  );
}

/** The rank of a post of relevance `relevance` written at `createdAt` (see above). */
export function rankOf(relevance: number, createdAt: Date): number {
  return Math.log(relevance) + (createdAt.getTime() - RANK_EPOCH) / RECENCY_SCALE_MS;
}

export interface PostSearchFilters {
  authorId?: number;
  jdOnly?: boolean;
  withImages?: boolean;
  since?: Date;
  /** Exclusive. */
  until?: Date;
}

/** A position in ranked results: after this rank (and, at an equal rank, this id). */
export interface RankPosition {
  rank: number;
  id: number;
}

export type RankedPost = PostDoc & { rank: number };

interface Candidate {
  _id: number;
  content?: string;
  repostComment?: string | null;
  createdAt: Date;
  score: number;
}

/**
 * One page of posts matching the `$text` search `q` and the filters, best ranked first, after
 * `after` when given. `limit + 1` asks whether there is more. A `$text` search string MongoDB
 * cannot parse is its error (the caller turns it into a 400).
 */
export async function searchPostsRanked(
  ctx: AppContext,
  q: string,
  filters: PostSearchFilters,
  hidden: number[],
  after: RankPosition | undefined,
  limit: number,
): Promise<RankedPost[]> {
  const match: Record<string, unknown> = {
    $text: { $search: q },
    ...visibleNotBy(hidden),
  };
  if (filters.authorId !== undefined) {
    match.authorId = hidden.includes(filters.authorId) ? { $in: [] } : filters.authorId;
  }
  if (filters.jdOnly) match.isJdTagged = true;
  if (filters.withImages) match['images.0'] = { $exists: true };
  if (filters.since || filters.until) {
    match.createdAt = {
      ...(filters.since ? { $gte: filters.since } : {}),
      ...(filters.until ? { $lt: filters.until } : {}),
    };
  }
  // Through the driver: the filter is made here, of numbers, dates and the search string.
  const candidates = await postsOf(ctx)
    .collection.find<Candidate>(match, {
      projection: { score: { $meta: 'textScore' }, content: 1, repostComment: 1, createdAt: 1 },
      sort: { score: { $meta: 'textScore' } },
      limit: SEARCH_CANDIDATES,
    })
    .toArray();
  const matchers = exactMatchers(q);
  const ranked: RankPosition[] = [];
  for (const c of candidates) {
    const text = `${c.content ?? ''}\n${c.repostComment ?? ''}`;
    let relevance = c.score;
    for (const m of matchers) if (m.test(text)) relevance += EXACT_BONUS;
    const rank = rankOf(relevance, c.createdAt);
    if (after && (rank > after.rank || (rank === after.rank && c._id >= after.id))) continue;
    ranked.push({ rank, id: c._id });
  }
  ranked.sort((a, b) => b.rank - a.rank || b.id - a.id);
  const page = ranked.slice(0, limit);
  const posts = await ctx.caches.feed.postsById(page.map((r) => r.id));
  return page.flatMap(({ id, rank }) => {
    const post = posts.get(id);
    return post && post.deletedAt === null ? [{ ...post, rank }] : [];
  });
}

// ---------------------------------------------------------------------------------------------
// Tags.

/** A position in a newest-first list: after this post. */
export interface TimePosition {
  createdAt: Date;
  id: number;
}

/** One page of the visible posts carrying any of `tags`, newest first, after `after`. */
export async function taggedPosts(
  ctx: AppContext,
  tags: string[],
  hidden: number[],
  after: TimePosition | undefined,
  limit: number,
): Promise<PostDoc[]> {
  if (tags.length === 0) return [];
  const filter: Record<string, unknown> = {
    tags: tags.length === 1 ? tags[0] : { $in: tags },
    ...visibleNotBy(hidden),
  };
  if (after) {
    filter.$or = [
      { createdAt: { $lt: after.createdAt } },
      { createdAt: after.createdAt, _id: { $lt: after.id } },
    ];
  }
  return postsOf(ctx).collection.find<PostDoc>(filter, { sort: NEWEST_FIRST, limit }).toArray();
}

/**
 * A page of a tag's posts (`taggedPosts` of one tag), for a viewer who hides nobody through the
 * feed cache's shared pages (forgotten by any new, deleted or edited post, as For You's are), so
 * a tag page read again costs what a cached feed page does.
 */
export async function tagPagePosts(
  ctx: AppContext,
  tag: string,
  hidden: number[],
  after: TimePosition | undefined,
  limit: number,
): Promise<{ posts: PostDoc[]; ids?: readonly number[] }> {
  if (hidden.length > 0) return { posts: await taggedPosts(ctx, [tag], hidden, after, limit) };
  const at = after ? `${after.createdAt.getTime()}.${after.id}` : '';
  // `ids`: the cached page's own id list, with which its JSON is kept (presentPostsJson).
  return ctx.caches.feed.cachedPage('shared', `tag:${tag}|${at}|${limit}`, () =>
    taggedPosts(ctx, [tag], hidden, after, limit),
  );
}

/** `taggedPostsCount`, kept with the shared pages for a viewer who hides nobody. */
export function tagPostsCount(ctx: AppContext, tag: string, hidden: number[]): Promise<number> {
  if (hidden.length > 0) return taggedPostsCount(ctx, tag, hidden);
  return ctx.caches.feed.cachedCount(`tag:${tag}`, () => taggedPostsCount(ctx, tag, hidden));
}

/** How many visible posts carry `tag` (not counting those of the authors in `hidden`). */
export function taggedPostsCount(ctx: AppContext, tag: string, hidden: number[]): Promise<number> {
  return postsOf(ctx).collection.countDocuments({ tags: tag, ...visibleNotBy(hidden) });
}

/**
 * For each tag used in [since, until): the authors who used it and how many of their posts
 * carry it.
 */
export async function tagUseBetween(
  ctx: AppContext,
  since: Date,
  until: Date,
): Promise<Array<{ tag: string; authors: Array<{ id: number; posts: number }> }>> {
  const rows = await postsOf(ctx)
    .collection.aggregate<{ _id: string; authors: Array<{ id: number; posts: number }> }>([
      {
        $match: {
          createdAt: { $gte: since, $lt: until },
          'tags.0': { $exists: true },
          deletedAt: null,
          authorSuspended: { $ne: true },
        },
      },
      { $project: { tags: 1, authorId: 1 } },
      { $unwind: '$tags' },
      { $group: { _id: { tag: '$tags', author: '$authorId' }, posts: { $sum: 1 } } },
      { $group: { _id: '$_id.tag', authors: { $push: { id: '$_id.author', posts: '$posts' } } } },
    ])
    .toArray();
  return rows.map((r) => ({ tag: r._id, authors: r.authors }));
}

/**
 * Tags starting with `prefix` on visible posts, most used first (then alphabetically), at most
 * `limit`, with how many posts carry each. Reads the range of the tags index.
 */
export async function tagsStartingWith(
  ctx: AppContext,
  prefix: string,
  limit: number,
): Promise<Array<{ tag: string; postsCount: number }>> {
  const range = { $gte: prefix, $lt: `${prefix}\uffff` };
  const rows = await postsOf(ctx)
    .collection.aggregate<{ _id: string; count: number }>([
      { $match: { tags: range, deletedAt: null, authorSuspended: { $ne: true } } },
      { $project: { tags: 1 } },
      { $unwind: '$tags' },
      { $match: { tags: range } },
      { $group: { _id: '$tags', count: { $sum: 1 } } },
      { $sort: { count: -1, _id: 1 } },
      { $limit: limit },
    ])
    .toArray();
  return rows.map((r) => ({ tag: r._id, postsCount: r.count }));
}
