/**
 * Why something was reported, removed or suspended (issue 38): one closed set of categories,
 * shared by members' reports and the administrator's decisions, plus optional words.
 */
import { z } from 'zod';

export const REPORT_CATEGORIES = [
  'spam',
  'harassment',
  'hate',
  'violence',
  'sexual',
  'misinformation',
  'impersonation',
  'other',
] as const;
export const reportCategorySchema = z.enum(REPORT_CATEGORIES, {
  error: `Category must be one of ${REPORT_CATEGORIES.join(', ')}`,
});
export type ReportCategory = z.infer<typeof reportCategorySchema>;

/** How every client names a category (the report dialog, the admin's filters, the notices). */
export const REPORT_CATEGORY_LABELS: Readonly<Record<ReportCategory, string>> = Object.freeze({
  spam: 'Spam',
  harassment: 'Harassment or bullying',
  hate: 'Hate',
  violence: 'Violence or self-harm',
  sexual: 'Sexual content',
  misinformation: 'Misinformation',
  impersonation: 'Impersonation',
  other: 'Something else',
});

export const MODERATION_REASON_TEXT_MAX_LENGTH = 1000;

/** Optional words: trimmed, at most `max` characters; blank is sent as absent. */
export function optionalText(field: string, max: number) {
  return z
    .string(`${field} must be text`)
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .optional()
    .transform((value) => (value ? value : undefined));
}

/** The reason the administrator gives a removal or a suspension, as the member reads it. */
export const moderationReasonSchema = z.object({
  category: reportCategorySchema,
  /** The administrator's own words, if any. */
  text: z.string().nullable(),
});
export type ModerationReason = z.infer<typeof moderationReasonSchema>;
