import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './support/browser';

export default defineConfig({
  testDir: './specs',
  globalSetup: './support/global-setup.ts',
  // Two workers, each against a composition of its own (support/fixtures.ts): one Chromium
  // leaves much of a 2-core machine idle while it waits on the API and on its own rendering.
  // A file's tests run in order, in one worker.
  fullyParallel: false,
  workers: 2,
  // No retries: a spec that fails once is a bug to find, not noise to absorb.
  retries: 0,
  timeout: 30_000,
  // The whole run is cut off well inside CI's 90 min, with a report.
  globalTimeout: 30 * 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions(),
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
