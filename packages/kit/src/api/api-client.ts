import {
  ACCOUNT_SUSPENDED_MESSAGE,
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  SESSION_EXPIRED_MESSAGE,
  SESSION_KEY_RETIRED_MESSAGE,
  SESSION_REUSED_MESSAGE,
  SESSION_REVOKED_MESSAGE,
  SESSION_SIGNED_OUT_MESSAGE,
  callRoutes,
} from '@campus/contracts';
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
const SIGN_IN_PATHS = [callRoutes.login.path, callRoutes.register.path];
const REFRESH_PATH = callRoutes.refreshSession.path;

/**
 * The 401 messages of a session the API ended (signed out elsewhere, revoked, reused, a retired
 * key, suspended): the member is told exactly that. Any other 401 is a session that ran out.
 */
const SESSION_END_MESSAGES: readonly string[] = [
  SESSION_REVOKED_MESSAGE,
  SESSION_KEY_RETIRED_MESSAGE,
  SESSION_REUSED_MESSAGE,
  SESSION_SIGNED_OUT_MESSAGE,
  SESSION_EXPIRED_MESSAGE,
  ACCOUNT_SUSPENDED_MESSAGE,
];

function logOutEverywhere(reason?: SignOutReason, message?: string): void {
  if (!readStoredAuth()) return;
  clearStoredAuth();
  emitAppEvent(
    'authChanged',
    reason ? { signedIn: false, reason, ...(message ? { message } : {}) } : { signedIn: false },
  );
}

/** Signs out locally after a 401 that the session cannot recover from, saying why. */
function endedBy(message: string | undefined): void {
  if (message && SESSION_END_MESSAGES.includes(message)) logOutEverywhere('revoked', message);
  else logOutEverywhere('expired');
}

/**
 * Every request carries the session cookie (`credentials: 'include'`: the API is another origin
 * of the same site) and the header that, with the page's Origin, proves to the API that a
 * cookie-authenticated write comes from our pages (CSRF, api/README.md "Sessions").
 */
function send(path: string, init: RequestInit & { headers: Record<string, string> }) {
  return fetch(resolveApiUrl(path), {
    ...init,
    headers: { ...init.headers, [CSRF_HEADER]: CSRF_HEADER_VALUE },
    credentials: 'include',
  });
}

export type RenewOutcome = { renewed: true } | { renewed: false; status: number; message?: string };

let renewal: Promise<RenewOutcome> | null = null;

/**
 * Renews the session's short-lived access cookie with its refresh cookie (`POST
 * /api/auth/refresh`), once for every caller that asks while it is under way (the API replaces
 * the refresh token each time: two at once from one page would look like a stolen token).
 */
export function renewSession(): Promise<RenewOutcome> {
  renewal ??= send(REFRESH_PATH, { method: 'POST', headers: { Accept: 'application/json' } })
    .then(async (response): Promise<RenewOutcome> => {
      if (response.ok) return { renewed: true };
      const body = await response.text().catch(() => '');
      return {
        renewed: false,
        status: response.status,
        message: new ApiError(0, '', body).serverMessage,
      };
    })
    .finally(() => {
      renewal = null;
    });
  return renewal;
}

/**
 * Calls the API with the session cookie. Resolves with the parsed JSON (null for an empty body);
 * rejects with an ApiError for any non-OK status. A 401 outside login and registration first
 * renews the session (its access cookie lives minutes) and tries once more; a session that
 * cannot be renewed signs the member out, with the API's reason on authChanged (`revoked` and
 * its `message` when the API ended it). A 403 outside login and registration signs out too
 * (spec §8).
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { method = 'GET', body, on401 = 'logout', signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  const init = {
    method,
    headers,
    signal,
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  } satisfies RequestInit;
  const isSignIn = SIGN_IN_PATHS.some((signInPath) => path.startsWith(signInPath));

  let response = await send(path, init);
  let ended: string | undefined;
  // The API could not renew the session just now (a 5xx): not a refusal, nobody is signed out.
  let unrenewable = false;
  if (response.status === 401 && !isSignIn && !path.startsWith(REFRESH_PATH) && readStoredAuth()) {
    const outcome = await renewSession();
    if (outcome.renewed) response = await send(path, init);
    else if (outcome.status === 401 || outcome.status === 403) ended = outcome.message ?? '';
    else unrenewable = true;
  }

  const text = await response.text();
  const error = response.ok ? null : new ApiError(response.status, response.statusText, text);
  if (response.status === 401 && !isSignIn && !unrenewable) {
    // The session is over: say why (the refresh's reason, else this answer's), even in
    // returnNull mode when a session was held (that mode is for "not signed in").
    if (ended !== undefined || on401 === 'logout') endedBy(ended || error?.serverMessage);
    if (on401 === 'returnNull') return null as T;
  }
  // A 403 is a refusal of this one call (spec §8 still signs out) and needs no explanation.
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
