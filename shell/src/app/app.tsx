import { lazy, Suspense } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { DataProvider } from '@campus/kit/data';
import { SessionProvider } from '@campus/kit/session';
import { KitThemeProvider } from '@campus/kit/theme';
import { Toaster } from '@campus/kit/toast';
import type { RemoteOverrides } from '../composition/remote-overrides';
import type { RuntimeConfig } from './runtime-config';
import { RuntimeConfigContext } from './runtime-config-context';
import { AppRoutes } from './app-routes';

// Fixed at the bottom of the screen (it moves nothing when it arrives) and shown only to a browser
// with remote overrides: fetched only then.
const RemoteOverrideBanner = lazy(() =>
  import('../composition/remote-override-banner').then((m) => ({
    default: m.RemoteOverrideBanner,
  })),
);

/** The providers every app shares (one SWR cache, one session, one toaster) and the routes. */
export function App({
  config,
  overrides,
}: {
  config: RuntimeConfig;
  /** Remotes this browser loads from elsewhere (a feature team's try-out), shown in a banner. */
  overrides?: RemoteOverrides;
}) {
  return (
    <RuntimeConfigContext.Provider value={config}>
      <KitThemeProvider global>
        {overrides && (overrides.active.length > 0 || overrides.refused.length > 0) && (
          <Suspense fallback={null}>
            <RemoteOverrideBanner overrides={overrides} />
          </Suspense>
        )}
        <DataProvider>
          <SessionProvider>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
            <Toaster />
          </SessionProvider>
        </DataProvider>
      </KitThemeProvider>
    </RuntimeConfigContext.Provider>
  );
}
