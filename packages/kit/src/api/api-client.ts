import { SESSION_REVOKED_MESSAGE } from '@campus/contracts';
import { emitAppEvent, type SignOutReason } from '@campus/kit/events';
import { resolveApiUrl } from './api-config';
import { clearStoredAuth, readStoredAuth } from './auth-storage';

/** A non-OK response. `message` is "STATUS: body" (or the status text when the body is empty). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** The server's own `{ message }`, when the body carries one. */
  get serverMessage(): string | undefined {
    try {
      const parsed: unknown = JSON.parse(this.body);
      if (typeof parsed === 'object' && parsed !== null && 'message' in parsed) {
        const { message } = parsed as { message: unknown };
        return typeof message === 'string' && message ? message : undefined;
      }
    } catch {
      // not JSON: there is no server message
    }
    return undefined;
  }
}

/**
 * What a failure toast says: a 429's own message (which limit, how long to wait: "please try
 * again" at once would fail again), else the spec's fallback for that action.
 */
export function failureDescription(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status === 429) {
    return error.serverMessage ?? 'Too many requests. Please wait a moment and try again.';
  }
  return fallback;
}

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-serialisable payload, or FormData for multipart uploads. */
  body?: unknown;
  /** `returnNull`: a 401 answers null instead of logging the user out. */
  on401?: 'returnNull' | 'logout';
  signal?: AbortSignal;
}

/** Login and registration answer 401/403 for bad credentials; that is not a lost session. */
const SIGN_IN_PATHS = ['/api/auth/login', '/api/auth/register'];

function logOutEverywhere(reason?: SignOutReason): void {
  if (!readStoredAuth()) return;
  clearStoredAuth();
  emitAppEvent('authChanged', reason ? { signedIn: false, reason } : { signedIn: false });
}

/**
 * Ends the session after the API refused its token outside `apiRequest` (the live stream reads
 * its answer itself): a 401 says the session ended (or was revoked), a 403 signs out quietly.
 */
export function signOutAfterRefusal(status: number, body: string): void {
  if (status === 403) logOutEverywhere();
  if (status !== 401) return;
  const refusal = new ApiError(status, '', body);
  logOutEverywhere(refusal.serverMessage === SESSION_REVOKED_MESSAGE ? 'revoked' : 'expired');
}

/**
 * Calls the API with the stored bearer token and credentials. Resolves with the parsed JSON
 * (null for an empty body); rejects with an ApiError for any non-OK status. A 401/403 outside
 * login and registration logs the user out first; a 401 for a revoked session (the API's
 * SESSION_REVOKED_MESSAGE) always does, with the reason `revoked` on authChanged.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { method = 'GET', body, on401 = 'logout', signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = readStoredAuth()?.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';

  const response = await fetch(resolveApiUrl(path), {
    method,
    headers,
    credentials: 'include',
    signal,
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });

  const text = await response.text();
  const error = response.ok ? null : new ApiError(response.status, response.statusText, text);
  // A revoked session is over whatever the caller asked for: sign out and say why, even in
  // returnNull mode (which is for "not signed in", not for "signed out elsewhere").
  const revoked = error?.status === 401 && error.serverMessage === SESSION_REVOKED_MESSAGE;
  if (revoked) logOutEverywhere('revoked');
  if (response.status === 401 && on401 === 'returnNull') return null as T;
  const isSignIn = SIGN_IN_PATHS.some((signInPath) => path.startsWith(signInPath));
  // A 401 means the token no longer opens a session: say so (reason `expired`). A 403 is a
  // refusal of this one call (spec §8 still signs out) and needs no explanation of its own.
  if (response.status === 401 && !isSignIn) logOutEverywhere('expired');
  if (response.status === 403 && !isSignIn) logOutEverywhere();

  if (error) throw error;
  return (text ? JSON.parse(text) : null) as T;
}

/**
 * The default read (spec §7): a GET whose 401/403 yields null after logging out, any other
 * failure rejects with the "STATUS: body" error.
 */
export async function getJson<T>(
  path: string,
  options: Pick<ApiRequestOptions, 'on401' | 'signal'> = {},
): Promise<T | null> {
  try {
    return await apiRequest<T>(path, options);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      const isSignIn = SIGN_IN_PATHS.some((signInPath) => path.startsWith(signInPath));
      if (!isSignIn) return null;
    }
    throw error;
  }
}
