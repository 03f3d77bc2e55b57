/** Views: a collection defined by a pipeline over another, read-only, resolved at read time. */
import { Aggregator } from '../mingo';
import type { Collection } from '../collection';
import type { Engine } from '../engine';
import { serverError } from '../errors';
import { findDocs, findInDocs, guard, type FindOptions } from '../query';
import { normalizeTimezones } from '../timezones';
import type { Doc } from '../values';

export function resolver(engine: Engine, db: string) {
  return (name: string) => allDocs(engine, db, name);
}

/** Every document of a collection, or of a view (its pipeline run over its source). */
export function allDocs(engine: Engine, db: string, name: string, depth = 0): Doc[] {
  const coll = engine.collection(db, name);
  if (!coll) return [];
  if (!isView(coll)) return [...coll.docs.values()];
  if (depth > 20)
    throw serverError(
      'ViewDepthLimitExceeded',
      'View depth too deep or view cycle detected; maximum depth is 20',
    );
  const input = allDocs(engine, db, String(coll.options.viewOn), depth + 1);
  return guard(
    () =>
      new Aggregator(normalizeTimezones(coll.options.pipeline as Doc[]), {
        collectionResolver: resolver(engine, db),
        processingMode: 1,
      }).run(input) as Doc[],
  );
}

export function isView(coll: Collection | undefined): boolean {
  return coll !== undefined && typeof coll.options.viewOn === 'string';
}

/** find/count/distinct input: the planner over a collection, or a filter over a view's output. */
export function readDocs(
  engine: Engine,
  db: string,
  name: string,
  filter: Doc,
  opts: FindOptions = {},
): Doc[] {
  const coll = engine.collection(db, name);
  if (isView(coll)) return findInDocs(allDocs(engine, db, name), filter, opts);
  return findDocs(coll, filter, opts);
}

export function rejectView(engine: Engine, db: string, name: string): void {
  if (isView(engine.collection(db, name)))
    throw serverError(
      'CommandNotSupportedOnView',
      `Namespace ${db}.${name} is a view, not a collection`,
    );
}
