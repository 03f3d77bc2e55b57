/**
 * A small query planner. From a filter it derives per-field constraints that every matching
 * document must satisfy (equalities, $in lists, ranges), picks the index that narrows the
 * candidates most (or that already yields the requested sort order), and scans only that part
 * of the index. The full filter is always re-checked on each candidate, so an index only ever
 * has to return a superset of the matches.
 */
import type { Collection, Index } from './collection';
import { isPlainObject, valueKey, type Doc } from './values';

interface FieldBounds {
  eq?: unknown[]; // the value must be one of these
  low?: unknown;
  high?: unknown;
}

const MAX_IN_COMBINATIONS = 1000;

function usableScalar(v: unknown): boolean {
  return (
    !(v instanceof RegExp) && !(isPlainObject(v) && Object.keys(v).some((k) => k.startsWith('$')))
  );
}

function addConstraint(bounds: Map<string, FieldBounds>, field: string, cond: unknown): void {
  if (field.startsWith('$')) return;
  const b = bounds.get(field) ?? {};
  if (isPlainObject(cond) && Object.keys(cond).some((k) => k.startsWith('$'))) {
    for (const [op, v] of Object.entries(cond)) {
      if (op === '$eq' && usableScalar(v)) b.eq = [v];
      else if (op === '$in' && Array.isArray(v) && v.every(usableScalar)) b.eq = v;
      else if ((op === '$gt' || op === '$gte') && usableScalar(v) && v !== null) b.low = v;
      else if ((op === '$lt' || op === '$lte') && usableScalar(v) && v !== null) b.high = v;
    }
  } else if (usableScalar(cond)) {
    b.eq = [cond];
  }
  bounds.set(field, b);
}

export function extractBounds(
  filter: Doc,
  bounds = new Map<string, FieldBounds>(),
): Map<string, FieldBounds> {
  for (const [field, cond] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(cond)) {
      for (const part of cond) if (isPlainObject(part)) extractBounds(part, bounds);
    } else {
      addConstraint(bounds, field, cond);
    }
  }
  return bounds;
}

export interface Plan {
  /** Candidate documents, possibly with duplicates removed already. */
  candidates: Iterable<Doc>;
  /** True when candidates already come in the requested sort order. */
  sorted: boolean;
  /** Human-readable summary (explain, tests, benchmarks). */
  summary: string;
}

function sortMatches(
  index: Index,
  from: number,
  sort: Array<[string, 1 | -1]>,
): 'forward' | 'reverse' | null {
  if (sort.length === 0 || index.multikey) return null;
  if (from + sort.length > index.fields.length) return null;
  let dir: 'forward' | 'reverse' | null = null;
  for (let i = 0; i < sort.length; i++) {
    const f = index.fields[from + i];
    const [name, d] = sort[i] as [string, 1 | -1];
    if (!f || f.name !== name) return null;
    const here = f.dir === d ? 'forward' : 'reverse';
    if (dir && dir !== here) return null;
    dir = here;
  }
  return dir;
}

function* lookup(coll: Collection, ids: Iterable<string>): Generator<Doc> {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    const d = coll.docs.get(id);
    if (d) yield d;
  }
}

export function plan(coll: Collection, filter: Doc, sort: Array<[string, 1 | -1]>): Plan {
  const bounds = extractBounds(filter);
  const idBounds = bounds.get('_id');
  if (idBounds?.eq) {
    const keys = idBounds.eq.map(valueKey);
    return { candidates: lookup(coll, keys), sorted: keys.length <= 1, summary: 'IDHACK' };
  }

  let best:
    | {
        index: Index;
        prefixes: unknown[][];
        range?: FieldBounds;
        dir: 'forward' | 'reverse' | null;
        score: number;
      }
    | undefined;
  for (const index of coll.indexes) {
    if (!index.complete) continue;
    let prefixes: unknown[][] = [[]];
    let i = 0;
    for (; i < index.fields.length; i++) {
      const b = bounds.get((index.fields[i] as { name: string }).name);
      if (!b?.eq || b.eq.length === 0 || prefixes.length * b.eq.length > MAX_IN_COMBINATIONS) break;
      const next: unknown[][] = [];
      for (const p of prefixes) for (const v of b.eq) next.push([...p, v]);
      prefixes = next;
    }
    const nextField = index.fields[i];
    const rb = nextField ? bounds.get(nextField.name) : undefined;
    const range = rb && (rb.low !== undefined || rb.high !== undefined) ? rb : undefined;
    const dir = prefixes.length === 1 ? sortMatches(index, i, sort) : null;
    const score = i * 10 + (range ? 5 : 0) + (dir ? 3 : 0);
    if (score > 0 && (!best || score > best.score)) best = { index, prefixes, range, dir, score };
  }

  if (!best) {
    return { candidates: coll.docs.values(), sorted: sort.length === 0, summary: 'COLLSCAN' };
  }
  const { index, prefixes, range, dir } = best;
  const reverse = dir === 'reverse';
  function* ids(): Generator<string> {
    for (const prefix of prefixes) {
      const [lo, hi] = index.bounds(prefix, range);
      yield* index.scan(lo, hi, reverse);
    }
  }
  return {
    candidates: lookup(coll, ids()),
    sorted: dir !== null || sort.length === 0,
    summary: `IXSCAN ${index.name}${dir ? ' (sorted)' : ''}`,
  };
}
