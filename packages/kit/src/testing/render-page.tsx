import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { configureApi, type SessionUser } from '@campus/kit/api';
import { DataProvider } from '@campus/kit/data';
import { SessionProvider } from '@campus/kit/session';
import { KitThemeProvider } from '@campus/kit/theme';
import { Toaster } from '@campus/kit/toast';
import { signIn, TEST_API_URL } from './mock-api';

function Location() {
  const location = useLocation();
  return (
    <output aria-label="location" data-testid="location">
      {location.pathname}
    </output>
  );
}

export interface RenderPageOptions {
  /** The URL the router starts at ('/' by default). */
  path?: string;
  /** Several history entries instead of `path` (the last one is current). */
  entries?: string[];
  /** The route pattern the element is mounted on ('*' by default). */
  route?: string;
  /** Signs this user in first (`signIn`); otherwise the stored login, if any, is used. */
  signedInAs?: SessionUser;
}

/**
 * Renders a page the way the shell mounts a remote: theme, SWR cache, session, router (with the
 * current path in an `output` labelled "location", and "elsewhere" on any other route), toasts.
 */
export function renderPage(
  element: ReactElement,
  { path = '/', entries, route = '*', signedInAs }: RenderPageOptions = {},
) {
  configureApi({ baseUrl: TEST_API_URL });
  if (signedInAs) signIn(signedInAs);
  return render(
    <KitThemeProvider>
      <DataProvider>
        <SessionProvider>
          <MemoryRouter initialEntries={entries ?? [path]}>
            <Routes>
              <Route path={route} element={element} />
              <Route path="*" element={<p>elsewhere</p>} />
            </Routes>
            <Location />
          </MemoryRouter>
          <Toaster />
        </SessionProvider>
      </DataProvider>
    </KitThemeProvider>,
  );
}
