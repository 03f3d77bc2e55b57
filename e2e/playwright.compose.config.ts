// The same suite against a Campus that is already running (the qa profile of docker-compose.yml,
// or any deployment): `E2E_BASE_URL=http://localhost:3000 npx playwright test -c
// playwright.compose.config.ts`. See support/external-setup.ts for the variables.
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export default defineConfig({
  ...base,
  globalSetup: './support/external-setup.ts',
  // One deployment, shared: the specs run one at a time, as they expect a database of their own.
  workers: 1,
});
