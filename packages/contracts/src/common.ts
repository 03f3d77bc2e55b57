import { z } from 'zod';

/** Every entity has a numeric, sequential id (spec: "the user with id 107"). */
export const idSchema = z.number().int().positive();

/** Dates cross the wire as ISO-8601 strings. */
export const isoDateSchema = z.iso.datetime({ offset: true });

/** Every error response of the API. */
export const errorResponseSchema = z.object({ message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** Path parameters such as `/api/users/:id` arrive as strings of digits. */
export const idParamSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, 'Invalid id')
  .transform(Number);

/** The path parameters of a call without any (`/api/settings`). */
export const noPathParamsSchema = z.strictObject({});
/** The path parameters of `/api/posts/:id` and every other `:id` route. */
export const idPathParamsSchema = z.strictObject({ id: idParamSchema });
/** The path parameters of a `:token` route (e-mail verification, invitations). */
export const tokenPathParamsSchema = z.strictObject({ token: z.string() });

/** Trimmed, non-empty text with an upper bound. */
export function requiredText(field: string, max: number) {
  return z
    .string(`${field} is required`)
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);
}

/** Calls whose payload is empty (e.g. follow): any field is refused. */
export const emptyRequestSchema = z.strictObject({});

/**
 * Characters that change how text looks without being seen: C0/C1 controls (NUL included),
 * bidirectional marks, embeddings, overrides and isolates (which can make a name read backwards
 * or hide what follows it), and zero-width characters (which make two names that look the same
 * different, or hide text). Tab and line breaks are checked apart: a bio may have line breaks.
 */
const INVISIBLE_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/u;
/** A zero-width joiner between two emoji builds one emoji (👩‍💻): the one place it is harmless. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})/gu;
const LINE_BREAKS = /[\t\n\r\u2028\u2029]/;

/** Whether `value` has none of the invisible characters above (line breaks only if allowed). */
export function isVisibleText(value: string, { lineBreaks }: { lineBreaks: boolean }): boolean {
  const text = value.replace(EMOJI_JOINER, '');
  return !INVISIBLE_CHARACTERS.test(text) && (lineBreaks || !LINE_BREAKS.test(text));
}

/** The 400 message for text that carries such characters. */
export function invisibleCharactersMessage(field: string): string {
  return `${field} cannot contain control, invisible or text-direction characters`;
}

/**
 * A person's display name (registration, profile, account application): trimmed, 1 to `max`
 * characters, on one line, without invisible characters.
 */
export function personNameSchema(
  field: string,
  max: number,
  messages: { required: string; tooLong: string },
) {
  return z
    .string(messages.required)
    .trim()
    .min(1, messages.required)
    .max(max, messages.tooLong)
    .refine((value) => isVisibleText(value, { lineBreaks: false }), {
      message: invisibleCharactersMessage(field),
    });
}
