import { z } from 'zod';
import { idSchema, isoDateSchema } from './common';
import { attachImagesSchema, postImageSchema } from './media';
import { mentionIdsSchema, textMentionSchema, type TextMention } from './text-entities';
import { affiliationSchema } from './users';

export const FEED_PAGE_SIZE = 20;
export const FEED_MAX_PAGE_SIZE = 50;
/**
 * How far back the feed can be paged: an offset makes the database walk past every skipped post,
 * so an unbounded one lets any member make every feed slow for everyone.
 */
export const FEED_MAX_OFFSET = 1000;
export const REPOST_COMMENT_MAX_LENGTH = 280;

/**
 * The tabs of the home feed (spec §2), the one list of them. `for-you` is the default: the API
 * reads a missing `tab` as `for-you`, so clients leave it out of the query (spec §7).
 */
export const FEED_TABS = ['for-you', 'following', 'jd'] as const;
export const feedTabSchema = z.enum(FEED_TABS);
export type FeedTab = z.infer<typeof feedTabSchema>;
export const DEFAULT_FEED_TAB: FeedTab = 'for-you';

export const postAuthorSchema = z.object({
  id: idSchema,
  name: z.string(),
  email: z.string(),
  avatarUrl: z.string().nullable(),
  /** `alumni` for invited alumni (an Alumni badge); absent for everyone else. */
  affiliation: affiliationSchema.optional(),
});
export type PostAuthor = z.infer<typeof postAuthorSchema>;

const postFields = {
  id: idSchema,
  content: z.string(),
  createdAt: isoDateSchema,
  isJdTagged: z.boolean(),
  likesCount: z.number().int().nonnegative(),
  repostsCount: z.number().int().nonnegative(),
  commentsCount: z.number().int().nonnegative(),
  isLiked: z.boolean(),
  isReposted: z.boolean(),
  /** Whether the viewer may delete the post, decided by the API (today: its author only). */
  canDelete: z.boolean(),
  author: postAuthorSchema,
  originalPostId: idSchema.nullable().optional(),
  repostComment: z.string().nullable().optional(),
  /**
   * Set when the post is a comment its author also shared to their timeline (`syncToTimeline`):
   * the id of that comment on the original post. Such a post reads as a comment, not a repost.
   */
  sharedCommentId: idSchema.nullable().optional(),
  /** When its author last edited its text (null or absent: never); earlier versions: `postVersions`. */
  editedAt: isoDateSchema.nullable().optional(),
  /** Its pictures (issue 39), in their order; absent or empty when it has none. */
  images: z.array(postImageSchema).optional(),
  /**
   * Its @mentions (issue 40), in its own text (`content`, or a quote's `repostComment`), in
   * order; absent or empty when it has none. Tags need no field: `tagsInText` reads them.
   */
  mentions: z.array(textMentionSchema).optional(),
  /** Whether the viewer bookmarked it (issue 40); private to the viewer. */
  isBookmarked: z.boolean().optional(),
};

/**
 * The original of a repost has the same shape, without a further original. A repost whose
 * original was deleted keeps `originalPostId` and has `originalPost: null`.
 */
export const originalPostSchema = z.object(postFields);

/** A post in the feed and in profiles (spec §3 "Post"). */
export const postSchema = z.object({
  ...postFields,
  originalPost: originalPostSchema.nullable().optional(),
  /**
   * Set when the post (or the post it quotes) contains one of the viewer's muted words or
   * phrases (issue 38): the client shows a collapsed "Hidden: contains a muted word" row that
   * opens to the post. Absent otherwise.
   */
  mutedWord: z.string().optional(),
});
export type Post = z.infer<typeof postSchema>;
export const postListSchema = z.array(postSchema);

/**
 * A comment with its replies (one level: a reply has none). Written out, not inferred: the
 * declaration files of project references cannot spell a recursive inferred type (they elide it
 * to `any`), and every client would lose the type of `replies`.
 */
export interface Comment {
  id: number;
  content: string;
  createdAt: string;
  author: PostAuthor;
  likesCount: number;
  isLiked: boolean;
  /** When its author last edited it (null or absent: never); earlier versions: `commentVersions`. */
  editedAt?: string | null;
  /**
   * True for a comment its author deleted while it had replies: a placeholder that keeps the
   * replies in their place, with empty `content`, no likes and no versions.
   */
  deleted?: boolean;
  /** Its @mentions (issue 40), in `content`; absent or empty when it has none. */
  mentions?: TextMention[];
  replies?: Comment[];
}

export const commentSchema: z.ZodType<Comment> = z.object({
  id: idSchema,
  content: z.string(),
  createdAt: isoDateSchema,
  author: postAuthorSchema,
  likesCount: z.number().int().nonnegative(),
  isLiked: z.boolean(),
  editedAt: isoDateSchema.nullable().optional(),
  deleted: z.boolean().optional(),
  mentions: z.array(textMentionSchema).optional(),
  get replies() {
    return z.array(commentSchema).optional();
  },
});

/**
 * A post with the first page of its comments (20 top-level comments with their replies);
 * `commentsNextCursor` asks `GET /api/posts/:id/comments?cursor=` for the next (null: none).
 */
export const postDetailSchema = postSchema.extend({
  comments: z.array(commentSchema),
  commentsNextCursor: z.string().nullable().optional(),
});
export type PostDetail = z.infer<typeof postDetailSchema>;

/** `GET /api/posts/:id/comments?cursor=`: the next page of a post's comments. */
export const commentPageSchema = z.object({
  comments: z.array(commentSchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type CommentPage = z.infer<typeof commentPageSchema>;

/** `GET /api/posts/:id/comments` query: the `nextCursor` of the page before (absent: the first). */
export const commentPageQuerySchema = z.object({
  cursor: z
    .string('The cursor must be text')
    .regex(/^\d{1,15}\.\d{1,15}$/, 'The cursor must be a nextCursor from a page of comments')
    .optional(),
});

/** `POST /api/posts` payload. The maximum length is a server-side limit. */
export const createPostSchema = z.strictObject({
  content: z.string('Post text is required').trim().min(1, 'Post text is required').max(5000),
  syncToProfile: z.boolean().default(true),
  isJdTagged: z.boolean().default(false),
  /** Uploads (`POST /api/media`) of the caller's to attach, with their alt text. */
  images: attachImagesSchema.optional(),
  /** Members picked in the mention autocomplete (text-entities.ts `mentionIdsSchema`). */
  mentions: mentionIdsSchema.optional(),
});
export type CreatePostRequest = z.input<typeof createPostSchema>;

/** `POST /api/posts/:id/repost` payload: an optional comment, sent absent when empty. */
export const repostSchema = z.strictObject({
  comment: z
    .string()
    .trim()
    .max(
      REPOST_COMMENT_MAX_LENGTH,
      `Comment must be at most ${REPOST_COMMENT_MAX_LENGTH} characters`,
    )
    .optional(),
  /** Images of the quote (uploads of the caller's, as on a post). */
  images: attachImagesSchema.optional(),
  /** Members mentioned in the comment (text-entities.ts `mentionIdsSchema`). */
  mentions: mentionIdsSchema.optional(),
});
export type RepostRequest = z.infer<typeof repostSchema>;

/** `POST /api/posts/:id/comments` payload. */
export const createCommentSchema = z.strictObject({
  content: z.string('Comment is required').trim().min(1, 'Comment is required').max(2000),
  syncToTimeline: z.boolean().default(false),
  parentId: idSchema.optional(),
  /** Members mentioned (text-entities.ts `mentionIdsSchema`). */
  mentions: mentionIdsSchema.optional(),
});
export type CreateCommentRequest = z.input<typeof createCommentSchema>;

/** `DELETE /api/posts/:id` response. */
export const deletePostResponseSchema = z.object({ id: idSchema, deleted: z.literal(true) });
export type DeletePostResponse = z.infer<typeof deletePostResponseSchema>;

/**
 * `DELETE /api/posts/:id/repost` response: the caller's plain repost of post `postId` is undone
 * (its repost post `repostPostId` deleted); `repostsCount` is the post's count after it.
 */
export const undoRepostResponseSchema = z.object({
  postId: idSchema,
  repostPostId: idSchema,
  reposted: z.literal(false),
  repostsCount: z.number().int().nonnegative(),
});
export type UndoRepostResponse = z.infer<typeof undoRepostResponseSchema>;

/** `POST /api/posts/:id/like` and `POST /api/comments/:id/like` response. */
export const likeResponseSchema = z.object({
  liked: z.boolean(),
  likesCount: z.number().int().nonnegative(),
});
export type LikeResponse = z.infer<typeof likeResponseSchema>;

/** `GET /api/posts` query (spec §7). No `tab` means For You. */
export const feedQuerySchema = z.object({
  tab: feedTabSchema.default(DEFAULT_FEED_TAB),
  userId: z.coerce.number().int().positive().optional(),
  topFilter: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(FEED_MAX_PAGE_SIZE).default(FEED_PAGE_SIZE),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(
      FEED_MAX_OFFSET,
      `The feed can only be paged ${FEED_MAX_OFFSET} posts back (offset must be at most ${FEED_MAX_OFFSET})`,
    )
    .default(0),
});
export type FeedQuery = z.infer<typeof feedQuerySchema>;
