/**
 * Reports (issue 18): a member reports a post, a comment or a member once; the administrator sees
 * the open reports grouped by target (one entry per target, with every reason) and resolves the
 * group: `remove` soft-deletes the post or comment (or suspends the member), `dismiss` keeps it.
 */
import { z } from 'zod';
import { adminMemberRefSchema, adminPageQuerySchema, adminPageSchema } from './admin';
import { idSchema, isoDateSchema } from './common';
import { postImageSchema } from './media';
import {
  MODERATION_REASON_TEXT_MAX_LENGTH,
  moderationReasonSchema,
  optionalText,
  reportCategorySchema,
} from './moderation-reasons';

export const REPORT_TARGET_TYPES = ['post', 'comment', 'user'] as const;
export const reportTargetTypeSchema = z.enum(REPORT_TARGET_TYPES, {
  error: `Target type must be one of ${REPORT_TARGET_TYPES.join(', ')}`,
});
export type ReportTargetType = z.infer<typeof reportTargetTypeSchema>;

export const REPORT_REASON_MAX_LENGTH = 1000;

/**
 * `POST /api/reports` payload (members): a category (issue 38) and optional words. A report
 * without a category (a client older than categories) must say something, and counts as
 * `other` ("Something else").
 */
export const reportRequestSchema = z
  .strictObject({
    targetType: reportTargetTypeSchema,
    targetId: z
      .number('Target id must be a number')
      .int('Target id must be a whole number')
      .positive('Target id must be positive'),
    category: reportCategorySchema.optional(),
    reason: optionalText('Reason', REPORT_REASON_MAX_LENGTH),
  })
  .refine((body) => body.category !== undefined || body.reason !== undefined, {
    message: 'Choose what is wrong',
    path: ['category'],
  });
export type ReportRequest = z.infer<typeof reportRequestSchema>;

/** `POST /api/reports` response (201). A second report of one target by one member: 409. */
export const reportResponseSchema = z.object({
  id: idSchema,
  targetType: reportTargetTypeSchema,
  targetId: idSchema,
  createdAt: isoDateSchema,
});
export type ReportResponse = z.infer<typeof reportResponseSchema>;

/** The 409 message for a member reporting the same target again. */
export const ALREADY_REPORTED_MESSAGE = 'You have already reported this.';

export const REPORT_STATUSES = ['open', 'resolved'] as const;
export const reportStatusSchema = z.enum(REPORT_STATUSES, {
  error: `Status must be one of ${REPORT_STATUSES.join(', ')}`,
});
export type ReportStatus = z.infer<typeof reportStatusSchema>;

export const REPORT_ACTIONS = ['remove', 'dismiss'] as const;
export const reportActionSchema = z.enum(REPORT_ACTIONS, {
  error: `Action must be one of ${REPORT_ACTIONS.join(', ')}`,
});
export type ReportAction = z.infer<typeof reportActionSchema>;

/**
 * How a case was closed: the administrator's action, or `gone` when what was reported went
 * first (deleted by its author, removed, the account deleted: issue 41), closed by the API.
 */
export const REPORT_RESOLUTIONS = [...REPORT_ACTIONS, 'gone'] as const;
export const reportResolutionSchema = z.enum(REPORT_RESOLUTIONS);
export type ReportResolution = z.infer<typeof reportResolutionSchema>;

/**
 * `GET /api/admin/reports?status=&category=` (default open; most recently reported first):
 * `category` keeps the targets reported at least once for it.
 */
export const adminReportsQuerySchema = adminPageQuerySchema.extend({
  status: reportStatusSchema.default('open'),
  category: reportCategorySchema.optional(),
});
export type AdminReportsQuery = z.infer<typeof adminReportsQuerySchema>;

/**
 * One reported target with every report of it. `id` is the group's id (what resolve takes).
 * `target.content` is the post's or comment's text (null for a member, or if it is gone);
 * `target.postId` is the post to open (the post itself, or the comment's post).
 */
export const adminReportSchema = z.object({
  id: idSchema,
  targetType: reportTargetTypeSchema,
  targetId: idSchema,
  status: reportStatusSchema,
  target: z.object({
    content: z.string().nullable(),
    postId: idSchema.nullable(),
    /** The author of the post or comment, or the reported member; null if the account is gone. */
    author: adminMemberRefSchema.nullable(),
    /** Whether the post or comment is deleted, or the member suspended. */
    removed: z.boolean(),
    /**
     * A reported post's images (issue 39), for the administrator to look at (blurred until
     * clicked). Absent for comments and members, and once the post is removed (its images go).
     */
    images: z.array(postImageSchema).optional(),
  }),
  /** Every report of it, oldest first: its category and the reporter's words (null: none). */
  reasons: z.array(
    z.object({
      category: reportCategorySchema,
      reason: z.string().nullable(),
      createdAt: isoDateSchema,
    }),
  ),
  /** The categories it was reported for, each once. */
  categories: z.array(reportCategorySchema),
  reportCount: z.number().int().positive(),
  createdAt: isoDateSchema,
  lastReportedAt: isoDateSchema,
  resolution: z
    .object({
      action: reportResolutionSchema,
      resolvedAt: isoDateSchema,
      /** The reason the removed content's author (or the suspended member) was given. */
      reason: moderationReasonSchema.nullable(),
    })
    .nullable(),
});
export type AdminReport = z.infer<typeof adminReportSchema>;
export const adminReportListSchema = adminPageSchema(adminReportSchema);
export type AdminReportList = z.infer<typeof adminReportListSchema>;

/**
 * `POST /api/admin/reports/:id/resolve` payload; answers the resolved group. A removal carries
 * the reason its author (or the suspended member) is shown: a category (default `other`) and
 * optional words. A dismissal carries none.
 */
export const resolveReportRequestSchema = z
  .strictObject({
    action: reportActionSchema,
    category: reportCategorySchema.optional(),
    reason: optionalText('Reason', MODERATION_REASON_TEXT_MAX_LENGTH),
  })
  .refine((body) => body.action === 'remove' || (body.category === undefined && !body.reason), {
    message: 'Only a removal carries a reason',
    path: ['category'],
  });
export type ResolveReportRequest = z.infer<typeof resolveReportRequestSchema>;
