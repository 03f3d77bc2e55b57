/** The stored local auth state of spec §3: the user and the bearer token. */
export interface SessionUser {
  id: number;
  name: string;
  email: string;
  avatarUrl: string | null;
}

export interface StoredAuth {
  user: SessionUser;
  token: string;
}

export const AUTH_STORAGE_KEY = 'campus.auth';

function isStoredAuth(value: unknown): value is StoredAuth {
  if (typeof value !== 'object' || value === null) return false;
  const { user, token } = value as Partial<StoredAuth>;
  return (
    typeof token === 'string' &&
    token.length > 0 &&
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
    return isStoredAuth(parsed)
      ? { ...parsed, user: { ...parsed.user, avatarUrl: parsed.user.avatarUrl ?? null } }
      : null;
  } catch {
    return null;
  }
}

export function storeAuth(auth: StoredAuth): void {
  const { id, name, email, avatarUrl } = auth.user;
  window.localStorage.setItem(
    AUTH_STORAGE_KEY,
    JSON.stringify({ user: { id, name, email, avatarUrl }, token: auth.token }),
  );
}

export function clearStoredAuth(): void {
  window.localStorage.removeItem(AUTH_STORAGE_KEY);
}
