import './app/zod-without-eval';
import { registerPlugins } from '@module-federation/enhanced/runtime';
import { createRoot } from 'react-dom/client';
import { configureApi, readStoredAuth } from '@campus/kit/api';
import { App } from './app/app';
import { kitCompatibilityPlugin } from './composition/kit-compatibility';
import { registerMemberRemotes } from './composition/remote-registry';
import { preloadLandingRemote } from './composition/route-preload';
import { fetchRuntimeConfig } from './composition/runtime-config-loader';
import {
  OVERRIDE_PARAM,
  resolveRemoteOverrides,
  withoutOverrideParam,
} from './composition/remote-overrides';

const root = createRoot(document.getElementById('root') as HTMLElement);

fetchRuntimeConfig().then(
  (config) => {
    configureApi({ baseUrl: config.apiUrl });
    // Before any remote is registered: each one's kit is checked as its manifest arrives.
    registerPlugins([kitCompatibilityPlugin()]);
    const overrides = resolveRemoteOverrides(config, {
      search: window.location.search,
      storage: window.localStorage,
    });
    if (new URLSearchParams(window.location.search).has(OVERRIDE_PARAM)) {
      // Stored now (or refused): a reload or a copied link must not ask again.
      window.history.replaceState(
        window.history.state,
        '',
        withoutOverrideParam(window.location.href),
      );
    }
    const composed = { ...config, remotes: overrides.remotes };
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
