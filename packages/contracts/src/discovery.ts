// Find and be found (issue 40): post search, tags (pages, trending, following a tag), mention
// autocomplete and bookmarks. Tag and mention rules of the text itself: text-entities.ts.
import { z } from 'zod';
import { idParamSchema, idSchema } from './common';
import { postListSchema } from './posts';
import { isTag, normalizeTag, TAG_MAX_LENGTH } from './text-entities';

/** Posts per page of search results, tag pages and bookmarks. */
export const DISCOVERY_PAGE_SIZE = 20;
export const POST_SEARCH_QUERY_MAX_LENGTH = 200;

/** An opaque `nextCursor` of a page before: the API alone reads it. */
const cursorSchema = z
  .string('The cursor must be text')
  .min(1, 'The cursor must be a nextCursor from a page before')
  .max(200, 'The cursor must be a nextCursor from a page before')
  .regex(/^[A-Za-z0-9._:-]+$/, 'The cursor must be a nextCursor from a page before');

/** A calendar day in a query (`YYYY-MM-DD`), named `field` in its 400s. */
export const dayParamSchema = (field: string) =>
  z
    .string(`${field} must be a date (YYYY-MM-DD)`)
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date (YYYY-MM-DD)`)
    .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), `${field} must be a real date`);

const flagSchema = (field: string) => z.enum(['true', 'false'], `${field} must be true or false`);

/**
 * `GET /api/search/posts` query. `q` is plain words (a phrase in double quotes, `-word` to
 * exclude, as MongoDB's `$text` reads them); anything else in it is read as text, never as an
 * operator or a pattern. `from` a member's id; `jd=true` JD posts only; `images=true` posts with
 * pictures only; `since`/`until` days, inclusive, in the app's time zone.
 */
export const postSearchQuerySchema = z.object({
  q: z
    .string('q is required')
    .trim()
    .min(1, 'q is required')
    .max(
      POST_SEARCH_QUERY_MAX_LENGTH,
      `q must be at most ${POST_SEARCH_QUERY_MAX_LENGTH} characters`,
    ),
  from: idParamSchema.optional(),
  jd: flagSchema('jd').optional(),
  images: flagSchema('images').optional(),
  since: dayParamSchema('since').optional(),
  until: dayParamSchema('until').optional(),
  cursor: cursorSchema.optional(),
});
export type PostSearchQuery = z.input<typeof postSearchQuerySchema>;

/**
 * A page of posts (search results, a tag's posts, bookmarks): posts as in the feed, with the
 * viewer's blocks, mutes and muted words applied; `nextCursor` null on the last page.
 */
export const postPageSchema = z.object({
  posts: postListSchema,
  nextCursor: z.string().nullable(),
});
export type PostPage = z.infer<typeof postPageSchema>;

/** `?cursor=`: the query of a paged list with nothing else (bookmarks, a tag's posts). */
export const cursorQuerySchema = z.object({ cursor: cursorSchema.optional() });

/**
 * A tag in a path (`/api/tags/:tag`), without '#', as written or normalized: the API normalizes
 * it. Something that cannot be a tag is a 400; a tag no post has is an empty page.
 */
export const tagPathParamsSchema = z.strictObject({
  tag: z
    .string()
    .max(TAG_MAX_LENGTH * 4, 'Invalid tag')
    .transform(normalizeTag)
    .refine(isTag, 'Invalid tag'),
});

/** `GET /api/tags/:tag`: a tag's posts, newest first, with how many posts carry it. */
export const tagPageSchema = postPageSchema.extend({
  tag: z.string(),
  postsCount: z.number().int().nonnegative(),
  /** Whether the caller follows the tag (its posts join their Following tab). */
  isFollowed: z.boolean(),
});
export type TagPage = z.infer<typeof tagPageSchema>;

/** How many tags "Trending today" lists at most. */
export const TRENDING_TAGS_LIMIT = 10;

/** One tag of a list of tags. */
export const tagSummarySchema = z.object({
  tag: z.string(),
  postsCount: z.number().int().nonnegative(),
});
export type TagSummary = z.infer<typeof tagSummarySchema>;

/**
 * `GET /api/tags/trending`: today's top tags (the app's time zone, `day`), by how many distinct
 * members used each today, then by posts; posts the caller cannot see do not count for them.
 */
export const trendingTagsSchema = z.object({
  day: z.string(),
  timeZone: z.string(),
  tags: z
    .array(tagSummarySchema.extend({ authorsCount: z.number().int().positive() }))
    .max(TRENDING_TAGS_LIMIT),
});
export type TrendingTags = z.infer<typeof trendingTagsSchema>;

export const TAG_SEARCH_LIMIT = 20;
/** `GET /api/search/tags?q=`: tags starting with q (normalized; a leading '#' is ignored). */
export const tagSearchQuerySchema = z.object({
  q: z
    .string('q is required')
    .trim()
    .min(1, 'q is required')
    .max(
      POST_SEARCH_QUERY_MAX_LENGTH,
      `q must be at most ${POST_SEARCH_QUERY_MAX_LENGTH} characters`,
    ),
});
/** Most used first, at most `TAG_SEARCH_LIMIT`. */
export const tagSearchResultSchema = z.object({
  tags: z.array(tagSummarySchema).max(TAG_SEARCH_LIMIT),
});
export type TagSearchResult = z.infer<typeof tagSearchResultSchema>;

/** How many tags one member can follow. */
export const MAX_FOLLOWED_TAGS = 500;
/** `POST` (follow) and `DELETE` (unfollow) `/api/tags/:tag/follow`: idempotent. */
export const tagFollowResponseSchema = z.object({ tag: z.string(), followed: z.boolean() });
export type TagFollowResponse = z.infer<typeof tagFollowResponseSchema>;
/** `GET /api/tags/followed`: the caller's followed tags, in the order followed, newest first. */
export const followedTagsSchema = z.object({ tags: z.array(z.string()) });
export type FollowedTags = z.infer<typeof followedTagsSchema>;

export const MENTION_SUGGESTIONS_LIMIT = 8;
/**
 * `GET /api/users/mention-suggestions?q=`: members whose name or e-mail starts with q (as people
 * search matches), people the caller follows first; an empty q answers people the caller
 * follows. Never the caller, members who blocked the caller or whom the caller blocked.
 */
export const mentionSuggestionsQuerySchema = z.object({
  q: z.string('q must be text').trim().max(50, 'q must be at most 50 characters').default(''),
});
export const mentionCandidateSchema = z.object({
  id: idSchema,
  name: z.string(),
  email: z.string(),
  avatarUrl: z.string().nullable(),
  isFollowing: z.boolean(),
});
export type MentionCandidate = z.infer<typeof mentionCandidateSchema>;
export const mentionSuggestionsSchema = z
  .array(mentionCandidateSchema)
  .max(MENTION_SUGGESTIONS_LIMIT);

/** How many posts one member can keep bookmarked. */
export const MAX_BOOKMARKS = 10_000;
/**
 * `POST` (keep) and `DELETE` (drop) `/api/posts/:id/bookmark`: idempotent; private to the caller
 * (no one else sees bookmarks or counts them).
 */
export const bookmarkResponseSchema = z.object({ postId: idSchema, bookmarked: z.boolean() });
export type BookmarkResponse = z.infer<typeof bookmarkResponseSchema>;
