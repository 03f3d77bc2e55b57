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
 * for each query word that the text holds as it was typed (case-insensitively), so an exact
 * word beats a stemmed one: the text score alone cannot tell them apart.
 */
const RANK_EPOCH = Date.UTC(2020, 0, 1);
const RECENCY_SCALE_MS = (30 * 24 * 60 * 60 * 1000) / Math.LN2;
const EXACT_BONUS = 0.5;
/** Query words checked for an exact match at most (the first ones). */
const EXACT_WORDS_MAX = 8;

/** What ends a word in the exact-word check: what MongoDB's text index splits words on. */
const WORD_EDGE = `[\\s.,;:!?"()\\[\\]{}<>/\\\\|@#*&^%$+=~\`'’“”«»،؛؟-]`;

/** The words of a `$text` search string, without negated ones (`-word`), for the exact check. */
export function exactWords(q: string): string[] {
  const words = q
    .split(/\s+/)
    .filter((w) => w && !w.startsWith('-'))
    .map((w) => w.replace(/^["']+|["'.,;:!?]+$/g, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  return [...new Set(words.map((w) => w.toLowerCase()))].slice(0, EXACT_WORDS_MAX);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
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
  const ownText = {
    $concat: [{ $ifNull: ['$content', ''] }, ' ', { $ifNull: ['$repostComment', ''] }],
  };
  const exact = exactWords(q).map((w) => ({
    $cond: [
      {
        $regexMatch: {
          input: ownText,
          regex: `(^|${WORD_EDGE})${escapeRegex(w)}($|${WORD_EDGE})`,
          options: 'i',
        },
      },
      EXACT_BONUS,
      0,
    ],
  }));
  const relevance = { $add: [{ $meta: 'textScore' }, ...exact] };
  const rank = {
    $add: [
      { $ln: relevance },
      { $divide: [{ $subtract: [{ $toLong: '$createdAt' }, RANK_EPOCH] }, RECENCY_SCALE_MS] },
    ],
  };
  const pipeline: Record<string, unknown>[] = [
    { $match: match },
    { $addFields: { rank } },
    ...(after
      ? [
          {
            $match: {
              $or: [{ rank: { $lt: after.rank } }, { rank: after.rank, _id: { $lt: after.id } }],
            },
          },
        ]
      : []),
    { $sort: { rank: -1, _id: -1 } },
    { $limit: limit },
  ];
  // Through the driver: the pipeline is made here, of numbers, dates and the search string.
  return postsOf(ctx).collection.aggregate<RankedPost>(pipeline).toArray();
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
): Promise<PostDoc[]> {
  if (hidden.length > 0) return taggedPosts(ctx, [tag], hidden, after, limit);
  const at = after ? `${after.createdAt.getTime()}.${after.id}` : '';
  const { posts } = await ctx.caches.feed.cachedPage('shared', `tag:${tag}|${at}|${limit}`, () =>
    taggedPosts(ctx, [tag], hidden, after, limit),
  );
  return posts;
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
