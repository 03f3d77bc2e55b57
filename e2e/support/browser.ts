import { existsSync } from 'node:fs';
import { chromium, type LaunchOptions } from '@playwright/test';

/** Playwright's own Chromium when it is installed, otherwise Debian's (never downloaded here). */
function browserExecutable(): string | undefined {
  try {
    if (existsSync(chromium.executablePath())) return undefined;
  } catch {
    // no Playwright browser registered
  }
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/** How the e2e suite and `bench:web` launch Chromium: headless-safe flags, nothing in the background. */
export function chromiumLaunchOptions(): LaunchOptions {
  return {
    executablePath: browserExecutable(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  };
}
