import { createHash } from 'node:crypto';

/**
 * SHA-256 (hex) of every secret-looking value ever committed to the Campus repository: whoever has
 * the repository (or its history) has these, so production refuses them as JWT_SECRET however
 * random they look. Hashes, not the values, so the list itself hands nobody a secret, and it is
 * compiled into the API (the image holds no repository file to read at start).
 *
 * `api/test/committed-secrets.test.ts` scans every tracked file for values beside the word
 * "secret" that would pass the entropy check (platform/secret-strength.ts) and fails, naming the
 * file and the hash to add here, when one is missing. The entries below come from the same scan
 * over the whole history (`git log -p`), run when this list was made.
 */
const COMMITTED_SECRET_SHA256 = new Set([
  // .env.qa's QA JWT_SECRET (until issue 35; QA now uses the secret the API generates)
  '8f200ca78e630f5c6de068b873b82c7eaa6e8e59c95fcdd7d84065122261e7d0',
  // api/test/test-app.ts: TEST_JWT_SECRET, the in-process tests' signing secret
  '802dbfd9e5fa1e3442a783792d98c458ee49df0720c3e3b15170815256a0d6a5',
  // api/src/platform/jwt-secret.test.ts: a JWT_SECRET given to resolveJwtSecret
  '6cb6e01b7b4f4abf3d420658eed5346b04ceb8bd317120b33a44cb52ab607dba',
  // api/test/production-start.test.ts: the production start's secret (until issue 35)
  '678ff25a58cef2e381802cf41d64ccbf29e1b708795e62aa7179936cafe5192b',
  // scripts/bench/processes.ts: BENCH_JWT_SECRET (until issue 35; now random per run)
  '4622b482693cbb1e161b22af2bb0917af47c0a13e6859b58b950ac2c489d7dfd',
]);

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Whether `value` was committed to the repository at some point (see above). */
export function isCommittedSecret(value: string): boolean {
  return COMMITTED_SECRET_SHA256.has(sha256Hex(value));
}
