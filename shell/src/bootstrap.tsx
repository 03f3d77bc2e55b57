import './app/zod-without-eval';
import { registerPlugins } from '@module-federation/enhanced/runtime';
import { createRoot } from 'react-dom/client';
import { configureApi, readStoredAuth } from '@campus/kit/api';
import { startColorScheme } from '@campus/kit/color-scheme';
import { App } from './app/app';
import { kitCompatibilityPlugin } from './composition/kit-compatibility';
import { registerMemberRemotes } from './composition/remote-registry';
import { preloadLandingRemote } from './composition/route-preload';
import { fetchRuntimeConfig } from './composition/runtime-config-loader';
import { overridesRequested } from './composition/override-request';
import type * as RemoteOverridesModule from './composition/remote-overrides';
import type { RemoteOverrides } from './composition/remote-overrides';
import type { RuntimeConfig } from './app/runtime-config';

/**
 * The remote overrides of this browser (a feature team's try-out, remote-overrides.ts), or none.
 * Their code is fetched only when the URL or this browser's storage asks for one.
 */
async function remoteOverrides(config: RuntimeConfig): Promise<RemoteOverrides | undefined> {
  const where = { search: window.location.search, storage: window.localStorage };
  if (!overridesRequested(where)) return undefined;
  let module: typeof RemoteOverridesModule;
  try {
    module = await import('./composition/remote-overrides');
  } catch (error) {
    // The deployed remotes still work: start with them rather than not at all.
    console.error('Could not load the remote overrides; starting without them', error);
    return undefined;
  }
  const { OVERRIDE_PARAM, resolveRemoteOverrides, withoutOverrideParam } = module;
  const overrides = resolveRemoteOverrides(config, where);
  if (new URLSearchParams(window.location.search).has(OVERRIDE_PARAM)) {
    // Stored now (or refused): a reload or a copied link must not ask again.
    window.history.replaceState(
      window.history.state,
      '',
      withoutOverrideParam(window.location.href),
    );
  }
  return overrides;
}

// The member's colour scheme choice for every app on the page, and another tab's change of it.
startColorScheme();

const root = createRoot(document.getElementById('root') as HTMLElement);

fetchRuntimeConfig().then(
  async (config) => {
    configureApi({ baseUrl: config.apiUrl });
    // Before any remote is registered: each one's kit is checked as its manifest arrives.
    registerPlugins([kitCompatibilityPlugin()]);
    const overrides = await remoteOverrides(config);
    const composed = { ...config, remotes: overrides?.remotes ?? config.remotes };
    registerMemberRemotes(composed);
    // In parallel with the session check the app starts on render: the landing route's remote.
    preloadLandingRemote(window.location.pathname, readStoredAuth() !== null);
    root.render(<App config={composed} overrides={overrides} />);
  },
  (error: unknown) => {
    console.error('Could not read /env.json', error);
    root.render(
      <p role="alert" style={{ fontFamily: 'system-ui', padding: 24 }}>
        Campus could not start: its configuration is missing. Please try again later.
      </p>,
    );
  },
);
