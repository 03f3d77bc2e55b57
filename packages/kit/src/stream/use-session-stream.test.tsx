import { act, render, screen, waitFor } from '@testing-library/react';
import type { Notification } from '@campus/contracts';
import { configureApi, storeAuth } from '@campus/kit/api';
import { DataProvider, unreadCount, useNotifications } from '@campus/kit/data';
import { SessionProvider, useSession } from '@campus/kit/session';
import {
  reportNewestPost,
  useLiveNotifications,
  useNewPostsCount,
  useUnreadCount,
} from '@campus/kit/stream';
import { FakeEventSource } from '@campus/kit/testing';

const ada = { id: 21, name: 'Ada', email: 'ada@campus.edu', avatarUrl: null };

/** The API's JSON calls; the stream is an EventSource (FakeEventSource) the test drives. */
function fakeApi(list: Notification[]) {
  global.fetch = jest.fn(async (input: string) => {
    const url = new URL(input, 'http://api.test');
    const body =
      url.pathname === '/api/auth/me'
        ? { user: { ...ada, bio: '', createdAt: new Date(0).toISOString() }, roles: ['member'] }
        : list;
    return { ok: true, status: 200, text: async () => JSON.stringify(body) } as Response;
  }) as unknown as typeof fetch;
  const stream = () => FakeEventSource.latest();
  return {
    stream,
    streamUrls: () =>
      FakeEventSource.instances.map((source) => {
        const url = new URL(source.url);
        return `${url.pathname}${url.search}`;
      }),
  };
}

const like = (id: number, isRead = false): Notification => ({
  id,
  type: 'like',
  isRead,
  createdAt: new Date().toISOString(),
  actor: { id: 2, name: 'Ben', avatarUrl: null },
  post: { id: 7, content: 'Hello' },
});

function Probe() {
  const { status } = useSession();
  const badge = useUnreadCount();
  const { data } = useNotifications({ enabled: status === 'authenticated' });
  const newPosts = useNewPostsCount('for-you');
  useLiveNotifications((notification) => {
    document.title = `live ${notification.id}`;
  });
  return (
    <div>
      <p>status: {status}</p>
      <p>badge: {badge}</p>
      <p>listed: {data?.map((item) => item.id).join(',') ?? 'none'}</p>
      <p>listed unread: {unreadCount(data)}</p>
      <p>new posts: {newPosts}</p>
    </div>
  );
}

let restoreEventSource: () => void;
beforeEach(() => {
  window.localStorage.clear();
  configureApi({ baseUrl: 'http://api.test' });
  restoreEventSource = FakeEventSource.install();
});
afterEach(() => restoreEventSource());

describe('the session stream', () => {
  it('drives the badge, the shared list, the new-posts count and live listeners', async () => {
    storeAuth({ user: ada });
    const api = fakeApi([like(1, true)]);
    render(
      <DataProvider>
        <SessionProvider>
          <Probe />
        </SessionProvider>
      </DataProvider>,
    );
    expect(await screen.findByText('listed: 1')).toBeInTheDocument();
    // The stream opens once the page's first data is in, with the session cookie.
    await waitFor(() => expect(api.streamUrls()).toHaveLength(1));
    expect(api.stream().init.withCredentials).toBe(true);
    expect(api.streamUrls()[0]).toBe('/api/stream');
    act(() => api.stream().open());
    expect(screen.getByText('badge: 0')).toBeInTheDocument();

    act(() => api.stream().emit('unread', { count: 4 }));
    // the stream's count wins over the list's (which holds only the newest 100)
    expect(await screen.findByText('badge: 4')).toBeInTheDocument();

    act(() => api.stream().emit('notification', like(2), '2'));
    expect(await screen.findByText('listed: 2,1')).toBeInTheDocument();
    expect(document.title).toBe('live 2');

    act(() => reportNewestPost('for-you', 338));
    // a new newest post opens a new stream that counts from it, and resumes after the last event
    await waitFor(() =>
      expect(api.streamUrls().at(-1)).toBe(
        `/api/stream?${new URLSearchParams({ tabs: 'for-you:338', lastEventId: '2' })}`,
      ),
    );
    expect(FakeEventSource.instances[0]!.closed).toBe(true);
    act(() => api.stream().emit('posts', { tab: 'for-you', count: 3 }));
    expect(await screen.findByText('new posts: 3')).toBeInTheDocument();
  });
});
