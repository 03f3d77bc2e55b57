/** Cursors: batching a result by count and bytes, getMore and killCursors. */
import { calculateObjectSize, Long } from 'bson';
import { serverError } from '../errors';
import { isPlainObject, type Doc } from '../values';
import { MAX_BSON_BYTES } from '../wire';
import {
  CURSOR_TIMEOUT_MS,
  DEFAULT_BATCH,
  num,
  type CommandContext,
  type Cursor,
  type Handler,
} from './context';

const BATCH_BYTES = MAX_BSON_BYTES - 64 * 1024;

/** Takes up to `count` documents (and at most ~16 MiB) from the cursor. */
export function takeBatch(cursor: Cursor, count: number): Doc[] {
  const out: Doc[] = [];
  let bytes = 0;
  while (cursor.pos < cursor.docs.length && out.length < count) {
    const d = cursor.docs[cursor.pos] as Doc;
    const size = calculateObjectSize(d);
    if (out.length > 0 && bytes + size > BATCH_BYTES) break;
    out.push(d);
    bytes += size;
    cursor.pos++;
  }
  return out;
}

export function cursorReply(
  ctx: CommandContext,
  ns: string,
  docs: Doc[],
  batchSize: number | undefined,
  single = false,
  noTimeout = false,
): Doc {
  const cursor: Cursor = { ns, docs, pos: 0, lastUsed: Date.now() };
  if (noTimeout) cursor.noTimeout = true;
  const first = takeBatch(
    cursor,
    batchSize === undefined || batchSize === 0 ? DEFAULT_BATCH : batchSize,
  );
  let id = 0;
  if (!single && cursor.pos < docs.length) {
    id = ctx.nextCursorId();
    ctx.cursors.set(id, cursor);
  }
  return { cursor: { firstBatch: first, id: Long.fromNumber(id), ns }, ok: 1 };
}

export function cursorBatchSize(cmd: Doc): number | undefined {
  return isPlainObject(cmd.cursor) && cmd.cursor.batchSize !== undefined
    ? num(cmd.cursor.batchSize, DEFAULT_BATCH)
    : undefined;
}

export const getMore: Handler = (cmd, db, ctx) => {
  const id = num(cmd.getMore, 0);
  const cursor = ctx.cursors.get(id);
  const now = Date.now();
  // Timed out but not yet closed by the monitor (which runs every few seconds): closed now.
  if (cursor && isIdle(cursor, ctx.cursorTimeoutMs ?? CURSOR_TIMEOUT_MS, now))
    ctx.cursors.delete(id);
  else if (cursor) cursor.lastUsed = now;
  if (!ctx.cursors.has(id) || !cursor)
    throw serverError('CursorNotFound', `cursor id ${id} not found`);
  const batch = takeBatch(cursor, cmd.batchSize ? num(cmd.batchSize, 0) : Infinity);
  const done = cursor.pos >= cursor.docs.length;
  if (done) ctx.cursors.delete(id);
  return { cursor: { nextBatch: batch, id: Long.fromNumber(done ? 0 : id), ns: cursor.ns }, ok: 1 };
};

function isIdle(cursor: Cursor, timeoutMs: number, now: number): boolean {
  return !cursor.noTimeout && now - cursor.lastUsed > timeoutMs;
}

/**
 * Closes the cursors idle for longer than `timeoutMs` (except `noCursorTimeout` ones), as mongod's
 * cursor monitor does; a later getMore of one gets CursorNotFound. Returns how many it closed.
 */
export function reapIdleCursors(
  cursors: Map<number, Cursor>,
  timeoutMs: number,
  now = Date.now(),
): number {
  let closed = 0;
  for (const [id, cursor] of cursors) {
    if (!isIdle(cursor, timeoutMs, now)) continue;
    cursors.delete(id);
    closed++;
  }
  return closed;
}

export const killCursors: Handler = (cmd, _db, ctx) => {
  const ids = Array.isArray(cmd.cursors) ? cmd.cursors : [];
  const killed: Long[] = [];
  const notFound: Long[] = [];
  for (const raw of ids) {
    const id = num(raw, 0);
    (ctx.cursors.delete(id) ? killed : notFound).push(Long.fromNumber(id));
  }
  return {
    cursorsKilled: killed,
    cursorsNotFound: notFound,
    cursorsAlive: [],
    cursorsUnknown: [],
    ok: 1,
  };
};
