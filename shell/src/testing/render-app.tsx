import { render } from '@testing-library/react';
import { MemoryRouter, type InitialEntry } from 'react-router-dom';
import { configureApi } from '@campus/kit/api';
import { DataProvider } from '@campus/kit/data';
import { SessionProvider } from '@campus/kit/session';
import { KitThemeProvider } from '@campus/kit/theme';
import { TEST_API_URL } from '@campus/kit/testing';
import { Toaster } from '@campus/kit/toast';
import { AppRoutes } from '../app/app-routes';
import type { RuntimeConfig } from '../app/runtime-config';
import { RuntimeConfigContext } from '../app/runtime-config-context';
import { registerMemberRemotes } from '../composition/remote-registry';

export const testConfig: RuntimeConfig = {
  apiUrl: TEST_API_URL,
  remotes: {
    mf_feed: 'http://feed.test/mf-manifest.json',
    mf_profile: 'http://profile.test/mf-manifest.json',
    mf_notifications: 'http://notifications.test/mf-manifest.json',
    mf_admin: 'http://admin.test/mf-manifest.json',
  },
};

/** The shell's routes inside the same providers as the real app, at `path` (with its state). */
export function renderApp(path: InitialEntry) {
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
