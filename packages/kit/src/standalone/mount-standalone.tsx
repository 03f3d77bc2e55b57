import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { configureApi } from '@campus/kit/api';
import { DataProvider } from '@campus/kit/data';
import { SessionProvider, useSession } from '@campus/kit/session';
import { startColorScheme } from '@campus/kit/color-scheme';
import { KitThemeProvider, theme } from '@campus/kit/theme';
import { Toaster } from '@campus/kit/toast';

function SessionNote() {
  const { status, user } = useSession();
  return (
    <p style={{ font: '12px system-ui', margin: 8, color: theme.colors.textMuted }}>
      Standalone development page: session {status}
      {user ? ` as ${user.name}` : ' (sign in through the shell on this origin to see member data)'}
      .
    </p>
  );
}

/**
 * Mounts a remote's pages on their own, inside the same providers the shell gives them, so a
 * team can run `npm run dev` in its remote without the shell. Not used in production.
 */
export function mountStandalone(routes: { path: string; element: ReactNode }[]): void {
  configureApi({ baseUrl: 'http://localhost:4000' });
  startColorScheme();
  createRoot(
    document.getElementById('root') ?? document.body.appendChild(document.createElement('div')),
  ).render(
    <KitThemeProvider global>
      <DataProvider>
        <SessionProvider>
          <SessionNote />
          <BrowserRouter>
            <Routes>
              {routes.map((route) => (
                <Route key={route.path} path={route.path} element={route.element} />
              ))}
            </Routes>
          </BrowserRouter>
          <Toaster />
        </SessionProvider>
      </DataProvider>
    </KitThemeProvider>,
  );
}
