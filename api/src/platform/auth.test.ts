import jwt from 'jsonwebtoken';
import { SESSION_KEY_RETIRED_MESSAGE } from '@campus/contracts';
import { createTokenService, keyId } from './auth';

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
      expect(claims).toEqual({
        userId: 5,
        issuedAt: Date.parse('2026-01-01T00:00:00.123Z'),
        expiresAt: Date.parse('2026-01-01T01:00:00Z'),
      });
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

  test('when a token carries a session id, then its claims name the session', () => {
    expect(tokens.verifyClaims(tokens.sign(9, { sessionId: 'abcdefghijklmnop' }))).toMatchObject({
      userId: 9,
      sessionId: 'abcdefghijklmnop',
    });
  });
});

describe('the key ring', () => {
  const OLD = 'o'.repeat(40);
  const NEW = 'n'.repeat(40);
  const options = { issuer: 'campus-api', expiresIn: '1h' };

  test('when the signing key is rotated, then tokens of the previous key still verify and new ones carry the new kid', () => {
    const before = createTokenService({ ...options, secret: OLD });
    const after = createTokenService({ ...options, secret: NEW, previousSecrets: [OLD] });
    const old = before.sign(3);
    expect(after.verify(old)).toBe(3);
    const fresh = after.sign(4);
    expect(decodeHeader(fresh).kid).toBe(keyId(NEW));
    expect(decodeHeader(old).kid).toBe(keyId(OLD));
    expect(keyId(NEW)).toMatch(/^[0-9a-f]{8}$/);
    // The previous key verifies but never signs.
    expect(before.hasKey(after.signingKeyId)).toBe(false);
    expect(() => before.verify(fresh)).toThrow(
      expect.objectContaining({ status: 401, message: SESSION_KEY_RETIRED_MESSAGE }),
    );
  });

  test('when a key is removed from the ring, then its tokens are refused with the reason', () => {
    const before = createTokenService({ ...options, secret: OLD });
    const retired = createTokenService({ ...options, secret: NEW });
    expect(() => retired.verify(before.sign(1))).toThrow(
      expect.objectContaining({ status: 401, message: SESSION_KEY_RETIRED_MESSAGE }),
    );
  });

  test('when a token signed before keys had ids comes, then any key of the ring may verify it', () => {
    const legacy = jwt.sign({}, OLD, { algorithm: 'HS256', subject: '8', issuer: 'campus-api' });
    expect(
      createTokenService({ ...options, secret: NEW, previousSecrets: [OLD] }).verify(legacy),
    ).toBe(8);
    expect(() => createTokenService({ ...options, secret: NEW }).verify(legacy)).toThrow(
      expect.objectContaining({ status: 401 }),
    );
  });
});

function decodeHeader(token: string): jwt.JwtHeader {
  return jwt.decode(token, { complete: true })!.header;
}
