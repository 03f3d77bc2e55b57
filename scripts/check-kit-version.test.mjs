// node --test scripts/check-kit-version.test.mjs (part of npm run check:kit)
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { checkKit, recordKit } from './check-kit-version.mjs';

let kit;

function write(file, text) {
  mkdirSync(path.dirname(path.join(kit, file)), { recursive: true });
  writeFileSync(path.join(kit, file), text);
}

function setVersion(version, exports = { './api': './src/api/index.ts' }) {
  write('package.json', JSON.stringify({ name: '@campus/kit', version, exports }));
}

beforeEach(() => {
  kit = mkdtempSync(path.join(os.tmpdir(), 'kit-version-'));
  setVersion('1.2.0');
  write('src/api/index.ts', 'export const a = 1;\n');
  write('src/api/api.test.ts', "test('a', () => {});\n");
  recordKit(kit);
});

afterEach(() => rmSync(kit, { recursive: true, force: true }));

test('when nothing changed since the recording, then the check passes', () => {
  assert.equal(checkKit(kit), null);
});

test('when a source changed under the same version, then it fails and says how to bump and record', () => {
  write('src/api/index.ts', 'export const a = 2;\n');
  const problem = checkKit(kit);
  assert.match(problem, /packages\/kit changed since @campus\/kit 1\.2\.0 was recorded/);
  assert.match(problem, /but its version is still 1\.2\.0/);
  assert.match(problem, /minor \(1\.2\.3 -> 1\.3\.0\)/);
  assert.match(problem, /npm run kit:fingerprint/);
});

test('when a new file or entry point appears, then it counts as a change', () => {
  write('src/api/extra.ts', 'export const b = 1;\n');
  assert.notEqual(checkKit(kit), null);
  rmSync(path.join(kit, 'src/api/extra.ts'));
  assert.equal(checkKit(kit), null);
  setVersion('1.2.0', { './api': './src/api/index.ts', './more': './src/api/index.ts' });
  assert.match(checkKit(kit), /version is still 1\.2\.0/);
});

test('when only a test changed, then no bump is needed', () => {
  write('src/api/api.test.ts', "test('b', () => {});\n");
  assert.equal(checkKit(kit), null);
});

test('when the version was bumped but not recorded, then it asks for the recording', () => {
  write('src/api/index.ts', 'export const a = 2;\n');
  setVersion('1.3.0');
  assert.match(checkKit(kit), /is 1\.3\.0 but .* records 1\.2\.0: run npm run kit:fingerprint/);
  recordKit(kit);
  assert.equal(checkKit(kit), null);
  assert.equal(
    JSON.parse(readFileSync(path.join(kit, 'kit-fingerprint.json'), 'utf8')).version,
    '1.3.0',
  );
});

test('when the sources changed without a bump, then recording is refused', () => {
  write('src/api/index.ts', 'export const a = 2;\n');
  assert.throws(() => recordKit(kit), /bump the version before recording it/);
  assert.notEqual(checkKit(kit), null);
});

test('when the recorded version was never deployed, then --unreleased records more changes under it', () => {
  write('src/api/index.ts', 'export const a = 2;\n');
  setVersion('1.3.0');
  recordKit(kit);
  write('src/api/index.ts', 'export const a = 3;\n');
  assert.throws(() => recordKit(kit), /--unreleased/);
  recordKit(kit, { unreleased: true });
  assert.equal(checkKit(kit), null);
});
