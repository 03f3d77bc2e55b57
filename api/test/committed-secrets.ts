import { execFileSync } from 'node:child_process';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../..');

const CODE_FILE = /\.(c|m)?(t|j)sx?$/;
/** Quoted values of 16 or more characters without spaces (a secret has none). */
const QUOTED = /'([^'\s\\]{16,})'|"([^"\s\\]{16,})"|`([^`\s\\$]{16,})`/g;
/** `NAME=value` or `NAME: value` where NAME says secret (env files, compose, docs, Dockerfiles). */
const ASSIGNED = /\b\w*secret\w*\s*[=:]\s*([^\s'"`|,;)<>{}]{16,})/gi;

/**
 * The values that sit next to the word "secret" in a file's text (on that line or the one before,
 * for an assignment broken after `=`): quoted strings, and outside code `NAME=value` assignments.
 * What the scan of committed files (committed-secrets.test.ts) and of the history feeds to the
 * production check: whichever of them would pass as a strong secret must be on the list of
 * committed secrets (src/platform/committed-secrets.ts).
 */
export function secretCandidates(file: string, text: string): string[] {
  const found = new Set<string>();
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (!/secret/i.test(line) && !/secret/i.test(lines[i - 1] ?? '')) return;
    for (const match of line.matchAll(QUOTED)) found.add((match[1] ?? match[2] ?? match[3])!);
    if (CODE_FILE.test(file)) return;
    for (const match of line.matchAll(ASSIGNED)) found.add(match[1]!);
  });
  // A URL (an SMTP_URL example in a table about secrets) or a file's path is not a signing secret.
  return [...found].filter(
    (value) =>
      !/^[a-z][a-z\d+.-]*:\/\//i.test(value) && !/^[\w@.-]+(\/[\w@.-]+)+\.\w{1,5}$/.test(value),
  );
}

/** Every file git tracks in this checkout (the working tree's contents are read, not the index's). */
export function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 })
    .toString('utf8')
    .split('\0')
    .filter(Boolean);
}
