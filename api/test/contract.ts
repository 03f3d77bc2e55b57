import type { z } from 'zod';

/**
 * Asserts that a response body is exactly what a contract schema describes: it parses, and
 * parsing changed nothing (zod objects drop fields they do not list, so a field the contract does
 * not know, at any depth, shows up as a difference). Returns the body, typed.
 */
export function expectContract<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new Error(
      `response does not match its contract: ${JSON.stringify(parsed.error.issues, null, 2)}\n` +
        JSON.stringify(body, null, 2),
    );
  }
  expect(parsed.data).toStrictEqual(body);
  return parsed.data;
}
