import fs from 'node:fs';
import path from 'node:path';

/**
 * The app's version (semver; CHANGELOG.md at the repository root), as the API's package.json
 * says: logged when the API starts and recorded with each migration it applies. Read at run time
 * from `api/package.json`, one folder above both `src/` and the compiled `dist/`.
 */
export const API_VERSION: string = (
  JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
