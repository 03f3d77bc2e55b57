import { createHash, randomBytes } from 'node:crypto';

/** Link tokens: 32 random bytes (256 bits), base64url; only their SHA-256 is stored. */
export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
