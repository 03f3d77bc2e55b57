import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import useSWR from 'swr';
import { configureApi } from '@campus/kit/api';
import {
  DataProvider,
  keyToPath,
  keys,
  swrDefaults,
  unreadCount,
  useNotifications,
} from '@campus/kit/data';
import { mockApi } from '@campus/kit/testing';

/** Every request answers `status` with `body`. */
function respondWith(status: number, body: unknown) {
  return mockApi(() => ({ status, body }));
}

const wrapper = ({ children }: { children: ReactNode }) => <DataProvider>{children}</DataProvider>;

beforeEach(() => configureApi({ baseUrl: 'http://api.test' }));
afterEach(() => jest.useRealTimers());

describe('SWR defaults (spec §7)', () => {
  it('never refetches on its own and never retries', () => {
    expect(swrDefaults).toMatchObject({
      refreshInterval: 0,
      revalidateOnFocus: false,
      revalidateOnReconnect: false,
      revalidateIfStale: false,
      shouldRetryOnError: false,
    });
  });

  it('joins the key parts with "/"', () => {
    expect(keyToPath(keys.followers(7))).toBe('/api/users/7/followers');
    expect(keyToPath('/api/settings')).toBe('/api/settings');
  });

  it('reads a key with a GET on the joined path', async () => {
    const fetchMock = respondWith(200, { id: 7 });
    const { result } = renderHook(() => useSWR(keys.user(7)), { wrapper });
    await waitFor(() => expect(result.current.data).toEqual({ id: 7 }));
    expect(fetchMock).toHaveBeenCalledWith(
      'http://api.test/api/users/7',
      expect.objectContaining({ method: 'GET' }),
    );
  });

  it('does not retry a failed read', async () => {
    // A retry would be a timer (SWR's back-off starts at seconds): a fake clock runs them all.
    jest.useFakeTimers();
    const fetchMock = respondWith(500, 'boom');
    const { result } = renderHook(() => useSWR(keys.post(1)), { wrapper });
    await waitFor(() => expect(result.current.error).toBeDefined());
    expect(result.current.error?.message).toBe('500: "boom"');
    await act(() => jest.advanceTimersByTimeAsync(10 * 60_000));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('notifications', () => {
  it('counts the unread ones', async () => {
    respondWith(200, [
      { id: 1, type: 'like', isRead: false, createdAt: '' },
      { id: 2, type: 'follow', isRead: true, createdAt: '' },
    ]);
    const { result } = renderHook(() => useNotifications(), { wrapper });
    await waitFor(() => expect(result.current.data).toHaveLength(2));
    expect(unreadCount(result.current.data)).toBe(1);
    expect(unreadCount(undefined)).toBe(0);
  });

  it('stays idle when disabled', () => {
    const fetchMock = respondWith(200, []);
    renderHook(() => useNotifications({ enabled: false }), { wrapper });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
