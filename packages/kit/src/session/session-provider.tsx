import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useSWRConfig } from 'swr';
import { callRoutes, type Role } from '@campus/contracts';
import {
  AUTH_STORAGE_KEY,
  ApiError,
  callApi,
  callTarget,
  clearStoredAuth,
  readStoredAuth,
  storeAuth,
  type SessionUser,
  type StoredAuth,
} from '@campus/kit/api';
import { emitAppEvent, onAppEvent } from '@campus/kit/events';
import { withPrefetch } from '@campus/kit/prefetch';
import { useSessionStream } from '@campus/kit/stream';
import { toast } from '@campus/kit/toast';

export type SessionStatus = 'checking' | 'authenticated' | 'unauthenticated';

export interface Session {
  status: SessionStatus;
  user: SessionUser | null;
  /** What the API says the signed-in user may do (`GET /api/auth/me`); empty when signed out. */
  roles: readonly Role[];
  /** Whether the API gave the signed-in user the admin role. */
  isAdmin: boolean;
  /**
   * While `checking`: the API could not be reached or failed (a 5xx) when the stored login was
   * checked. The login is kept and checked again with back-off; `retry` checks it at once.
   */
  unreachable: boolean;
  /** Checks the stored login again now (the retry state's button). */
  retry: () => void;
  /**
   * Why the API last ended this browser's session (its 401's message: signed out from another
   * device, password changed, keys renewed...), for the sign-in page to say; null when the
   * member signed out themselves or has signed in since.
   */
  signOutMessage: string | null;
  /**
   * Stores the user and tells every app (authChanged). The session itself is the HttpOnly cookie
   * the sign-in answer set: nothing of it is stored where a script could read it.
   */
  login: (auth: StoredAuth) => void;
  /** Ends this session at the API (its cookies go), clears the stored state and every cached response. */
  logout: () => void;
  /** Replaces the stored user (after a profile edit). */
  updateUser: (user: SessionUser) => void;
}

const SessionContext = createContext<Session | null>(null);

/** Spec §7/§9: the current-user check is cached fresh for 5 minutes. */
const CHECK_FRESH_MS = 5 * 60_000;
const lastCheck: { login: string; at: number; confirmed: Confirmed | null } = {
  login: '',
  at: 0,
  confirmed: null,
};

interface Confirmed {
  user: SessionUser;
  roles: readonly Role[];
}

/** Asks the API who the session cookie belongs to and what they may do. */
async function confirmSession(auth: StoredAuth): Promise<Confirmed> {
  const stored = auth.user;
  const fresh = lastCheck.login === loginKey(auth) && Date.now() - lastCheck.at < CHECK_FRESH_MS;
  if (fresh && lastCheck.confirmed) return lastCheck.confirmed;
  // The shell's entry script may have asked already (@campus/kit/prefetch): take that answer.
  const me = await withPrefetch(callTarget(callRoutes.me), () => callApi(callRoutes.me));
  // An answer without a body (a proxy's, say), or another member's session, confirms nobody.
  if (!me) throw new Error('Session rejected');
  if (me.user.id !== stored.id) throw new ApiError(401, 'Unauthorized', '');
  const { id, name, email, avatarUrl } = me.user;
  const confirmed = { user: { id, name, email, avatarUrl: avatarUrl ?? null }, roles: me.roles };
  Object.assign(lastCheck, { login: loginKey(auth), at: Date.now(), confirmed });
  return confirmed;
}

/**
 * Leaving or reloading the page aborts the check in flight; that is not a rejected session, so
 * it must not log the user out.
 */
let pageUnloading = false;
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', () => (pageUnloading = true));
  window.addEventListener('pagehide', () => (pageUnloading = true));
  window.addEventListener('pageshow', () => (pageUnloading = false));
}

type State = {
  status: SessionStatus;
  auth: StoredAuth | null;
  roles: readonly Role[];
  unreachable?: boolean;
  signOutMessage?: string | null;
};

/** Whether two stored logins are the same one (a newer login or a logout changes it). */
const sameLogin = (a: StoredAuth | null | undefined, b: StoredAuth | null | undefined) =>
  !!a && !!b && loginKey(a) === loginKey(b);

const NO_ROLES: readonly Role[] = [];

/**
 * Where the reason the API gave for ending this tab's session is kept, so the sign-in page still
 * says it after a reload (the tab's sessionStorage: a message, nothing of the session).
 */
const SIGN_OUT_MESSAGE_KEY = 'campus.sign-out-message';

function keptSignOutMessage(): string | null {
  try {
    return window.sessionStorage.getItem(SIGN_OUT_MESSAGE_KEY);
  } catch {
    return null;
  }
}

function keepSignOutMessage(message: string | null): void {
  try {
    if (message) window.sessionStorage.setItem(SIGN_OUT_MESSAGE_KEY, message);
    else window.sessionStorage.removeItem(SIGN_OUT_MESSAGE_KEY);
  } catch {
    // storage blocked: the message lasts as long as the page
  }
}

/** One login: the member and when this browser signed in. */
const loginKey = (auth: StoredAuth) => `${auth.user.id}:${auth.signedInAt ?? 0}`;

/** Said when the API ends a session (a 401) that the member did not end themselves. */
export const SESSION_ENDED_TITLE = 'Session ended';
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.';

/** Waits between checks of a stored login while the API is unreachable: 2 s doubling to 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(30_000, 2_000 * 2 ** attempt);
}

/** Only the API refusing the token ends a session; anything else (a 5xx, no network) is a hiccup. */
function refusesToken(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const { mutate } = useSWRConfig();
  const [state, setState] = useState<State>(() => ({
    status: readStoredAuth() ? 'checking' : 'unauthenticated',
    auth: readStoredAuth(),
    roles: NO_ROLES,
    signOutMessage: keptSignOutMessage(),
  }));

  // Whether this page has held a session since the cache was last cleared.
  const heldSession = useRef(state.auth !== null);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const failedChecks = useRef(0);

  const signOutLocally = useCallback(async () => {
    lastCheck.at = 0;
    if (heldSession.current) {
      heldSession.current = false;
      await mutate(() => true, undefined, { revalidate: false });
    }
    setState((current) => ({
      status: 'unauthenticated',
      auth: null,
      roles: NO_ROLES,
      signOutMessage: current.signOutMessage ?? null,
    }));
  }, [mutate]);

  /** Confirms a stored login with the API; state changes only once the answer is in. */
  const verify = useCallback(
    function check(stored: StoredAuth): Promise<void> {
      clearTimeout(retryTimer.current);
      return confirmSession(stored).then(
        ({ user, roles }) => {
          if (!sameLogin(readStoredAuth(), stored)) return; // a newer login or logout won
          failedChecks.current = 0;
          setState({ status: 'authenticated', auth: { ...stored, user }, roles });
        },
        (error: unknown) => {
          if (pageUnloading || !sameLogin(readStoredAuth(), stored)) return;
          if (refusesToken(error)) {
            clearStoredAuth();
            return signOutLocally();
          }
          // The API is down or failing: keep the login, show the retry state, try again later.
          setState((current) =>
            current.status === 'checking' && sameLogin(current.auth, stored)
              ? { ...current, unreachable: true }
              : current,
          );
          const delay = retryDelay(failedChecks.current);
          failedChecks.current += 1;
          retryTimer.current = setTimeout(() => {
            const latest = readStoredAuth();
            if (latest && sameLogin(latest, stored)) void check(latest);
          }, delay);
        },
      );
    },
    [signOutLocally],
  );

  useEffect(() => () => clearTimeout(retryTimer.current), []);

  const retry = useCallback(() => {
    const stored = readStoredAuth();
    if (stored) void verify(stored);
  }, [verify]);

  /** Re-reads the stored login after a storage or auth-change event. */
  const recheck = useCallback(() => {
    const stored = readStoredAuth();
    if (!stored) {
      void signOutLocally();
      return;
    }
    heldSession.current = true;
    setState((current) =>
      sameLogin(current.auth, stored)
        ? current
        : { status: 'checking', auth: stored, roles: NO_ROLES },
    );
    void verify(stored);
  }, [signOutLocally, verify]);

  useEffect(() => {
    const stored = readStoredAuth();
    if (stored) void verify(stored);
  }, [verify]);

  useEffect(() => {
    const offAuth = onAppEvent('authChanged', (detail) => {
      // Signed out by the API, not by the member: say why, or it looks like a bug (a toast, and
      // the sign-in page keeps saying it: `signOutMessage`).
      const message =
        detail.reason === 'revoked'
          ? (detail.message ?? SESSION_ENDED_MESSAGE)
          : detail.reason === 'expired'
            ? SESSION_ENDED_MESSAGE
            : null;
      keepSignOutMessage(detail.signedIn ? null : message);
      setState((current) => ({ ...current, signOutMessage: detail.signedIn ? null : message }));
      if (detail.reason === 'revoked') {
        toast({ title: 'Signed out', description: message!, variant: 'destructive' });
      } else if (detail.reason === 'expired') {
        toast({
          title: SESSION_ENDED_TITLE,
          description: SESSION_ENDED_MESSAGE,
          variant: 'destructive',
        });
      }
      recheck();
    });
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === AUTH_STORAGE_KEY) recheck();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      offAuth();
      window.removeEventListener('storage', onStorage);
    };
  }, [recheck]);

  /** The roles are not in the login answer: the check that authChanged starts fetches them. */
  const login = useCallback((auth: StoredAuth) => {
    storeAuth({ ...auth, signedInAt: auth.signedInAt ?? Date.now() });
    emitAppEvent('authChanged', { signedIn: true });
  }, []);

  const logout = useCallback(() => {
    // The API ends the session and drops its cookies; the member is signed out here at once.
    void callApi(callRoutes.signOut, { on401: 'returnNull' }).catch(() => undefined);
    clearStoredAuth();
    emitAppEvent('authChanged', { signedIn: false });
  }, []);

  const updateUser = useCallback((user: SessionUser) => {
    const stored = readStoredAuth();
    if (!stored) return;
    storeAuth({ ...stored, user });
    if (lastCheck.confirmed && lastCheck.login === loginKey(stored)) {
      lastCheck.confirmed = { ...lastCheck.confirmed, user };
    }
    setState((current) => ({
      status: 'authenticated',
      auth: { ...stored, user },
      roles: current.roles,
    }));
  }, []);

  // The page's one live stream, open while the session is confirmed.
  useSessionStream(state.status === 'authenticated' ? (state.auth?.user.id ?? null) : null);

  const session = useMemo<Session>(
    () => ({
      status: state.status,
      user: state.status === 'authenticated' ? (state.auth?.user ?? null) : null,
      signOutMessage: state.status === 'unauthenticated' ? (state.signOutMessage ?? null) : null,
      roles: state.status === 'authenticated' ? state.roles : NO_ROLES,
      isAdmin: state.status === 'authenticated' && state.roles.includes('admin'),
      unreachable: state.status === 'checking' && state.unreachable === true,
      retry,
      login,
      logout,
      updateUser,
    }),
    [state, retry, login, logout, updateUser],
  );

  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
