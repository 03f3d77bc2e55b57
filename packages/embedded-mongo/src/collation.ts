/**
 * Collations: the one place that decides what a command's (or an index's, or a collection's)
 * `collation` may be. Strings are compared by their code points only, which is mongod's
 * "simple" collation, so `{ locale: 'simple' }` is accepted and any other collation is refused
 * (see the package README, "Differences from MongoDB 7.0"), never accepted and ignored.
 */
import { badValue } from './errors';
import { isPlainObject } from './values';

/** Throws BadValue for a collation this server does not implement; absent or simple is fine. */
export function checkCollation(spec: unknown): void {
  if (spec === undefined || spec === null) return;
  if (isPlainObject(spec) && spec.locale === 'simple' && Object.keys(spec).length === 1) return;
  throw badValue(
    'collation is not supported by this server: strings compare by code point only (the simple collation)',
  );
}
