import { z } from 'zod';
import { idSchema, invisibleCharactersMessage, isoDateSchema, isVisibleText } from './common';

/**
 * Block, mute and muted words (issue 38). A block hides two members from each other everywhere
 * and ends their follows; a mute hides the muted member's posts, reposts and notifications from
 * the muter only; a muted word or phrase collapses the posts and hides the notifications that
 * contain it. Nobody is told they were blocked or muted.
 */

/** How long a mute (of a member, or of a word) lasts. */
export const MUTE_DURATIONS = ['1d', '7d', 'forever'] as const;
export const muteDurationSchema = z.enum(MUTE_DURATIONS, {
  error: "Duration must be '1d', '7d' or 'forever'",
});
export type MuteDuration = z.infer<typeof muteDurationSchema>;
/** Each duration in milliseconds (`forever`: no expiry). */
export const MUTE_DURATION_MS: Readonly<Record<MuteDuration, number | null>> = {
  '1d': 24 * 60 * 60 * 1000,
  '7d': 7 * 24 * 60 * 60 * 1000,
  forever: null,
};

/** Per member, at most: past these a new block, mute or word is refused with a 400. */
export const MAX_BLOCKS = 10_000;
export const MAX_MUTES = 10_000;
export const MAX_MUTED_WORDS = 200;
export const MUTED_WORD_MAX_LENGTH = 100;

/** `POST /api/users/:id/mute` payload (no duration: forever). */
export const muteRequestSchema = z.strictObject({
  duration: muteDurationSchema.default('forever'),
});
export type MuteRequest = z.input<typeof muteRequestSchema>;

/** `POST /api/safety/muted-words` payload. */
export const mutedWordRequestSchema = z.strictObject({
  phrase: z
    .string('Word or phrase is required')
    .trim()
    .min(1, 'Word or phrase is required')
    .max(
      MUTED_WORD_MAX_LENGTH,
      `Word or phrase must be at most ${MUTED_WORD_MAX_LENGTH} characters`,
    )
    .refine((v) => isVisibleText(v, { lineBreaks: false }), {
      message: invisibleCharactersMessage('Word or phrase'),
    }),
  duration: muteDurationSchema.default('forever'),
});
export type MutedWordRequest = z.input<typeof mutedWordRequestSchema>;

/** `POST` and `DELETE /api/users/:id/block`. */
export const blockResponseSchema = z.object({ userId: idSchema, blocked: z.boolean() });
export type BlockResponse = z.infer<typeof blockResponseSchema>;

/** `POST` and `DELETE /api/users/:id/mute`: `until` null with `muted`: forever. */
export const muteResponseSchema = z.object({
  userId: idSchema,
  muted: z.boolean(),
  until: isoDateSchema.nullable(),
});
export type MuteResponse = z.infer<typeof muteResponseSchema>;

/** A muted word or phrase as its owner sees it (`until` null: forever). */
export const mutedWordSchema = z.object({
  id: idSchema,
  phrase: z.string(),
  until: isoDateSchema.nullable(),
  createdAt: isoDateSchema,
});
export type MutedWord = z.infer<typeof mutedWordSchema>;

/** A member in the Privacy and safety lists. */
export const safetyMemberSchema = z.object({
  id: idSchema,
  name: z.string(),
  email: z.string(),
  avatarUrl: z.string().nullable(),
  /** When the block or mute was made. */
  since: isoDateSchema,
});
export type SafetyMember = z.infer<typeof safetyMemberSchema>;

/** `GET /api/safety`: the caller's blocks, mutes in force and muted words in force, newest first. */
export const safetyListsSchema = z.object({
  blocked: z.array(safetyMemberSchema),
  muted: z.array(safetyMemberSchema.extend({ until: isoDateSchema.nullable() })),
  words: z.array(mutedWordSchema),
});
export type SafetyLists = z.infer<typeof safetyListsSchema>;
