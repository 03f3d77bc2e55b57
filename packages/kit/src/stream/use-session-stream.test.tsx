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

const ada = { id: 21, name: 'Ada', email: 'ada@campus.edu', avatarUrl: null };

/** A fetch whose /api/stream answers a body the test writes to; other calls answer JSON. */
function fakeApi(list: Notification[]) {
  const writers: Array<(text: string) => void> = [];
  const streamUrls: string[] = [];
  global.fetch = jest.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://api.test');
    if (url.pathname === '/api/stream') {
      streamUrls.push(`${url.pathname}${url.search}`);
      const queue: Uint8Array[] = [];
      let wake: (() => void) | null = null;
      writers.push((text) => {
        queue.push(new TextEncoder().encode(text));
        wake?.();
      });
      const signal = init.signal as AbortSignal;
      return {
        ok: true,
        status: 200,
        body: {
          getReader: () => ({
            read: () =>
              new Promise((resolve, reject) => {
                const next = () => {
                  const chunk = queue.shift();
                  if (chunk) resolve({ done: false, value: chunk });
                  else wake = next;
                };
                signal.addEventListener('abort', () => reject(new Error('aborted')));
                next();
              }),
            cancel: async () => undefined,
          }),
        },
      } as unknown as Response;
    }
    const body =
      url.pathname === '/api/auth/me'
        ? { user: { ...ada, bio: '', createdAt: new Date(0).toISOString() }, roles: ['member'] }
        : list;
    return { ok: true, status: 200, text: async () => JSON.stringify(body) } as Response;
  }) as unknown as typeof fetch;
  return {
    write: (text: string) => writers.at(-1)?.(text),
    streamUrls,
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

beforeEach(() => {
  window.localStorage.clear();
  configureApi({ baseUrl: 'http://api.test' });
});

describe('the session stream', () => {
  it('drives the badge, the shared list, the new-posts count and live listeners', async () => {
    storeAuth({ user: ada, token: 'live-token' });
    const api = fakeApi([like(1, true)]);
    render(
      <DataProvider>
        <SessionProvider>
          <Probe />
        </SessionProvider>
      </DataProvider>,
    );
    expect(await screen.findByText('listed: 1')).toBeInTheDocument();
    // The stream opens once the page's first data is in; events are written to that request.
    await waitFor(() => expect(api.streamUrls).toHaveLength(1));
    expect(screen.getByText('badge: 0')).toBeInTheDocument();

    act(() => api.write('event: unread\ndata: {"count":4}\n\n'));
    // the stream's count wins over the list's (which holds only the newest 100)
    expect(await screen.findByText('badge: 4')).toBeInTheDocument();

    act(() => api.write(`id: 2\nevent: notification\ndata: ${JSON.stringify(like(2))}\n\n`));
    expect(await screen.findByText('listed: 2,1')).toBeInTheDocument();
    expect(document.title).toBe('live 2');

    act(() => reportNewestPost('for-you', 338));
    // a new newest post opens a new stream that counts from it
    await waitFor(() =>
      expect(api.streamUrls.at(-1)).toBe(`/api/stream?tabs=${encodeURIComponent('for-you:338')}`),
    );
    act(() => api.write('event: posts\ndata: {"tab":"for-you","count":3}\n\n'));
    expect(await screen.findByText('new posts: 3')).toBeInTheDocument();
  });
});
