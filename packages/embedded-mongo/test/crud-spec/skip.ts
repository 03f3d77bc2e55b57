/**
 * Which conformance tests are skipped, and why. A test is skipped (never counted as passed) when
 *  1. it has a `skipReason`;
 *  2. no entry of its file's or its own `runOnRequirements` can be met by the server we emulate:
 *     a standalone ("single" topology) MongoDB 7.0.0 without authentication, CSFLE or serverless;
 *  3. it uses a feature the package README lists as unsupported: transactions, change streams,
 *     text / geo / Atlas search, collation.
 */
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

/** Why one runOnRequirement cannot be met, or undefined when it can. */
function unmet(req: Doc): string | undefined {
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
  if (Array.isArray(req.topologies) && !req.topologies.includes('single'))
    return `needs topology ${req.topologies.join('/')}`;
  if (req.serverless === 'require') return 'needs serverless';
  if (req.auth === true) return 'needs authentication';
  if (req.authMechanism !== undefined) return 'needs an authentication mechanism';
  if (req.csfle !== undefined && req.csfle !== false) return 'needs CSFLE';
  if (req.serverParameters !== undefined) return 'needs server parameters';
  return undefined;
}

export function requirementsUnmet(reqs: unknown): string | undefined {
  if (!Array.isArray(reqs) || reqs.length === 0) return undefined;
  const reasons = (reqs as Doc[]).map(unmet);
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

const UNSUPPORTED_KEYS: Record<string, string> = {
  collation: 'collation',
  $text: 'text search',
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
    if (Object.hasOwn(UNSUPPORTED_KEYS, k)) return UNSUPPORTED_KEYS[k];
    const r = unsupportedKey(x);
    if (r) return r;
  }
  return undefined;
}

/** The unsupported feature a test's operations use, if any. */
export function unsupportedFeature(test: Doc): string | undefined {
  for (const op of (test.operations as Doc[]) ?? []) {
    const name = String(op.name);
    if (Object.hasOwn(UNSUPPORTED_OPERATIONS, name)) return UNSUPPORTED_OPERATIONS[name];
    const r = unsupportedKey(op.arguments);
    if (r) return r;
  }
  return undefined;
}

/** Why the test is skipped, or undefined when it runs. */
export function skipReason(file: Doc, test: Doc): string | undefined {
  if (typeof test.skipReason === 'string') return `skipReason: ${test.skipReason}`;
  const fileReq = requirementsUnmet(file.runOnRequirements);
  if (fileReq) return fileReq;
  const testReq = requirementsUnmet(test.runOnRequirements);
  if (testReq) return testReq;
  const feature = unsupportedFeature(test);
  if (feature) return `unsupported feature: ${feature}`;
  return undefined;
}
