import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTokenService, resolveJwtSecret } from './auth';

describe('resolveJwtSecret', () => {
  test('when JWT_SECRET is unset, then a secret is generated once, kept under DATA_DIR and reused', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-secret-'));
    try {
      const first = await resolveJwtSecret(undefined, dir);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(await resolveJwtSecret(undefined, dir)).toBe(first);
      expect((await fs.stat(path.join(dir, 'jwt-secret'))).mode & 0o777).toBe(0o600);
      expect(await resolveJwtSecret('from-env', dir)).toBe('from-env');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('token service', () => {
  const tokens = createTokenService({
    secret: 's'.repeat(40),
    issuer: 'campus-api',
    expiresIn: '1h',
  });

  test('when a token is signed, then it verifies to the same user id', () => {
    expect(tokens.verify(tokens.sign(107))).toBe(107);
  });

  test('when a token of another issuer or secret is verified, then 401', () => {
    const other = createTokenService({ secret: 's'.repeat(40), issuer: 'other', expiresIn: '1h' });
    expect(() => tokens.verify(other.sign(1))).toThrow(expect.objectContaining({ status: 401 }));
  });
});
