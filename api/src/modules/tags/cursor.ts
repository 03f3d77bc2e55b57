import { badRequest } from '../../platform/errors';
import type { TimePosition } from '../posts/discovery-queries';

const BAD_CURSOR = 'The cursor must be a nextCursor from a page before';

/** A newest-first page's cursor: the last post's time (ms) and id. */
export function encodeTimeCursor(p: { createdAt: Date; _id: number }): string {
  return `${p.createdAt.getTime()}.${p._id}`;
}

export function decodeTimeCursor(cursor: string): TimePosition {
  const m = /^(\d{1,15})\.(\d{1,15})$/.exec(cursor);
  if (!m) throw badRequest(BAD_CURSOR);
  const id = Number(m[2]);
  const at = Number(m[1]);
  if (!Number.isSafeInteger(id) || id < 1 || !Number.isSafeInteger(at))
    throw badRequest(BAD_CURSOR);
  return { createdAt: new Date(at), id };
}
