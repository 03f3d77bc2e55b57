import { act, render, screen, waitFor } from '@testing-library/react';
import useSWR from 'swr';
import { SESSION_REVOKED_MESSAGE } from '@campus/contracts';
import { configureApi, readStoredAuth, storeAuth } from '@campus/kit/api';
import { DataProvider } from '@campus/kit/data';
import { emitAppEvent } from '@campus/kit/events';
import { SessionProvider, useSession } from '@campus/kit/session';
import { retryDelay } from './session-provider';
import { callsTo, mockApi, renderWithTheme } from '@campus/kit/testing';
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
      <button onClick={() => session.login({ user: ada, token: 'new-token' })}>log in</button>
      <button onClick={session.logout}>log out</button>
      <button onClick={() => session.replaceToken('fresh-token')}>replace token</button>
      <p>token: {session.token ?? 'none'}</p>
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
  configureApi({ baseUrl: '' });
});

describe('SessionProvider', () => {
  it('is unauthenticated without stored login, without calling the API', async () => {
    const fetchMock = respondWith(200, me());
    renderSession();
    expect(await screen.findByText('status: unauthenticated')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('checks a stored login with GET /api/auth/me and the stored token', async () => {
    storeAuth({ user: ada, token: 'stored-token' });
    const fetchMock = respondWith(200, me({ ...ada, name: 'Ada L.' }));
    renderSession();
    expect(screen.getByText('status: checking')).toBeInTheDocument();
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
    expect(screen.getByText('user: Ada L.')).toBeInTheDocument();
    expect(screen.getByText('admin: no')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/auth/me',
      expect.objectContaining({
        headers: expect.objectContaining({ Authorization: 'Bearer stored-token' }),
      }),
    );
  });

  it('signs out and says why when the API answers that the session was revoked', async () => {
    storeAuth({ user: { ...ada, id: 5 }, token: 'revoked-token' });
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
    act(() => dismissToast());
  });

  it('logs out when the check fails', async () => {
    storeAuth({ user: { ...ada, id: 4 }, token: 'expired' });
    respondWith(401, { message: 'Unauthorized' });
    renderSession();
    expect(await screen.findByText('status: unauthenticated')).toBeInTheDocument();
    expect(readStoredAuth()).toBeNull();
  });

  it('says the session ended when the check answers 401', async () => {
    storeAuth({ user: { ...ada, id: 8 }, token: 'ended' });
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
    const token = `kept-through-${what}`;
    storeAuth({ user: { ...ada, id: 9 }, token });
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
    expect(readStoredAuth()?.token).toBe(token);

    down = false;
    act(() => screen.getByText('retry').click());
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
    expect(screen.getByText('unreachable: no')).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/auth/me')).toHaveLength(2);
  });

  it('checks an unreachable login again by itself, with back-off', async () => {
    jest.useFakeTimers();
    try {
      storeAuth({ user: { ...ada, id: 10 }, token: 'retried-by-itself' });
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

  it('opens the live stream with the confirmed token, and its 401 ends the session', async () => {
    storeAuth({ user: { ...ada, id: 11 }, token: 'stream-token' });
    const fetchMock = mockApi(({ pathname }) =>
      pathname === '/api/stream' ? { status: 401, body: { message: 'Unauthorized' } } : undefined,
    );
    renderWithTheme(
      <DataProvider>
        <SessionProvider>
          <Probe />
        </SessionProvider>
        <Toaster />
      </DataProvider>,
    );
    expect(await screen.findByText('status: unauthenticated')).toBeInTheDocument();
    const [stream] = callsTo(fetchMock, '/api/stream');
    expect(stream?.init.headers).toMatchObject({
      Accept: 'text/event-stream',
      Authorization: 'Bearer stream-token',
    });
    expect(readStoredAuth()).toBeNull();
    expect(await screen.findByRole('alert')).toHaveTextContent('Session ended');
    act(() => dismissToast());
  });

  it('is admin only when the API gives the admin role, whatever the user id', async () => {
    storeAuth({ user: { ...ada, id: 107 }, token: 'member-107' });
    respondWith(200, me({ ...ada, id: 107 }));
    const { unmount } = renderSession();
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
    expect(screen.getByText('admin: no')).toBeInTheDocument();
    unmount();

    storeAuth({ user: ada, token: 'admin-3' });
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

  it('replaces the token after a password change without checking the session again', async () => {
    storeAuth({ user: { ...ada, id: 6 }, token: 'before-change' });
    const fetchMock = respondWith(200, me({ ...ada, id: 6 }));
    renderSession();
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
    act(() => screen.getByText('replace token').click());
    expect(screen.getByText('token: fresh-token')).toBeInTheDocument();
    expect(screen.getByText('status: authenticated')).toBeInTheDocument();
    expect(readStoredAuth()?.token).toBe('fresh-token');
    expect(callsTo(fetchMock, '/api/auth/me')).toHaveLength(1);
  });

  it('re-checks on storage events from other tabs and on authChanged', async () => {
    respondWith(200, me());
    renderSession();
    await screen.findByText('status: unauthenticated');
    storeAuth({ user: { ...ada, id: 5 }, token: 'other-tab' });
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
    storeAuth({ user: ada, token: 'kept' });
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
    expect(readStoredAuth()?.token).toBe('kept');
    window.dispatchEvent(new Event('pageshow'));
  });
});
