import {
  ApiError,
  apiRequest,
  configureApi,
  failureDescription,
  getJson,
  readStoredAuth,
  storeAuth,
} from '@campus/kit/api';
import { SESSION_REVOKED_MESSAGE } from '@campus/contracts';
import { onAppEvent } from '@campus/kit/events';
import { callsTo, mockApi } from '@campus/kit/testing';

/** Every request answers `status` with the raw `body` text (the client's parsing is under test). */
function mockFetch({ body, ...response }: { status: number; statusText?: string; body?: string }) {
  return mockApi(() => ({ ...response, text: body ?? '' }), { acceptStoredLogin: false });
}

const signedIn = {
  user: { id: 3, name: 'Ada', email: 'ada@campus.edu', avatarUrl: null },
};

beforeEach(() => {
  window.localStorage.clear();
  configureApi({ baseUrl: 'http://api.test/' });
});

describe('apiRequest', () => {
  it('sends JSON with the session cookie (credentials) and the CSRF header, never a token, to the configured API', async () => {
    storeAuth(signedIn);
    const fetchMock = mockFetch({ status: 200, body: '{"ok":true}' });
    await expect(
      apiRequest('/api/posts', { method: 'POST', body: { content: 'hi' } }),
    ).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledWith('http://api.test/api/posts', {
      method: 'POST',
      credentials: 'include',
      signal: undefined,
      body: '{"content":"hi"}',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'X-Requested-With': 'campus',
      },
    });
  });

  it('answers null for an empty body', async () => {
    mockFetch({ status: 204 });
    await expect(apiRequest('/api/notifications/read-all', { method: 'PUT' })).resolves.toBeNull();
  });

  it('fails with "STATUS: body"', async () => {
    mockFetch({ status: 409, statusText: 'Conflict', body: '{"message":"Email taken"}' });
    const error = await apiRequest('/api/x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('409: {"message":"Email taken"}');
    expect((error as ApiError).serverMessage).toBe('Email taken');
  });

  it('fails with "STATUS: status text" when the body is empty', async () => {
    mockFetch({ status: 500, statusText: 'Internal Server Error' });
    await expect(apiRequest('/api/x')).rejects.toThrow('500: Internal Server Error');
  });

  it.each([
    [401, { signedIn: false, reason: 'expired' }],
    [403, { signedIn: false }],
  ])('logs the user out on %i outside login and registration', async (status, detail) => {
    storeAuth(signedIn);
    const authChanged = jest.fn();
    const off = onAppEvent('authChanged', authChanged);
    mockFetch({ status, body: '{"message":"no"}' });
    await expect(apiRequest('/api/users/3', { method: 'PUT', body: {} })).rejects.toThrow(
      `${status}:`,
    );
    off();
    expect(readStoredAuth()).toBeNull();
    expect(authChanged).toHaveBeenCalledWith(detail);
  });

  it('keeps the session when login answers 401', async () => {
    storeAuth(signedIn);
    mockFetch({ status: 401, body: '{"message":"Invalid credentials"}' });
    await expect(apiRequest('/api/auth/login', { method: 'POST', body: {} })).rejects.toThrow(
      '401:',
    );
    expect(readStoredAuth()).toEqual(signedIn);
  });

  it('logs out with the reason "revoked" when the API says the session was revoked', async () => {
    storeAuth(signedIn);
    const authChanged = jest.fn();
    const off = onAppEvent('authChanged', authChanged);
    mockFetch({ status: 401, body: JSON.stringify({ message: SESSION_REVOKED_MESSAGE }) });
    // Even in returnNull mode: a revoked session is over, whatever the caller would accept.
    await expect(apiRequest('/api/auth/me', { on401: 'returnNull' })).resolves.toBeNull();
    off();
    expect(readStoredAuth()).toBeNull();
    expect(authChanged).toHaveBeenCalledTimes(1);
    expect(authChanged).toHaveBeenCalledWith({
      signedIn: false,
      reason: 'revoked',
      message: SESSION_REVOKED_MESSAGE,
    });
  });

  it('answers null for a 401 in returnNull mode without logging out while the session renews', async () => {
    storeAuth(signedIn);
    mockApi(
      ({ pathname }) => (pathname === '/api/auth/refresh' ? { status: 204 } : { status: 401 }),
      {
        acceptStoredLogin: false,
      },
    );
    await expect(apiRequest('/api/users/3', { on401: 'returnNull' })).resolves.toBeNull();
    expect(readStoredAuth()).toEqual(signedIn);
  });

  it('renews the session once for requests that fail together, then sends each again', async () => {
    storeAuth(signedIn);
    let renewed = false;
    const fetchMock = mockApi(
      ({ pathname }) => {
        if (pathname === '/api/auth/refresh') {
          renewed = true;
          return { status: 204 };
        }
        return renewed ? { status: 200, body: { path: pathname } } : { status: 401 };
      },
      { acceptStoredLogin: false },
    );
    await expect(
      Promise.all([apiRequest('/api/posts'), apiRequest('/api/notifications')]),
    ).resolves.toEqual([{ path: '/api/posts' }, { path: '/api/notifications' }]);
    expect(callsTo(fetchMock, '/api/auth/refresh', 'POST')).toHaveLength(1);
  });

  it('keeps the session when the API cannot renew it just now (a 5xx)', async () => {
    storeAuth(signedIn);
    mockApi(
      ({ pathname }) => (pathname === '/api/auth/refresh' ? { status: 503 } : { status: 401 }),
      {
        acceptStoredLogin: false,
      },
    );
    await expect(apiRequest('/api/posts')).rejects.toThrow('401:');
    expect(readStoredAuth()).toEqual(signedIn);
  });
});

describe('getJson', () => {
  it('yields null after logging out on 403', async () => {
    storeAuth(signedIn);
    mockFetch({ status: 403 });
    await expect(getJson('/api/analytics/overview')).resolves.toBeNull();
    expect(readStoredAuth()).toBeNull();
  });

  it('rejects other failures', async () => {
    mockFetch({ status: 404, body: 'missing' });
    await expect(getJson('/api/posts/9')).rejects.toThrow('404: missing');
  });
});

describe('failureDescription', () => {
  it('gives a 429 its own message (which limit, how long to wait), and the fallback otherwise', () => {
    const limited = new ApiError(
      429,
      'Too Many Requests',
      JSON.stringify({ message: 'Wait 42 s' }),
    );
    expect(failureDescription(limited, 'Failed.')).toBe('Wait 42 s');
    expect(failureDescription(new ApiError(429, 'Too Many Requests', ''), 'Failed.')).toBe(
      'Too many requests. Please wait a moment and try again.',
    );
    const failed = new ApiError(500, 'Internal Server Error', JSON.stringify({ message: 'boom' }));
    expect(failureDescription(failed, 'Failed.')).toBe('Failed.');
    expect(failureDescription(new TypeError('offline'), 'Failed.')).toBe('Failed.');
  });
});
