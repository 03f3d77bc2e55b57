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
