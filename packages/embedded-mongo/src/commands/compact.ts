/**
 * mongod's `compact` command (`{ compact: <collection> }`): here one journal holds every
 * collection, so the whole journal is rewritten as a snapshot, in the background (see
 * background-compaction.ts): other commands keep being served meanwhile. The reply comes when
 * it is done, with `bytesFreed` (the journal's size before, less its size after, which includes
 * what was written meanwhile). A compaction already in progress is waited for instead of
 * starting another. Without a data directory there is nothing to rewrite: `bytesFreed: 0` at once.
 */
import type { Engine } from '../engine';
import { serverError } from '../errors';
import type { Doc } from '../values';
import { collName } from './context';
import { isView } from './views';

export function compact(cmd: Doc, db: string, engine: Engine): Doc | Promise<Doc> {
  const name = collName(cmd, 'compact');
  const c = engine.collection(db, name);
  if (!c) throw serverError('NamespaceNotFound', `collection does not exist: ${db}.${name}`);
  if (isView(c)) throw serverError('CommandNotSupportedOnView', `can't compact a view`);
  const done = engine.compactInBackground();
  if (!done) return { bytesFreed: 0, ok: 1 };
  return done.then((r) => ({ bytesFreed: Math.max(0, r.bytesBefore - r.bytesAfter), ok: 1 }));
}
