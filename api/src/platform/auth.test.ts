import { createTokenService } from './auth';

describe('token service', () => {
  const tokens = createTokenService({
    secret: 's'.repeat(40),
    issuer: 'campus-api',
    expiresIn: '1h',
  });

  test('when a token is signed, then it verifies to the same user id', () => {
    expect(tokens.verify(tokens.sign(107))).toBe(107);
  });

  test('when a token is signed, then its claims carry the issue time in milliseconds', () => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00.123Z') });
    try {
      const claims = tokens.verifyClaims(tokens.sign(5));
      expect(claims).toEqual({ userId: 5, issuedAt: Date.parse('2026-01-01T00:00:00.123Z') });
    } finally {
      jest.useRealTimers();
    }
  });

  test('when a token of another issuer or secret is verified, then 401', () => {
    const other = createTokenService({ secret: 's'.repeat(40), issuer: 'other', expiresIn: '1h' });
    expect(() => tokens.verify(other.sign(1))).toThrow(expect.objectContaining({ status: 401 }));
  });

  test('when a token verified earlier has expired since, then it is refused, not served from memory', () => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    try {
      const shortLived = createTokenService({
        secret: 's'.repeat(40),
        issuer: 'campus-api',
        expiresIn: '60s',
      });
      const token = shortLived.sign(42);
      expect(shortLived.verify(token)).toBe(42);
      jest.setSystemTime(new Date('2026-01-01T00:00:30Z'));
      expect(shortLived.verify(token)).toBe(42);
      jest.setSystemTime(new Date('2026-01-01T00:01:01Z'));
      expect(() => shortLived.verify(token)).toThrow(expect.objectContaining({ status: 401 }));
    } finally {
      jest.useRealTimers();
    }
  });

  test('when a verified token is altered, then 401 (only the exact token is remembered)', () => {
    const token = tokens.sign(7);
    expect(tokens.verify(token)).toBe(7);
    // The last-but-one character of the signature carries six of its bits: change it.
    const forged = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`;
    expect(() => tokens.verify(forged)).toThrow(expect.objectContaining({ status: 401 }));
  });
});
