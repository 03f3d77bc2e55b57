import fs from 'node:fs';
import path from 'node:path';

/**
 * The shared folder with MongoDB's CRUD tests sits beside the repository:
 * `<repo>/../shared/mongo-crud-spec` (override with MONGO_CRUD_SPEC_DIR).
 */
export function specDir(): string {
  const dir =
    process.env.MONGO_CRUD_SPEC_DIR ??
    path.resolve(__dirname, '../../../../../shared/mongo-crud-spec');
  if (!fs.existsSync(dir)) {
    throw new Error(
      `MongoDB CRUD conformance tests not found at ${dir}: the shared folder must be checked out beside the repository (<repo>/../shared/mongo-crud-spec), or set MONGO_CRUD_SPEC_DIR`,
    );
  }
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
  if (files.length === 0) throw new Error(`no JSON test files in ${dir}`);
  return dir;
}

/** The areas of MongoDB's replica-set tests, each a folder of `<repo>/../shared/mongo-replset-spec`. */
export const REPLSET_AREAS = [
  'transactions',
  'transactions-convenient-api',
  'change-streams',
  'retryable-writes',
] as const;

/**
 * One area's folder (override the parent with MONGO_REPLSET_SPEC_DIR); throws a clear error
 * when the shared folder is missing.
 */
export function replsetSpecDir(area: string): string {
  const root =
    process.env.MONGO_REPLSET_SPEC_DIR ??
    path.resolve(__dirname, '../../../../../shared/mongo-replset-spec');
  const dir = path.join(root, area);
  if (!fs.existsSync(dir) || !fs.readdirSync(dir).some((f) => f.endsWith('.json'))) {
    throw new Error(
      `MongoDB replica-set conformance tests not found at ${dir}: the shared folder must be checked out beside the repository (<repo>/../shared/mongo-replset-spec), or set MONGO_REPLSET_SPEC_DIR`,
    );
  }
  return dir;
}
