/**
 * Reasons and appeals (issue 38). Every removal and suspension the administrator decides is a
 * decision with a reason the member sees; the member appeals it once, in a few sentences (a
 * removal from its notification, a suspension from the sign-in page, which the API's 403 gives
 * an appeal ticket), and the administrator lifts or upholds it from the appeals queue.
 */
import { z } from 'zod';
import { adminMemberRefSchema, adminPageQuerySchema, adminPageSchema } from './admin';
import { idSchema, isoDateSchema, requiredText } from './common';
import {
  MODERATION_REASON_TEXT_MAX_LENGTH,
  moderationReasonSchema,
  optionalText,
} from './moderation-reasons';

/** What was decided: a member suspended, a post or a comment removed. */
export const DECISION_KINDS = ['suspension', 'post_removal', 'comment_removal'] as const;
export const decisionKindSchema = z.enum(DECISION_KINDS);
export type DecisionKind = z.infer<typeof decisionKindSchema>;

export const APPEAL_STATUSES = ['pending', 'lifted', 'upheld'] as const;
export const appealStatusSchema = z.enum(APPEAL_STATUSES, {
  error: `Status must be one of ${APPEAL_STATUSES.join(', ')}`,
});
export type AppealStatus = z.infer<typeof appealStatusSchema>;

/** "A few sentences". */
export const APPEAL_TEXT_MAX_LENGTH = 1000;
const appealText = requiredText('Appeal', APPEAL_TEXT_MAX_LENGTH);

/** The 409 of a second appeal of one decision. */
export const ALREADY_APPEALED_MESSAGE = 'You have already appealed this decision.';
/** The 404 of an unknown decision, or someone else's. */
export const DECISION_NOT_FOUND = 'Decision not found';
/** The 409 of an appeal of a decision that no longer stands (lifted, reactivated). */
export const DECISION_NOT_IN_FORCE = 'This decision no longer applies.';
/** The 400 of a suspension appeal whose ticket is unknown or expired. */
export const APPEAL_TICKET_INVALID =
  'This appeal link has expired. Sign in again to appeal your suspension.';

/** `POST /api/appeals` payload (a signed-in member: a removal of their post or comment). */
export const appealRequestSchema = z.strictObject({
  decisionId: z
    .number('Decision id must be a number')
    .int('Decision id must be a whole number')
    .positive('Decision id must be positive'),
  text: appealText,
});
export type AppealRequest = z.infer<typeof appealRequestSchema>;

/**
 * `POST /api/appeals/suspension` payload (signed out: the member cannot sign in). `ticket` is
 * the one the sign-in's 403 carried (`suspensionNoticeSchema`).
 */
export const suspensionAppealRequestSchema = z.strictObject({
  ticket: z.string('Ticket must be text').regex(/^[A-Za-z0-9_-]{43}$/, APPEAL_TICKET_INVALID),
  text: appealText,
});
export type SuspensionAppealRequest = z.infer<typeof suspensionAppealRequestSchema>;

/** An appeal as the member who made it sees it. */
export const memberAppealSchema = z.object({
  id: idSchema,
  decisionId: idSchema,
  status: appealStatusSchema,
  createdAt: isoDateSchema,
  decidedAt: isoDateSchema.nullable(),
});
export type MemberAppeal = z.infer<typeof memberAppealSchema>;

/**
 * What the 403 of a suspended member's sign-in carries besides the spec's `message`, as
 * `suspension`: the reason, and the appeal made or a `ticket` to make one (valid an hour, and
 * only with the right password: it proves the sign-in).
 */
export const suspensionNoticeSchema = z.object({
  decisionId: idSchema,
  suspendedAt: isoDateSchema,
  reason: moderationReasonSchema,
  appeal: memberAppealSchema.nullable(),
  /** Null once appealed. */
  ticket: z.string().nullable(),
});
export type SuspensionNotice = z.infer<typeof suspensionNoticeSchema>;
/** The body of that 403. */
export const suspendedSignInErrorSchema = z.object({
  message: z.string(),
  suspension: suspensionNoticeSchema,
});
export type SuspendedSignInError = z.infer<typeof suspendedSignInErrorSchema>;

/** `GET /api/admin/appeals?status=` (default pending; oldest first while pending, else newest). */
export const adminAppealsQuerySchema = adminPageQuerySchema.extend({
  status: appealStatusSchema.default('pending'),
});
export type AdminAppealsQuery = z.infer<typeof adminAppealsQuerySchema>;

/** One appeal in the administrator's queue, with the decision it appeals. */
export const adminAppealSchema = z.object({
  id: idSchema,
  status: appealStatusSchema,
  text: z.string(),
  createdAt: isoDateSchema,
  decidedAt: isoDateSchema.nullable(),
  /** What the administrator told the member when deciding, if anything. */
  response: z.string().nullable(),
  /** Who appealed (null if the account is gone). */
  member: adminMemberRefSchema.nullable(),
  decision: z.object({
    id: idSchema,
    kind: decisionKindSchema,
    reason: moderationReasonSchema,
    /** The start of the removed post or comment (null for a suspension). */
    content: z.string().nullable(),
    /** The removed post, or the removed comment's post (null for a suspension). */
    postId: idSchema.nullable(),
    decidedAt: isoDateSchema,
  }),
});
export type AdminAppeal = z.infer<typeof adminAppealSchema>;
export const adminAppealListSchema = adminPageSchema(adminAppealSchema);
export type AdminAppealList = z.infer<typeof adminAppealListSchema>;

export const APPEAL_OUTCOMES = ['lift', 'uphold'] as const;
export const appealOutcomeSchema = z.enum(APPEAL_OUTCOMES, {
  error: `Outcome must be one of ${APPEAL_OUTCOMES.join(', ')}`,
});
export type AppealOutcome = z.infer<typeof appealOutcomeSchema>;

/**
 * `POST /api/admin/appeals/:id/decide` payload: `lift` undoes the decision (the member
 * reactivated, the post or comment restored), `uphold` keeps it; `response` is what the member
 * is told besides the outcome.
 */
export const decideAppealRequestSchema = z.strictObject({
  outcome: appealOutcomeSchema,
  response: optionalText('Response', MODERATION_REASON_TEXT_MAX_LENGTH),
});
export type DecideAppealRequest = z.infer<typeof decideAppealRequestSchema>;

export const APPEAL_NOT_FOUND = 'Appeal not found';
export const APPEAL_ALREADY_DECIDED = 'This appeal has already been decided';
