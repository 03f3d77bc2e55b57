import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isCommittedSecret, sha256Hex } from '../src/platform/committed-secrets';
import { jwtSecretRefusal, MIN_SECRET_ENTROPY_BITS } from '../src/platform/production';
import { estimatedEntropyBits } from '../src/platform/secret-strength';
import { REPO_ROOT, secretCandidates, trackedFiles } from './committed-secrets';
import { TEST_JWT_SECRET } from './test-app';

/** The list itself (hashes beside comments about secrets) and the lock file are not scanned. */
const SKIPPED = new Set(['api/src/platform/committed-secrets.ts', 'package-lock.json']);

/** Values in `files` that production would take as a strong secret but does not know committed. */
function unlistedSecrets(files: { file: string; text: string }[]) {
  return files.flatMap(({ file, text }) =>
    secretCandidates(file, text)
      .filter((value) => estimatedEntropyBits(value) >= MIN_SECRET_ENTROPY_BITS)
      .filter((value) => !isCommittedSecret(value))
      .map((value) => ({ file, sha256: sha256Hex(value) })),
  );
}

function committedTextFiles(): { file: string; text: string }[] {
  return trackedFiles()
    .filter((file) => !SKIPPED.has(file))
    .map((file) => path.join(REPO_ROOT, file))
    .filter((full) => existsSync(full) && statSync(full).isFile() && statSync(full).size < 4e6)
    .map((full) => ({ file: path.relative(REPO_ROOT, full), text: readFileSync(full, 'utf8') }))
    .filter(({ text }) => !text.includes('\0'));
}

describe('secrets committed to the repository', () => {
  test('every strong-looking value beside "secret" in a tracked file is on the list production refuses', () => {
    const files = committedTextFiles();
    // The scan reads the repository's own files: .env.qa, the compose file, the docs, the tests.
    expect(files.map(({ file }) => file)).toEqual(
      expect.arrayContaining(['.env.qa', 'docker-compose.yml', 'docs/deploy.md', 'api/README.md']),
    );
    // A failure names the file and the hash to add to src/platform/committed-secrets.ts (or,
    // better, generate that value at run time instead of committing it).
    expect(unlistedSecrets(files)).toEqual([]);
  });

  test('when a new random secret is committed, then the scan finds it, in an env file, compose file or code', () => {
    const secret = randomBytes(48).toString('base64');
    const files = [
      { file: '.env.example', text: `# the signing secret\nJWT_SECRET=${secret}\n` },
      { file: 'compose.yml', text: `    environment:\n      JWT_SECRET: ${secret}\n` },
      { file: 'bench.ts', text: `export const BENCH_SECRET =\n  '${secret}';\n` },
    ];
    expect(unlistedSecrets(files)).toEqual(
      files.map(({ file }) => ({ file, sha256: sha256Hex(secret) })),
    );
  });

  test('when production is given a committed secret, then it is refused however random it looks', () => {
    expect(estimatedEntropyBits(TEST_JWT_SECRET)).toBeGreaterThanOrEqual(MIN_SECRET_ENTROPY_BITS);
    expect(jwtSecretRefusal(TEST_JWT_SECRET)).toBe(
      'JWT_SECRET is a value committed to the Campus repository, so anyone can forge tokens with it: generate one (openssl rand -base64 48)',
    );
    expect(jwtSecretRefusal(randomBytes(48).toString('base64'))).toBeUndefined();
  });
});
