import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { configureApi } from '@campus/kit/api';
import { DataProvider } from '@campus/kit/data';
import { SessionProvider } from '@campus/kit/session';
import { KitThemeProvider } from '@campus/kit/theme';
import { Toaster } from '@campus/kit/toast';
import { AppRoutes } from '../app/app-routes';
import type { RuntimeConfig } from '../app/runtime-config';
import { RuntimeConfigContext } from '../app/runtime-config-context';
import { registerMemberRemotes } from '../composition/remote-registry';

export const testConfig: RuntimeConfig = {
  apiUrl: 'http://api.test',
  adminUserId: 107,
  remotes: {
    mf_feed: 'http://feed.test/mf-manifest.json',
    mf_profile: 'http://profile.test/mf-manifest.json',
    mf_notifications: 'http://notifications.test/mf-manifest.json',
    mf_admin: 'http://admin.test/mf-manifest.json',
  },
};

type Handler = (
  path: string,
  init: RequestInit | undefined,
) => { status: number; body?: unknown } | undefined;

/** Answers fetch calls from `handler` (by API path); anything unanswered is a 404. */
export function mockApi(handler: Handler) {
  const fetchMock = jest.fn(async (url: string, init?: RequestInit) => {
    const path = url.replace(testConfig.apiUrl, '');
    const answer = handler(path, init) ?? { status: 404, body: { message: 'Not found' } };
    return {
      status: answer.status,
      ok: answer.status >= 200 && answer.status < 300,
      statusText: '',
      text: async () => (answer.body === undefined ? '' : JSON.stringify(answer.body)),
    };
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}

export function signInStored(user: { id: number; name: string; email: string }) {
  window.localStorage.setItem(
    'campus.auth',
    JSON.stringify({ user: { ...user, avatarUrl: null }, token: 't' }),
  );
}

/** The shell's routes inside the same providers as the real app, at `path`. */
export function renderApp(path: string) {
  configureApi({ baseUrl: testConfig.apiUrl });
  registerMemberRemotes(testConfig);
  return render(
    <RuntimeConfigContext.Provider value={testConfig}>
      <KitThemeProvider>
        <DataProvider>
          <SessionProvider>
            <MemoryRouter initialEntries={[path]}>
              <AppRoutes />
            </MemoryRouter>
            <Toaster />
          </SessionProvider>
        </DataProvider>
      </KitThemeProvider>
    </RuntimeConfigContext.Provider>,
  );
}
