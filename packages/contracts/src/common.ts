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
