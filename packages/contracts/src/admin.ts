/**
 * The administrator's operations (issue 18): account applications and the invitations they
 * produce, feedback replies, members and their suspension, the audit log and the counts the
 * shell's Admin section shows. Every `/api/admin/*` route answers 401 without a token and 403 to
 * anyone but the administrator. Reports (members' side and the admin queue) are in reports.ts.
 */
import { z } from 'zod';
import { idSchema, isoDateSchema, requiredText } from './common';
import { dayParamSchema } from './discovery';
import { feedbackStatusSchema } from './feedback';
import { reportCategorySchema } from './moderation-reasons';
import { affiliationSchema } from './users';

// ---------------------------------------------------------------- paging

export const ADMIN_PAGE_SIZE = 20;
export const ADMIN_MAX_PAGE_SIZE = 100;

/** `?page=&pageSize=` of every admin list: pages count from 1. */
export const adminPageQuerySchema = z.object({
  page: z.coerce
    .number('Page must be a number')
    .int('Page must be a whole number')
    .min(1, 'Page must be at least 1')
    .max(100_000, 'Page must be at most 100000')
    .default(1),
  pageSize: z.coerce
    .number('Page size must be a number')
    .int('Page size must be a whole number')
    .min(1, 'Page size must be at least 1')
    .max(ADMIN_MAX_PAGE_SIZE, `Page size must be at most ${ADMIN_MAX_PAGE_SIZE}`)
    .default(ADMIN_PAGE_SIZE),
});
export type AdminPageQuery = z.infer<typeof adminPageQuerySchema>;

/** One page of an admin list: `total` counts every item of the list (all pages). */
export function adminPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    pageSize: z.number().int().positive(),
  });
}
export interface AdminPage<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** A member as admin lists name them (who sent feedback, who acted in the audit log). */
export const adminMemberRefSchema = z.object({
  id: idSchema,
  name: z.string(),
  email: z.string(),
  avatarUrl: z.string().nullable(),
});
export type AdminMemberRef = z.infer<typeof adminMemberRefSchema>;

// ---------------------------------------------------------------- applications

export const APPLICATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const applicationStatusSchema = z.enum(APPLICATION_STATUSES, {
  error: `Status must be one of ${APPLICATION_STATUSES.join(', ')}`,
});
export type ApplicationStatus = z.infer<typeof applicationStatusSchema>;

/** `GET /api/admin/applications?status=` (default pending; newest first). */
export const adminApplicationsQuerySchema = adminPageQuerySchema.extend({
  status: applicationStatusSchema.default('pending'),
});
export type AdminApplicationsQuery = z.infer<typeof adminApplicationsQuerySchema>;

export const adminApplicationSchema = z.object({
  id: idSchema,
  name: z.string(),
  contactInfo: z.string(),
  message: z.string(),
  status: applicationStatusSchema,
  /** The e-mail address found in the contact information (the invitation goes there), if any. */
  email: z.string().nullable(),
  createdAt: isoDateSchema,
  decidedAt: isoDateSchema.nullable(),
  /** The reason given with a rejection (null when none was given, or not rejected). */
  rejectionReason: z.string().nullable(),
  /**
   * In the list (issue 41: one row per applicant, the newest application): the same applicant's
   * other applications, any status, newest first. A decision answers their pending ones too.
   */
  earlier: z
    .array(
      z.object({
        id: idSchema,
        status: applicationStatusSchema,
        message: z.string(),
        createdAt: isoDateSchema,
        decidedAt: isoDateSchema.nullable(),
      }),
    )
    .optional(),
});
export type AdminApplication = z.infer<typeof adminApplicationSchema>;
export const adminApplicationListSchema = adminPageSchema(adminApplicationSchema);
export type AdminApplicationList = z.infer<typeof adminApplicationListSchema>;

/** How long an invitation link works. */
export const INVITATION_TTL_DAYS = 14;

/**
 * `POST /api/admin/applications/:id/approve` response. `invitationUrl` is
 * `${WEB_URL}/register?invitation=<token>`, the link for hand delivery (single use, 14 days): an
 * account registered through it always verifies its e-mail by mail. `emailed` says whether an
 * invitation was e-mailed to the address found in the contact information; that mail carries
 * another link of the same invitation, the only one that makes that very address verified at
 * once (holding it proves the mailbox). Either link uses the invitation up.
 */
export const approveApplicationResponseSchema = z.object({
  invitationUrl: z.string(),
  expiresAt: isoDateSchema,
  emailed: z.boolean(),
  application: adminApplicationSchema,
});
export type ApproveApplicationResponse = z.infer<typeof approveApplicationResponseSchema>;

export const REJECTION_REASON_MAX_LENGTH = 1000;

/** `POST /api/admin/applications/:id/reject` payload: an optional reason (e-mailed if possible). */
export const rejectApplicationRequestSchema = z.strictObject({
  reason: z
    .string('Reason must be text')
    .trim()
    .max(
      REJECTION_REASON_MAX_LENGTH,
      `Reason must be at most ${REJECTION_REASON_MAX_LENGTH} characters`,
    )
    .optional(),
});
export type RejectApplicationRequest = z.infer<typeof rejectApplicationRequestSchema>;

export const rejectApplicationResponseSchema = z.object({
  emailed: z.boolean(),
  application: adminApplicationSchema,
});
export type RejectApplicationResponse = z.infer<typeof rejectApplicationResponseSchema>;

// ---------------------------------------------------------------- invitations

/**
 * `GET /api/invitations/:token` (public): who was invited, so the registration page can greet
 * them and fill the address in. 404 for an unknown token, 410 for a used or expired one.
 */
export const invitationResponseSchema = z.object({
  name: z.string(),
  email: z.string().optional(),
});
export type InvitationResponse = z.infer<typeof invitationResponseSchema>;

// ---------------------------------------------------------------- feedback

/** `GET /api/admin/feedback?status=` (default pending; newest first). */
export const adminFeedbackQuerySchema = adminPageQuerySchema.extend({
  status: feedbackStatusSchema.default('pending'),
});
export type AdminFeedbackQuery = z.infer<typeof adminFeedbackQuerySchema>;

export const adminFeedbackSchema = z.object({
  id: idSchema,
  message: z.string(),
  status: feedbackStatusSchema,
  /** Who sent it; null when the account no longer exists. */
  author: adminMemberRefSchema.nullable(),
  /** The latest reply sent to the member, if any. */
  reply: z.string().nullable(),
  repliedAt: isoDateSchema.nullable(),
  createdAt: isoDateSchema,
  updatedAt: isoDateSchema,
});
export type AdminFeedback = z.infer<typeof adminFeedbackSchema>;
export const adminFeedbackListSchema = adminPageSchema(adminFeedbackSchema);
export type AdminFeedbackList = z.infer<typeof adminFeedbackListSchema>;

export const FEEDBACK_REPLY_MAX_LENGTH = 2000;

/**
 * `PUT /api/admin/feedback/:id` payload: the new status and an optional reply, which the member
 * receives as a `feedback_reply` notification.
 */
export const adminFeedbackUpdateSchema = z.strictObject({
  status: feedbackStatusSchema,
  reply: requiredText('Reply', FEEDBACK_REPLY_MAX_LENGTH).optional(),
});
export type AdminFeedbackUpdate = z.infer<typeof adminFeedbackUpdateSchema>;

// ---------------------------------------------------------------- members

export const MEMBER_STATUSES = ['active', 'suspended', 'unverified'] as const;
export const memberStatusSchema = z.enum(MEMBER_STATUSES, {
  error: `Status must be one of ${MEMBER_STATUSES.join(', ')}`,
});
export type MemberStatus = z.infer<typeof memberStatusSchema>;

export const ADMIN_USER_SEARCH_MAX_LENGTH = 100;

/** `GET /api/admin/users?q=&status=`: `q` finds a part of the name or e-mail (any case). */
export const adminUsersQuerySchema = adminPageQuerySchema.extend({
  q: z
    .string('Search must be text')
    .trim()
    .max(
      ADMIN_USER_SEARCH_MAX_LENGTH,
      `Search must be at most ${ADMIN_USER_SEARCH_MAX_LENGTH} characters`,
    )
    .optional(),
  status: memberStatusSchema.optional(),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;

export const adminUserSchema = z.object({
  id: idSchema,
  name: z.string(),
  email: z.string(),
  avatarUrl: z.string().nullable(),
  affiliation: affiliationSchema.optional(),
  status: memberStatusSchema,
  isAdmin: z.boolean(),
  suspendedAt: isoDateSchema.nullable(),
  suspensionReason: z.string().nullable(),
  /** The category of the suspension's reason (issue 38); null when not suspended. */
  suspensionCategory: reportCategorySchema.nullable(),
  createdAt: isoDateSchema,
  lastActiveAt: isoDateSchema.nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserListSchema = adminPageSchema(adminUserSchema);
export type AdminUserList = z.infer<typeof adminUserListSchema>;

export const SUSPENSION_REASON_MAX_LENGTH = 1000;

/**
 * `POST /api/admin/users/:id/suspend` payload: the reason the member is shown, a category
 * (issue 38; default `other`) and the administrator's words.
 */
export const suspendUserRequestSchema = z.strictObject({
  category: reportCategorySchema.optional(),
  reason: requiredText('Reason', SUSPENSION_REASON_MAX_LENGTH),
});
export type SuspendUserRequest = z.infer<typeof suspendUserRequestSchema>;

/**
 * The message of the 403 a suspended member gets at sign-in, and of the 401 their tokens get
 * from then on (the client signs out and shows it).
 */
export const ACCOUNT_SUSPENDED_MESSAGE =
  'Your account has been suspended. Please contact the Campus team if you think this is a mistake.';

// ---------------------------------------------------------------- audit log

export const AUDIT_ACTIONS = [
  'application.approve',
  'application.reject',
  'feedback.update',
  'user.suspend',
  'user.reactivate',
  'report.remove',
  'report.dismiss',
  'mail.retry',
  'appeal.lift',
  'appeal.uphold',
] as const;
export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

export const AUDIT_TARGET_TYPES = [
  'application',
  'feedback',
  'user',
  'report',
  'mail',
  'appeal',
] as const;
export const auditTargetTypeSchema = z.enum(AUDIT_TARGET_TYPES);
export type AuditTargetType = z.infer<typeof auditTargetTypeSchema>;

export const auditEntrySchema = z.object({
  id: idSchema,
  createdAt: isoDateSchema,
  /** The administrator who acted (null when the account no longer exists). */
  admin: adminMemberRefSchema.nullable(),
  action: auditActionSchema,
  target: z.object({ type: auditTargetTypeSchema, id: idSchema }),
  /** What the action carried: a reason, a new status, the removed target, ... */
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
/**
 * `GET /api/admin/audit?action=&adminId=&since=&until=` (newest first), issue 41: one action,
 * one administrator's, and days from `since` to `until` inclusive, in the app's time zone.
 */
export const auditQuerySchema = adminPageQuerySchema.extend({
  action: z
    .enum(AUDIT_ACTIONS, { error: `Action must be one of ${AUDIT_ACTIONS.join(', ')}` })
    .optional(),
  adminId: z
    .string('adminId must be a member id')
    .regex(/^[1-9][0-9]{0,15}$/, 'adminId must be a member id')
    .transform(Number)
    .optional(),
  since: dayParamSchema('since').optional(),
  until: dayParamSchema('until').optional(),
});
export type AuditQuery = z.input<typeof auditQuerySchema>;

/** `GET /api/admin/audit`: a page of entries, and everyone who acted in the log (the filter). */
export const auditListSchema = adminPageSchema(auditEntrySchema).extend({
  admins: z.array(adminMemberRefSchema),
});
export type AuditList = z.infer<typeof auditListSchema>;

// ---------------------------------------------------------------- mail delivery

/** retrying: failed at least once, tried again at `nextAttemptAt`; failed: given up. */
export const adminMailStatusSchema = z.enum(['retrying', 'sending', 'failed']);
export type AdminMailStatus = z.infer<typeof adminMailStatusSchema>;

/**
 * An account e-mail that keeps failing. Never its body or links: they carry sign-in tokens.
 */
export const adminMailSchema = z.object({
  id: idSchema,
  to: z.string(),
  /** Null for a mail written when sent (a reset link) whose writing failed before it had one. */
  subject: z.string().nullable(),
  status: adminMailStatusSchema,
  attempts: z.number().int().nonnegative(),
  lastError: z.string(),
  /** When it is tried again (null once failed for good). */
  nextAttemptAt: isoDateSchema.nullable(),
  createdAt: isoDateSchema,
});
export type AdminMail = z.infer<typeof adminMailSchema>;
/** `GET /api/admin/mail`: mails failed or failing, newest first. */
export const adminMailListSchema = adminPageSchema(adminMailSchema);
export type AdminMailList = z.infer<typeof adminMailListSchema>;

// ---------------------------------------------------------------- summary

/** `GET /api/admin/summary`: the counts the shell's Admin section shows. */
export const adminSummarySchema = z.object({
  pendingApplications: z.number().int().nonnegative(),
  openReports: z.number().int().nonnegative(),
  pendingAppeals: z.number().int().nonnegative(),
  pendingFeedback: z.number().int().nonnegative(),
});
export type AdminSummary = z.infer<typeof adminSummarySchema>;
