// Your own words under your control (issue 38): editing your own posts and comments, with their
// earlier versions kept and viewable, and deleting your own comments and replies.
import { z } from 'zod';
import { idSchema, isoDateSchema } from './common';
import { REPOST_COMMENT_MAX_LENGTH } from './posts';
import { mentionIdsSchema } from './text-entities';

/** How many times one post or comment can be edited: each edit keeps a version. */
export const MAX_EDITS = 50;
export const POST_MAX_LENGTH = 5000;
export const COMMENT_MAX_LENGTH = 2000;

/**
 * What text of a post its author can edit: a post's own `content`, or a quote's `repostComment`
 * (at most 280 characters, as when it was written). A plain repost has no text of its own, and a
 * comment shared to the timeline is edited as the comment (its copy follows). The one rule the
 * API enforces and clients follow to offer Edit.
 */
export function editablePostText(post: {
  originalPostId?: number | null;
  repostComment?: string | null;
  sharedCommentId?: number | null;
}): { field: 'content' | 'repostComment'; max: number } | null {
  if (post.originalPostId === null || post.originalPostId === undefined) {
    return { field: 'content', max: POST_MAX_LENGTH };
  }
  if (post.sharedCommentId !== null && post.sharedCommentId !== undefined) return null;
  if (post.repostComment === null || post.repostComment === undefined) return null;
  return { field: 'repostComment', max: REPOST_COMMENT_MAX_LENGTH };
}

/** `PUT /api/posts/:id` payload: the post's new text (a quote's new comment). */
export const editPostSchema = z.strictObject({
  content: z
    .string('Post text is required')
    .trim()
    .min(1, 'Post text is required')
    .max(POST_MAX_LENGTH, `Post text must be at most ${POST_MAX_LENGTH} characters`),
  /** The members mentioned in the new text; absent: the earlier mentions still in it. */
  mentions: mentionIdsSchema.optional(),
});
export type EditPostRequest = z.input<typeof editPostSchema>;

/** `PUT /api/comments/:id` payload: the comment's new text. */
export const editCommentSchema = z.strictObject({
  content: z
    .string('Comment is required')
    .trim()
    .min(1, 'Comment is required')
    .max(COMMENT_MAX_LENGTH, `Comment must be at most ${COMMENT_MAX_LENGTH} characters`),
  /** The members mentioned in the new text; absent: the earlier mentions still in it. */
  mentions: mentionIdsSchema.optional(),
});
export type EditCommentRequest = z.input<typeof editCommentSchema>;

/** One version of a post's or comment's text and when it was written. */
export const contentVersionSchema = z.object({
  content: z.string(),
  writtenAt: isoDateSchema,
});
export type ContentVersion = z.infer<typeof contentVersionSchema>;

/**
 * `GET /api/posts/:id/versions` and `GET /api/comments/:id/versions`: every version of the text,
 * newest first; the first is the current text (one version: never edited).
 */
export const contentVersionListSchema = z.object({ versions: z.array(contentVersionSchema) });
export type ContentVersionList = z.infer<typeof contentVersionListSchema>;

/**
 * `DELETE /api/comments/:id` response. `placeholder`: the comment had replies and stays as a
 * "deleted" placeholder above them; `commentsCount`: the post's count after the delete.
 */
export const deleteCommentResponseSchema = z.object({
  id: idSchema,
  postId: idSchema,
  deleted: z.literal(true),
  placeholder: z.boolean(),
  commentsCount: z.number().int().nonnegative(),
});
export type DeleteCommentResponse = z.infer<typeof deleteCommentResponseSchema>;
