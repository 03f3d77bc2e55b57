#!/usr/bin/env node
// The kit is deployed once, in the shell, and every remote runs on it; each app requires
// `^<kit version it was built with>` (rspack.shared.js) and the shell refuses a remote built for
// another major. That only works if the version changes whenever what ships changes. This check
// fails `npm test` when packages/kit changed without a version bump.
//
//   node scripts/check-kit-version.mjs            check (npm run check:kit, first step of npm test)
//   node scripts/check-kit-version.mjs --record   record the current version and fingerprint
//                                                 (npm run kit:fingerprint), after a bump;
//                                                 add --unreleased to record more changes under a
//                                                 version that was never deployed
//
// The fingerprint covers what a remote can observe: every file under packages/kit/src except
// tests (*.test.ts, *.test.tsx: they ship in no bundle, so changing one changes nothing for any
// app) and the "exports" map of packages/kit/package.json (a new entry point is a new feature).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const KIT_DIR = path.join(repoRoot, 'packages', 'kit');
export const FINGERPRINT_FILE = 'kit-fingerprint.json';

const isTest = (file) => /\.test\.tsx?$/.test(file) || file.split('/').includes('__snapshots__');

function filesUnder(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return filesUnder(path.join(dir, entry.name), relative);
    return entry.isFile() ? [relative] : [];
  });
}

/** sha256 over the exports map and each shipped source file (sorted path, then contents). */
export function kitFingerprint(kitDir = KIT_DIR) {
  const manifest = JSON.parse(readFileSync(path.join(kitDir, 'package.json'), 'utf8'));
  const hash = createHash('sha256');
  hash.update(`package.json#exports\0${JSON.stringify(manifest.exports)}\0`);
  const files = filesUnder(path.join(kitDir, 'src'))
    .filter((file) => !isTest(file))
    .sort();
  for (const file of files) {
    hash.update(`src/${file}\0`);
    hash.update(readFileSync(path.join(kitDir, 'src', file)));
    hash.update('\0');
  }
  return { version: manifest.version, hash: `sha256:${hash.digest('hex')}`, files: files.length };
}

function compareVersions(a, b) {
  const [pa, pb] = [a, b].map((version) => version.split('.').map(Number));
  for (let part = 0; part < 3; part++) {
    if (pa[part] !== pb[part]) return pa[part] - pb[part];
  }
  return 0;
}

const HOW_TO_BUMP = [
  'Bump "version" in packages/kit/package.json following semver:',
  '  - patch (1.2.3 -> 1.2.4): a fix; nothing a remote uses changes shape;',
  '  - minor (1.2.3 -> 1.3.0): something added (an export, an optional prop, an entry point);',
  '    remotes built against it still run on an older shell, without the addition;',
  '  - major (1.2.3 -> 2.0.0): something removed, renamed or changed incompatibly; the shell',
  '    refuses remotes built for another major, so it ships in the shell first, then every',
  '    remote is rebuilt against it.',
  'Then record it: npm run kit:fingerprint (and commit packages/kit/kit-fingerprint.json).',
  'See docs/feature-teams.md, "The kit version".',
].join('\n');

/** null when the recorded fingerprint matches, else what is wrong and what to do. */
export function checkKit(kitDir = KIT_DIR) {
  const current = kitFingerprint(kitDir);
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(path.join(kitDir, FINGERPRINT_FILE), 'utf8'));
  } catch {
    return `packages/kit/${FINGERPRINT_FILE} is missing or unreadable: run npm run kit:fingerprint.`;
  }
  if (recorded.hash === current.hash && recorded.version === current.version) return null;
  if (recorded.hash !== current.hash && compareVersions(current.version, recorded.version) <= 0) {
    return (
      `packages/kit changed since @campus/kit ${recorded.version} was recorded, ` +
      `but its version is still ${current.version}.\n${HOW_TO_BUMP}`
    );
  }
  return (
    `@campus/kit is ${current.version} but packages/kit/${FINGERPRINT_FILE} records ` +
    `${recorded.version}${recorded.hash === current.hash ? ' (same sources)' : ''}: ` +
    'run npm run kit:fingerprint and commit the file.'
  );
}

/**
 * Records the current fingerprint; refuses when the sources changed under the same version,
 * unless `unreleased`: that version was never deployed (it is still in your branch), so changing
 * what it contains breaks nobody.
 */
export function recordKit(kitDir = KIT_DIR, { unreleased = false } = {}) {
  const current = kitFingerprint(kitDir);
  const file = path.join(kitDir, FINGERPRINT_FILE);
  let recorded = null;
  try {
    recorded = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // first recording
  }
  if (
    recorded &&
    !unreleased &&
    recorded.hash !== current.hash &&
    compareVersions(current.version, recorded.version) <= 0
  ) {
    throw new Error(
      `packages/kit changed since ${recorded.version} was recorded: bump the version before ` +
        `recording it (or, if ${recorded.version} was never deployed anywhere, record it again ` +
        `with npm run kit:fingerprint -- --unreleased).\n${HOW_TO_BUMP}`,
    );
  }
  writeFileSync(
    file,
    `${JSON.stringify({ version: current.version, hash: current.hash }, null, 2)}\n`,
  );
  return current;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (process.argv.includes('--record')) {
      const { version, hash, files } = recordKit(KIT_DIR, {
        unreleased: process.argv.includes('--unreleased'),
      });
      console.log(`Recorded @campus/kit ${version}: ${hash} (${files} files)`);
    } else {
      const problem = checkKit();
      if (problem) {
        console.error(`check:kit failed: ${problem}`);
        process.exit(1);
      }
      console.log(`check:kit: @campus/kit ${kitFingerprint().version} matches its fingerprint`);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
