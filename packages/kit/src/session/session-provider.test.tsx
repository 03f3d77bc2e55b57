import { act, render, screen, waitFor } from '@testing-library/react';
import useSWR from 'swr';
import { SESSION_REVOKED_MESSAGE, SESSION_SIGNED_OUT_MESSAGE } from '@campus/contracts';
import { configureApi, readStoredAuth, storeAuth } from '@campus/kit/api';
import { DataProvider } from '@campus/kit/data';
import { emitAppEvent } from '@campus/kit/events';
import { SessionProvider, useSession } from '@campus/kit/session';
import { retryDelay } from './session-provider';
import { callsTo, FakeEventSource, mockApi, renderWithTheme } from '@campus/kit/testing';
import { Toaster, dismissToast } from '@campus/kit/toast';

const ada = { id: 3, name: 'Ada', email: 'ada@campus.edu', avatarUrl: null };
const me = (user = ada, roles = ['member']) => ({
  user: { ...user, bio: '', createdAt: new Date(0).toISOString() },
  roles,
});

/** Every request, the session check included, answers `status` with `body`. */
function respondWith(status: number, body: unknown) {
  return mockApi(() => ({ status, body }), { acceptStoredLogin: false });
}

function Probe() {
  const session = useSession();
  const cached = useSWR('probe', () => 'cached value');
  return (
    <div>
      <p>status: {session.status}</p>
      <p>user: {session.user?.name ?? 'none'}</p>
      <p>admin: {session.isAdmin ? 'yes' : 'no'}</p>
      <p>cache: {cached.data ?? 'empty'}</p>
      <button onClick={() => session.login({ user: ada })}>log in</button>
      <button onClick={session.logout}>log out</button>
      <p>why: {session.signOutMessage ?? 'none'}</p>
      <p>unreachable: {session.unreachable ? 'yes' : 'no'}</p>
      <button onClick={session.retry}>retry</button>
    </div>
  );
}

function renderSession() {
  return render(
    <DataProvider>
      <SessionProvider>
        <Probe />
      </SessionProvider>
    </DataProvider>,
  );
}

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  configureApi({ baseUrl: '' });
});

describe('SessionProvider', () => {
  it('is unauthenticated without stored login, without calling the API', async () => {
    const fetchMock = respondWith(200, me());
    renderSession();
    expect(await screen.findByText('status: unauthenticated')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('checks a stored login with GET /api/auth/me and the session cookie, no token', async () => {
    storeAuth({ user: ada, signedInAt: 101 });
    const fetchMock = respondWith(200, me({ ...ada, name: 'Ada L.' }));
    renderSession();
    expect(screen.getByText('status: checking')).toBeInTheDocument();
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
    expect(screen.getByText('user: Ada L.')).toBeInTheDocument();
    expect(screen.getByText('admin: no')).toBeInTheDocument();
    const [check] = callsTo(fetchMock, '/api/auth/me');
    expect(check?.init).toMatchObject({
      credentials: 'include',
      headers: { Accept: 'application/json', 'X-Requested-With': 'campus' },
    });
    expect(check?.init.headers).not.toHaveProperty('Authorization');
  });

  it('signs out and says why when the API answers that the session was revoked', async () => {
    storeAuth({ user: { ...ada, id: 5 }, signedInAt: 104 });
    respondWith(401, { message: SESSION_REVOKED_MESSAGE });
    renderWithTheme(
      <DataProvider>
        <SessionProvider>
          <Probe />
        </SessionProvider>
        <Toaster />
      </DataProvider>,
    );
    expect(await screen.findByText('status: unauthenticated')).toBeInTheDocument();
    expect(readStoredAuth()).toBeNull();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `Signed out${SESSION_REVOKED_MESSAGE}`,
    );
    // The sign-in page keeps saying it (session.signOutMessage), after a reload too.
    expect(screen.getByText(`why: ${SESSION_REVOKED_MESSAGE}`)).toBeInTheDocument();
    expect(window.sessionStorage.getItem('campus.sign-out-message')).toBe(SESSION_REVOKED_MESSAGE);
    act(() => dismissToast());
  });

  it('renews an access cookie that ran out and asks again, once, without signing out', async () => {
    storeAuth({ user: { ...ada, id: 12 }, signedInAt: 1 });
    let renewed = false;
    const fetchMock = mockApi(
      ({ method, pathname }) => {
        if (method === 'POST' && pathname === '/api/auth/refresh') {
          renewed = true;
          return { status: 204 };
        }
        if (pathname === '/api/auth/me') {
          return renewed
            ? { status: 200, body: me({ ...ada, id: 12 }) }
            : { status: 401, body: { message: 'Authentication required' } };
        }
        return undefined;
      },
      { acceptStoredLogin: false },
    );
    renderSession();
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/auth/refresh', 'POST')).toHaveLength(1);
    expect(callsTo(fetchMock, '/api/auth/me')).toHaveLength(2);
  });

  it('when the session cannot be renewed because it was signed out elsewhere, then says so', async () => {
    storeAuth({ user: { ...ada, id: 13 }, signedInAt: 1 });
    respondWith(401, { message: SESSION_SIGNED_OUT_MESSAGE });
    renderSession();
    expect(await screen.findByText(`why: ${SESSION_SIGNED_OUT_MESSAGE}`)).toBeInTheDocument();
    expect(screen.getByText('status: unauthenticated')).toBeInTheDocument();
  });

  it('logs out when the check fails', async () => {
    storeAuth({ user: { ...ada, id: 4 }, signedInAt: 105 });
    respondWith(401, { message: 'Unauthorized' });
    renderSession();
    expect(await screen.findByText('status: unauthenticated')).toBeInTheDocument();
    expect(readStoredAuth()).toBeNull();
  });

  it('says the session ended when the check answers 401', async () => {
    storeAuth({ user: { ...ada, id: 8 }, signedInAt: 106 });
    respondWith(401, { message: 'Unauthorized' });
    renderWithTheme(
      <DataProvider>
        <SessionProvider>
          <Probe />
        </SessionProvider>
        <Toaster />
      </DataProvider>,
    );
    expect(await screen.findByText('status: unauthenticated')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Session endedYour session has ended. Please sign in again.',
    );
    act(() => dismissToast());
  });

  it.each([
    ['a 503', () => ({ status: 503, body: { message: 'Service Unavailable' } })],
    [
      'an unreachable API',
      () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('keeps the login and offers a retry after %s at start-up', async (what, answer) => {
    storeAuth({ user: { ...ada, id: 9 }, signedInAt: what.length });
    let down = true;
    const fetchMock = mockApi(
      () => (down ? answer() : { status: 200, body: me({ ...ada, id: 9 }) }),
      {
        acceptStoredLogin: false,
      },
    );
    renderSession();
    expect(await screen.findByText('unreachable: yes')).toBeInTheDocument();
    expect(screen.getByText('status: checking')).toBeInTheDocument();
    expect(readStoredAuth()?.user.id).toBe(9);

    down = false;
    act(() => screen.getByText('retry').click());
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
    expect(screen.getByText('unreachable: no')).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/auth/me')).toHaveLength(2);
  });

  it('checks an unreachable login again by itself, with back-off', async () => {
    jest.useFakeTimers();
    try {
      storeAuth({ user: { ...ada, id: 10 }, signedInAt: 107 });
      let calls = 0;
      mockApi(
        ({ pathname }) => {
          if (pathname !== '/api/auth/me') return undefined;
          calls += 1;
          return calls < 3
            ? { status: 502, body: { message: 'Bad Gateway' } }
            : { status: 200, body: me({ ...ada, id: 10 }) };
        },
        { acceptStoredLogin: false },
      );
      renderSession();
      await act(async () => undefined);
      expect(calls).toBe(1);
      await act(async () => jest.advanceTimersByTime(retryDelay(0)));
      expect(calls).toBe(2);
      // the second wait is longer than the first
      await act(async () => jest.advanceTimersByTime(retryDelay(0)));
      expect(calls).toBe(2);
      await act(async () => jest.advanceTimersByTime(retryDelay(1) - retryDelay(0)));
      expect(calls).toBe(3);
      expect(screen.getByText('status: authenticated')).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  it('opens the live stream with the session cookie, and a refusal that no renewal cures ends the session', async () => {
    const restore = FakeEventSource.install();
    try {
      storeAuth({ user: { ...ada, id: 11 }, signedInAt: 1 });
      let ended = false;
      mockApi(
        ({ pathname }) =>
          ended && (pathname === '/api/auth/me' || pathname === '/api/auth/refresh')
            ? { status: 401, body: { message: 'Authentication required' } }
            : pathname === '/api/auth/me'
              ? { status: 200, body: me({ ...ada, id: 11 }) }
              : undefined,
        { acceptStoredLogin: false },
      );
      renderWithTheme(
        <DataProvider>
          <SessionProvider>
            <Probe />
          </SessionProvider>
          <Toaster />
        </DataProvider>,
      );
      expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
      await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
      const stream = FakeEventSource.latest();
      expect(stream.url).toBe('/api/stream');
      expect(stream.init.withCredentials).toBe(true);
      ended = true;
      act(() => stream.fail(true));
      expect(
        await screen.findByText('status: unauthenticated', {}, { timeout: 20_000 }),
      ).toBeInTheDocument();
      expect(readStoredAuth()).toBeNull();
      expect(await screen.findByRole('alert')).toHaveTextContent('Session ended');
      act(() => dismissToast());
    } finally {
      restore();
    }
  });

  it('is admin only when the API gives the admin role, whatever the user id', async () => {
    storeAuth({ user: { ...ada, id: 107 }, signedInAt: 109 });
    respondWith(200, me({ ...ada, id: 107 }));
    const { unmount } = renderSession();
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
    expect(screen.getByText('admin: no')).toBeInTheDocument();
    unmount();

    storeAuth({ user: ada, signedInAt: 102 });
    respondWith(200, me(ada, ['member', 'admin']));
    renderSession();
    expect(await screen.findByText('admin: yes')).toBeInTheDocument();
  });

  it('logs in, then logs out clearing every cached response', async () => {
    respondWith(200, me());
    renderSession();
    await screen.findByText('status: unauthenticated');
    act(() => screen.getByText('log in').click());
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
    expect(await screen.findByText('cache: cached value')).toBeInTheDocument();
    act(() => screen.getByText('log out').click());
    expect(await screen.findByText('status: unauthenticated')).toBeInTheDocument();
    expect(readStoredAuth()).toBeNull();
    await waitFor(() => expect(screen.getByText('cache: empty')).toBeInTheDocument());
  });

  it('logs out at the API too: POST /api/auth/logout ends the session and drops its cookies', async () => {
    storeAuth({ user: { ...ada, id: 6 }, signedInAt: 1 });
    const fetchMock = respondWith(200, me({ ...ada, id: 6 }));
    renderSession();
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
    act(() => screen.getByText('log out').click());
    expect(await screen.findByText('status: unauthenticated')).toBeInTheDocument();
    expect(screen.getByText('why: none')).toBeInTheDocument();
    await waitFor(() => expect(callsTo(fetchMock, '/api/auth/logout', 'POST')).toHaveLength(1));
  });

  it('re-checks on storage events from other tabs and on authChanged', async () => {
    respondWith(200, me({ ...ada, id: 5 }));
    renderSession();
    await screen.findByText('status: unauthenticated');
    storeAuth({ user: { ...ada, id: 5 }, signedInAt: 111 });
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'campus.auth' }));
    });
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
    window.localStorage.clear();
    act(() => emitAppEvent('authChanged', { signedIn: false }));
    expect(await screen.findByText('status: unauthenticated')).toBeInTheDocument();
  });
});

describe('leaving the page', () => {
  it('does not log out when the check is cut short by navigation', async () => {
    storeAuth({ user: ada, signedInAt: 103 });
    mockApi(
      () => {
        window.dispatchEvent(new Event('pagehide'));
        throw new TypeError('Failed to fetch');
      },
      { acceptStoredLogin: false },
    );
    renderSession();
    await waitFor(() => expect(global.fetch).toHaveBeenCalled());
    await act(async () => undefined);
    expect(readStoredAuth()?.user).toEqual(ada);
    window.dispatchEvent(new Event('pageshow'));
  });
});
