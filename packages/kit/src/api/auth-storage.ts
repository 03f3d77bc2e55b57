/**
 * The stored local auth state: the signed-in user only. The spec (§3) stored "user and token";
 * since issue 35 the session itself is an HttpOnly cookie no script can read, so nothing of the
 * session is kept where a script could take it (docs/decisions.md, "Sessions in cookies"). The
 * user record stays: the session logic needs it to know whether to check a session at start and
 * to hear another tab sign in or out (storage events).
 */
export interface SessionUser {
  id: number;
  name: string;
  email: string;
  avatarUrl: string | null;
}

export interface StoredAuth {
  user: SessionUser;
  /**
   * When this browser signed in (epoch ms): tells one login from the next of the same member, so
   * a new sign-in is checked afresh. Not a secret: the session is the cookie.
   */
  signedInAt?: number;
}

export const AUTH_STORAGE_KEY = 'campus.auth';

function isStoredUser(value: unknown): value is { user: SessionUser } {
  if (typeof value !== 'object' || value === null) return false;
  const { user } = value as Partial<StoredAuth>;
  return (
    typeof user === 'object' &&
    user !== null &&
    typeof user.id === 'number' &&
    typeof user.name === 'string' &&
    typeof user.email === 'string'
  );
}

export function readStoredAuth(): StoredAuth | null {
  try {
    const raw = window.localStorage.getItem(AUTH_STORAGE_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    if (!isStoredUser(parsed)) return null;
    // A login stored before issue 35 also kept its bearer token: it leaves the storage now.
    if ('token' in parsed) storeAuth(parsed);
    const { id, name, email, avatarUrl } = parsed.user;
    const { signedInAt } = parsed as { signedInAt?: unknown };
    return {
      user: { id, name, email, avatarUrl: avatarUrl ?? null },
      ...(typeof signedInAt === 'number' ? { signedInAt } : {}),
    };
  } catch {
    return null;
  }
}

export function storeAuth(auth: StoredAuth): void {
  const { id, name, email, avatarUrl } = auth.user;
  window.localStorage.setItem(
    AUTH_STORAGE_KEY,
    JSON.stringify({
      user: { id, name, email, avatarUrl: avatarUrl ?? null },
      ...(auth.signedInAt !== undefined ? { signedInAt: auth.signedInAt } : {}),
    }),
  );
}

export function clearStoredAuth(): void {
  window.localStorage.removeItem(AUTH_STORAGE_KEY);
}
