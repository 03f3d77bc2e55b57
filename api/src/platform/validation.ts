import type { z } from 'zod';
import { HttpError } from './errors';

/** Parses untrusted input with a contracts schema; the first problem becomes a 400 message. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) {
    throw new HttpError(400, result.error.issues[0]?.message ?? 'Invalid input');
  }
  return result.data;
}
