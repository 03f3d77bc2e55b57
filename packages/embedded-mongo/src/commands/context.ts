/**
 * What every command handler shares: the per-connection context, the handler signature, and
 * the argument checks several command families apply the same way.
 */
import { Long } from 'bson';
import type { Collection } from '../collection';
import type { Engine } from '../engine';
import { badValue, serverError } from '../errors';
import type { FailPoints } from '../failpoints';
import type { ServerState } from './admin';
import { isPlainObject, valueKey, type Doc } from '../values';
import { operationCollator, type Collator } from '../collation';
import { isView } from './views';

export const DEFAULT_BATCH = 101;

export interface Cursor {
  ns: string;
  docs: Doc[];
  pos: number;
  /** When it was created or last read (Date.now()), for the idle timeout. */
  lastUsed: number;
  /** `noCursorTimeout`: never timed out (killCursors or the end of the results close it). */
  noTimeout?: boolean;
}

/** MongoDB's default `cursorTimeoutMillis`: a cursor idle this long is closed. */
export const CURSOR_TIMEOUT_MS = 10 * 60 * 1000;

export interface CommandContext {
  engine: Engine;
  cursors: Map<number, Cursor>;
  nextCursorId: () => number;
  connectionId: number;
  /** The client's application name from its handshake. */
  appName?: string;
  /** Logical sessions seen in commands (`lsid`), for $listLocalSessions. */
  sessions?: Map<string, { id: unknown; lastUse: Date }>;
  /** Idle cursors older than this are closed (default CURSOR_TIMEOUT_MS). */
  cursorTimeoutMs?: number;
  /** Present when test commands are enabled (see failpoints.ts). */
  failPoints?: FailPoints;
  /** The running server's counters and parameters (serverStatus, setParameter). */
  server?: ServerState;
}

export type Handler = (cmd: Doc, db: string, ctx: CommandContext) => Doc;

export function collName(cmd: Doc, key: string): string {
  const name = cmd[key];
  if (typeof name !== 'string' || name.length === 0) {
    throw serverError('InvalidNamespace', `collection name has invalid type ${typeof name}`);
  }
  return name;
}

export function num(v: unknown, fallback: number): number {
  if (v === undefined || v === null) return fallback;
  const n = Number(v instanceof Long ? v.toNumber() : v);
  if (!Number.isFinite(n)) throw badValue(`expected a number, got ${String(v)}`);
  return n;
}

/**
 * mongod refuses a hint naming no existing index (by name or key pattern) with BadValue;
 * `$natural` hints and hints on a collection that does not exist are accepted.
 */
export function checkHint(coll: Collection | undefined, hint: unknown): void {
  if (hint === undefined || hint === null || !coll || isView(coll)) return;
  // A hidden index cannot be hinted (mongod answers as for a missing one).
  if (typeof hint === 'string') {
    if (coll.index(hint) && !coll.index(hint)?.spec.hidden) return;
  } else if (isPlainObject(hint)) {
    if (Object.keys(hint).length === 0 || '$natural' in hint) return;
    const key = valueKey(hint);
    if (coll.indexes.some((i) => valueKey(i.spec.key) === key && !i.spec.hidden)) return;
  } else {
    throw badValue('hint must be a string or an object');
  }
  throw badValue('hint provided does not correspond to an existing index');
}

/**
 * The collation a command reads or writes with (see collation.ts): its `collation` option, else
 * the collection's default; undefined for the simple (binary) one. A view has no collation of
 * its own here, and a non-simple one cannot be asked of it (mongod's error when a view's
 * default collation would be overridden).
 */
export function readCollator(
  collation: unknown,
  coll: Collection | undefined,
): Collator | undefined {
  const collator = operationCollator(collation, coll);
  if (collator && isView(coll))
    throw serverError('OptionNotSupportedOnView', "Cannot override a view's default collation");
  return collator;
}
