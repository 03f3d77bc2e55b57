import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { API_VERSION } from './version';

// One version for what an operator deploys (CHANGELOG.md): the root package.json's, repeated by
// the API and the five apps, with a section of its own in the changelog.
const REPO_ROOT = path.resolve(__dirname, '..', '..');
const DEPLOYABLES = ['api', 'shell', 'mf-feed', 'mf-profile', 'mf-notifications', 'mf-admin'];

function versionOf(dir: string): string {
  const file = path.join(REPO_ROOT, dir, 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

test('when the API reads its version, then it is semver and the version of the root and of every app', () => {
  expect(semver.valid(API_VERSION)).toBe(API_VERSION);
  expect(versionOf('.')).toBe(API_VERSION);
  expect(Object.fromEntries(DEPLOYABLES.map((dir) => [dir, versionOf(dir)]))).toEqual(
    Object.fromEntries(DEPLOYABLES.map((dir) => [dir, API_VERSION])),
  );
});

test('when the version is set, then CHANGELOG.md has its section', () => {
  const changelog = fs.readFileSync(path.join(REPO_ROOT, 'CHANGELOG.md'), 'utf8');
  expect(changelog).toMatch(
    new RegExp(
      `^## \\[${API_VERSION.replace(/\./g, '\\.')}\\] - (?:\\d{4}-\\d{2}-\\d{2}|Unreleased)$`,
      'm',
    ),
  );
});
