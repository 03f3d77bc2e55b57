/**
 * Which conformance tests are skipped, and why. A test is skipped (never counted as passed) when
 *  1. it has a `skipReason`;
 *  2. no entry of its file's or its own `runOnRequirements` can be met by the server we emulate:
 *     a MongoDB 7.0.0 without authentication, CSFLE or serverless, of the topology the suite
 *     runs it as (the CRUD suite: "single"; the replica-set suites: a one-member "replicaset");
 *  3. it uses a feature the package README lists as unsupported (geo / Atlas search, a
 *     collation other than the simple one and the case-insensitive English ones; for the CRUD
 *     suite also transactions and change streams, which it leaves to the replica-set suites),
 *     or a test-runner facility that needs more than one server (see REPLSET_UNSUPPORTED).
 */
import { checkCollation } from '../../src/collation';
import type { Doc } from './match';

export const SERVER_VERSION = '7.0.0';

function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length, 3); i++) {
    const p = x[i] ?? 0;
    const q = y[i] ?? 0;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}

export type Topology = 'single' | 'replicaset';

/** Why one runOnRequirement cannot be met, or undefined when it can. */
function unmet(req: Doc, topology: Topology): string | undefined {
  if (
    typeof req.minServerVersion === 'string' &&
    compareVersions(req.minServerVersion, SERVER_VERSION) > 0
  )
    return `needs server >= ${req.minServerVersion}`;
  if (
    typeof req.maxServerVersion === 'string' &&
    compareVersions(req.maxServerVersion, SERVER_VERSION) < 0
  )
    return `needs server <= ${req.maxServerVersion}`;
  if (Array.isArray(req.topologies) && !req.topologies.includes(topology))
    return `needs topology ${req.topologies.join('/')}`;
  if (req.serverless === 'require') return 'needs serverless';
  if (req.auth === true) return 'needs authentication';
  if (req.authMechanism !== undefined) return 'needs an authentication mechanism';
  if (req.csfle !== undefined && req.csfle !== false) return 'needs CSFLE';
  if (req.serverParameters !== undefined) return 'needs server parameters';
  return undefined;
}

export function requirementsUnmet(
  reqs: unknown,
  topology: Topology = 'single',
): string | undefined {
  if (!Array.isArray(reqs) || reqs.length === 0) return undefined;
  const reasons = (reqs as Doc[]).map((r) => unmet(r, topology));
  if (reasons.some((r) => r === undefined)) return undefined;
  return reasons.join(' or ');
}

const UNSUPPORTED_OPERATIONS: Record<string, string> = {
  startTransaction: 'transactions',
  commitTransaction: 'transactions',
  abortTransaction: 'transactions',
  withTransaction: 'transactions',
  createChangeStream: 'change streams',
  watch: 'change streams',
  createSearchIndex: 'Atlas search',
  createSearchIndexes: 'Atlas search',
  dropSearchIndex: 'Atlas search',
  listSearchIndexes: 'Atlas search',
  updateSearchIndex: 'Atlas search',
};

/** Whether the server implements a collation (see src/collation.ts). */
function implementedCollation(spec: unknown): boolean {
  try {
    checkCollation(spec);
    return true;
  } catch {
    return false;
  }
}

const UNSUPPORTED_KEYS: Record<string, string> = {
  collation: 'a collation other than simple and case-insensitive English',
  $search: 'Atlas search',
  $searchMeta: 'Atlas search',
  $vectorSearch: 'Atlas search',
  $near: 'geo search',
  $nearSphere: 'geo search',
  $geoWithin: 'geo search',
  $geoIntersects: 'geo search',
  $geoNear: 'geo search',
  $changeStream: 'change streams',
};

function unsupportedKey(v: unknown): string | undefined {
  if (Array.isArray(v)) {
    for (const x of v) {
      const r = unsupportedKey(x);
      if (r) return r;
    }
    return undefined;
  }
  if (v === null || typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype)
    return undefined;
  for (const [k, x] of Object.entries(v as Doc)) {
    if (k === 'collation' && implementedCollation(x)) continue;
    if (Object.hasOwn(UNSUPPORTED_KEYS, k)) return UNSUPPORTED_KEYS[k];
    const r = unsupportedKey(x);
    if (r) return r;
  }
  return undefined;
}

/**
 * What the replica-set suites cannot run on one member, by operation or argument: mongos
 * pinning, a fail point that fires after a write is applied (mongod's
 * onPrimaryTransactionalWrite, which this server does not emulate), pre- and post-images.
 */
const REPLSET_UNSUPPORTED: Record<string, string> = {
  assertSessionPinned: 'mongos pinning (sharded clusters only)',
  onPrimaryTransactionalWrite: 'the onPrimaryTransactionalWrite fail point',
  fullDocumentBeforeChange: 'change stream pre-images',
  changeStreamPreAndPostImages: 'change stream pre-images',
  showExpandedEvents: 'expanded change events (create, createIndexes, rename...)',
  rename: 'renameCollection',
};

function replsetUnsupported(v: unknown): string | undefined {
  if (Array.isArray(v)) {
    for (const x of v) {
      const r = replsetUnsupported(x);
      if (r) return r;
    }
    return undefined;
  }
  if (v === null || typeof v !== 'object') return undefined;
  for (const [k, x] of Object.entries(v as Doc)) {
    if (Object.hasOwn(REPLSET_UNSUPPORTED, k)) return REPLSET_UNSUPPORTED[k];
    if (k === 'name' && typeof x === 'string' && Object.hasOwn(REPLSET_UNSUPPORTED, x))
      return REPLSET_UNSUPPORTED[x];
    if (
      typeof x === 'string' &&
      Object.hasOwn(REPLSET_UNSUPPORTED, x) &&
      k === 'configureFailPoint'
    )
      return REPLSET_UNSUPPORTED[x];
    const r = replsetUnsupported(x);
    if (r) return r;
  }
  return undefined;
}

/** The unsupported feature a test's operations use, if any. */
export function unsupportedFeature(test: Doc, topology: Topology = 'single'): string | undefined {
  if (topology === 'replicaset') {
    // A one-member set has no secondary to select.
    if (/"readPreference":"secondary/.test(JSON.stringify(test.operations ?? [])))
      return 'a secondary member (the set has one member)';
    const r = replsetUnsupported(test.operations) ?? unsupportedKey(test.operations);
    return r && r !== 'change streams' ? r : undefined;
  }
  for (const op of (test.operations as Doc[]) ?? []) {
    const name = String(op.name);
    if (Object.hasOwn(UNSUPPORTED_OPERATIONS, name)) return UNSUPPORTED_OPERATIONS[name];
    const r = unsupportedKey(op.arguments);
    if (r) return r;
  }
  return undefined;
}

/** Why the test is skipped, or undefined when it runs. */
export function skipReason(
  file: Doc,
  test: Doc,
  topology: Topology = 'single',
): string | undefined {
  if (typeof test.skipReason === 'string') return `skipReason: ${test.skipReason}`;
  const fileReq = requirementsUnmet(file.runOnRequirements, topology);
  if (fileReq) return fileReq;
  const testReq = requirementsUnmet(test.runOnRequirements, topology);
  if (testReq) return testReq;
  const feature = unsupportedFeature(test, topology);
  if (feature) return `unsupported feature: ${feature}`;
  return undefined;
}
