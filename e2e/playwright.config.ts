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
  // The whole run is cut off inside .ci/run's 75 min for npm test (unit tests and builds take
  // about 20 of them), with a report. 175 tests, axe in two colour schemes: about 20 min on a quiet
  // 2-core machine, 30 on a busy one (CI2 of 2026-11-30 was cut off at 30).
  globalTimeout: 45 * 60_000,
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
