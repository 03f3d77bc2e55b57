/**
 * Reports (issue 18): a member reports a post, a comment or a member once; the administrator sees
 * the open reports grouped by target (one entry per target, with every reason) and resolves the
 * group: `remove` soft-deletes the post or comment (or suspends the member), `dismiss` keeps it.
 */
import { z } from 'zod';
import { adminMemberRefSchema, adminPageQuerySchema, adminPageSchema } from './admin';
import { idSchema, isoDateSchema, requiredText } from './common';

export const REPORT_TARGET_TYPES = ['post', 'comment', 'user'] as const;
export const reportTargetTypeSchema = z.enum(REPORT_TARGET_TYPES, {
  error: `Target type must be one of ${REPORT_TARGET_TYPES.join(', ')}`,
});
export type ReportTargetType = z.infer<typeof reportTargetTypeSchema>;

export const REPORT_REASON_MAX_LENGTH = 1000;

/** `POST /api/reports` payload (members). */
export const reportRequestSchema = z.strictObject({
  targetType: reportTargetTypeSchema,
  targetId: z
    .number('Target id must be a number')
    .int('Target id must be a whole number')
    .positive('Target id must be positive'),
  reason: requiredText('Reason', REPORT_REASON_MAX_LENGTH),
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

/** `GET /api/admin/reports?status=` (default open; most recently reported first). */
export const adminReportsQuerySchema = adminPageQuerySchema.extend({
  status: reportStatusSchema.default('open'),
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
  }),
  reasons: z.array(z.object({ reason: z.string(), createdAt: isoDateSchema })),
  reportCount: z.number().int().positive(),
  createdAt: isoDateSchema,
  lastReportedAt: isoDateSchema,
  resolution: z.object({ action: reportActionSchema, resolvedAt: isoDateSchema }).nullable(),
});
export type AdminReport = z.infer<typeof adminReportSchema>;
export const adminReportListSchema = adminPageSchema(adminReportSchema);
export type AdminReportList = z.infer<typeof adminReportListSchema>;

/** `POST /api/admin/reports/:id/resolve` payload; answers the resolved group. */
export const resolveReportRequestSchema = z.strictObject({ action: reportActionSchema });
export type ResolveReportRequest = z.infer<typeof resolveReportRequestSchema>;
