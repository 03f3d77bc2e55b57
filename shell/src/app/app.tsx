import { BrowserRouter } from 'react-router-dom';
import { DataProvider } from '@campus/kit/data';
import { SessionProvider } from '@campus/kit/session';
import { KitThemeProvider } from '@campus/kit/theme';
import { Toaster } from '@campus/kit/toast';
import { RemoteOverrideBanner } from '../composition/remote-override-banner';
import type { RemoteOverrides } from '../composition/remote-overrides';
import type { RuntimeConfig } from './runtime-config';
import { RuntimeConfigContext } from './runtime-config-context';
import { AppRoutes } from './app-routes';

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
        {overrides && <RemoteOverrideBanner overrides={overrides} />}
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
