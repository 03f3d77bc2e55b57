import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { configureApi, storeAuth } from '@campus/kit/api';
import { DataProvider } from '@campus/kit/data';
import { SessionProvider } from '@campus/kit/session';
import { KitThemeProvider } from '@campus/kit/theme';
import { Toaster } from '@campus/kit/toast';

export const ADA = { id: 1, name: 'Ada Okafor', email: 'ada.okafor@campus.edu', avatarUrl: null };

export type Reply = { status: number; body?: unknown };
export type Handler = (method: string, path: string, init?: RequestInit) => Reply | undefined;

/**
 * Answers fetch from `handler` (path without the API origin); GET /api/users/1 answers the
 * session check unless the handler does. Unknown calls are a 404.
 */
export function serveApi(handler: Handler) {
  const fetchMock = jest.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = url.replace('http://api.test', '');
    const reply =
      handler(method, path, init) ??
      (method === 'GET' && path === '/api/users/1'
        ? { status: 200, body: profileOf(ADA) }
        : { status: 404, body: { message: 'Not found' } });
    return {
      status: reply.status,
      ok: reply.status < 400,
      statusText: '',
      text: async () => (reply.body === undefined ? '' : JSON.stringify(reply.body)),
    };
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}

export function profileOf(
  user: { id: number; name: string; email: string; avatarUrl: string | null },
  extra: Record<string, unknown> = {},
) {
  return {
    ...user,
    bio: '',
    createdAt: new Date(Date.now() - 90 * 24 * 3600 * 1000).toISOString(),
    followingCount: 0,
    followersCount: 0,
    isFollowing: false,
    posts: [],
    ...extra,
  };
}

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname}</output>;
}

/** Signs Ada in and renders `element` at `path` (matching `pattern`) inside the shell's providers. */
export function renderPage(
  element: ReactElement,
  { path, pattern }: { path: string; pattern: string },
) {
  configureApi({ baseUrl: 'http://api.test' });
  storeAuth({ token: 'token', user: ADA });
  return render(
    <KitThemeProvider>
      <DataProvider>
        <SessionProvider>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path={pattern} element={element} />
              <Route path="*" element={<p>elsewhere</p>} />
            </Routes>
            <Where />
          </MemoryRouter>
          <Toaster />
        </SessionProvider>
      </DataProvider>
    </KitThemeProvider>,
  );
}
