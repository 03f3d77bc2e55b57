import { idParamSchema } from '@campus/contracts';
import { notFound } from '../../platform/errors';
import { USER_NOT_FOUND } from './queries';

/** `:id` of a user route; anything but a positive integer names no user. */
export function userIdParam(raw: string | undefined): number {
  const parsed = idParamSchema.safeParse(raw);
  if (!parsed.success) throw notFound(USER_NOT_FOUND);
  return parsed.data;
}
