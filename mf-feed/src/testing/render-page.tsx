import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { Post } from '@campus/contracts';
import { configureApi, storeAuth } from '@campus/kit/api';
import { DataProvider } from '@campus/kit/data';
import { SessionProvider } from '@campus/kit/session';
import { KitThemeProvider } from '@campus/kit/theme';
import { Toaster } from '@campus/kit/toast';

export const ADA = { id: 1, name: 'Ada Okafor', email: 'ada.okafor@campus.edu', avatarUrl: null };
export const BEN = { id: 2, name: 'Ben Larsen', email: 'ben.larsen@campus.edu', avatarUrl: null };

let nextId = 1000;
export function makePost(overrides: Partial<Post> = {}): Post {
  const id = overrides.id ?? nextId++;
  return {
    id,
    content: `Post number ${id}`,
    createdAt: new Date().toISOString(),
    isJdTagged: false,
    likesCount: 0,
    repostsCount: 0,
    commentsCount: 0,
    isLiked: false,
    isReposted: false,
    author: BEN,
    originalPostId: null,
    repostComment: null,
    originalPost: null,
    ...overrides,
  };
}

export const posts = (count: number) => Array.from({ length: count }, () => makePost());

export type Route_ = (
  url: URL,
  init: RequestInit,
) => { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>;

/** Mocks fetch: the session check of the signed-in user (Ada) answers, the rest goes to `route`. */
export function mockApi(route: Route_) {
  const fetchMock = jest.fn(async (input: string, init: RequestInit) => {
    const url = new URL(input);
    if (url.pathname === `/api/users/${ADA.id}` && (init.method ?? 'GET') === 'GET') {
      return { status: 200, ok: true, statusText: '', text: async () => JSON.stringify(ADA) };
    }
    const { status, body } = await route(url, init);
    return {
      status,
      ok: status < 400,
      statusText: '',
      text: async () => (body === undefined ? '' : JSON.stringify(body)),
    };
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}

/** The requests the page made to `pathname` (the session check excluded). */
export function callsTo(fetchMock: jest.Mock, pathname: string, method = 'GET') {
  return fetchMock.mock.calls
    .map(([input, init]: [string, RequestInit]) => ({ url: new URL(input), init }))
    .filter(({ url, init }) => url.pathname === pathname && (init.method ?? 'GET') === method);
}

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

/** Renders a page the way the shell does: theme, SWR cache, session (Ada), router, toasts. */
export function renderPage(
  ui: ReactElement,
  { path = '/', route = '*', entries }: { path?: string; route?: string; entries?: string[] } = {},
) {
  configureApi({ baseUrl: 'http://api.test' });
  storeAuth({ token: 'token', user: ADA });
  return render(
    <KitThemeProvider>
      <DataProvider>
        <SessionProvider>
          <MemoryRouter initialEntries={entries ?? [path]}>
            <Routes>
              <Route path={route} element={ui} />
              <Route path="*" element={null} />
            </Routes>
            <Location />
          </MemoryRouter>
          <Toaster />
        </SessionProvider>
      </DataProvider>
    </KitThemeProvider>,
  );
}
