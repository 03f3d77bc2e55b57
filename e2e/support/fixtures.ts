import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { E2E_ENV_KEY, e2eEnvironment, type E2eEnvironment } from './environment';
import { startComposition } from './global-setup';

/** Everyone in the demo data signs in with this password; the admin is user 107. */
export const DEMO_PASSWORD = 'campus-demo';
export const MEMBER_EMAIL = 'ada.okafor@campus.edu';
export const ADMIN_EMAIL = 'admin@campus.edu';

interface WorkerFixtures {
  /** The apps and the API this worker's tests run against. */
  composition: E2eEnvironment;
}

interface Fixtures {
  env: E2eEnvironment;
  /**
   * Signs in through the API in the page's browser context (its HttpOnly session cookies land in
   * the context's jar, as a sign-in in the page would leave them) and stores the user the way the
   * app does, then opens `path`.
   */
  signInAs: (email: string, path?: string) => Promise<{ id: number; name: string; email: string }>;
  /** Every URL the page requested during the test. */
  requestedUrls: string[];
  /** Calls the API directly as a demo user (to set up what another member did). */
  apiAs: (email: string) => Promise<ApiClient>;
}

export interface ApiClient {
  user: { id: number; name: string; email: string };
  call: <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, data?: unknown) => Promise<T>;
}

/** Console text of a Content-Security-Policy violation, as Chromium words it or as reported below. */
const CSP_VIOLATION = /Content Security Policy|Content-Security-Policy|^\[csp-violation\]/;

/**
 * Every page of a test's browser context reports Content-Security-Policy violations (Chromium's
 * own console message, and the `securitypolicyviolation` event, which also catches what the
 * console leaves out); the test fails at teardown if there was any. The suite thereby proves the
 * policy the servers send (scripts/serve/security-headers.ts) lets the app work: no inline script, no
 * eval, no origin the policy forgot.
 */
const cspCheckedContext = base.extend<{ cspViolations: string[] }>({
  // eslint-disable-next-line no-empty-pattern
  cspViolations: async ({}, use) => {
    await use([]);
  },
  context: async ({ context, cspViolations: violations }, use) => {
    const watch = (page: Page) =>
      page.on('console', (message) => {
        if (CSP_VIOLATION.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
      });
    context.pages().forEach(watch);
    context.on('page', watch);
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(
          `[csp-violation] ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`,
        );
      });
    });
    await use(context);
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  },
});

/**
 * `cspViolations`: what the pages reported so far. A spec that provokes violations on purpose
 * (security-headers.spec.ts) checks them and empties the list; any left fail the test.
 */
export const test = cspCheckedContext.extend<Fixtures, WorkerFixtures>({
  /**
   * Each worker runs against a composition of its own (the apps' builds on free ports and the
   * API's build with a fresh embedded database and the demo data), started before its first
   * test: two workers share no data, so a spec's counts, feeds and notifications are its own
   * worker's. Against services someone else started (playwright.compose.config.ts, one worker)
   * the global setup has already named them.
   */
  composition: [
    // Playwright reads a fixture's dependencies from its destructuring: `{}` means none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      if (process.env[E2E_ENV_KEY]) {
        await use(e2eEnvironment());
        return;
      }
      const stop = await startComposition();
      try {
        await use(e2eEnvironment());
      } finally {
        await stop();
      }
    },
    // Starting the API and seeding its database takes a while on a busy machine.
    { scope: 'worker', auto: true, timeout: 240_000 },
  ],
  env: async ({ composition }, use) => {
    await use(composition);
  },
  baseURL: async ({ composition }, use) => {
    await use(composition.shellUrl);
  },
  requestedUrls: async ({ page }, use) => {
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await use(urls);
  },
  apiAs: async ({ env, request }, use) => {
    await use(async (email) => {
      const login = await request.post(`${env.apiUrl}/api/auth/login`, {
        data: { email, password: DEMO_PASSWORD },
      });
      expect(login.ok(), await login.text()).toBe(true);
      const { user, token } = (await login.json()) as { user: ApiClient['user']; token: string };
      return {
        user,
        call: async (method, path, data) => {
          const response = await request.fetch(`${env.apiUrl}${path}`, {
            method,
            data,
            headers: { Authorization: `Bearer ${token}` },
          });
          expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
          const text = await response.text();
          return (text ? JSON.parse(text) : null) as never;
        },
      };
    });
  },
  signInAs: async ({ page, env }, use) => {
    await use(async (email, path = '/') => {
      const response = await signInContext(page, env, email);
      const { user } = (await response.json()) as {
        user: { id: number; name: string; email: string; avatarUrl: string | null };
      };
      const auth = JSON.stringify({
        user: { id: user.id, name: user.name, email: user.email, avatarUrl: user.avatarUrl },
      });
      await page.addInitScript((stored) => {
        if (!window.sessionStorage.getItem('e2e.signed-in')) {
          window.localStorage.setItem('campus.auth', stored);
          window.sessionStorage.setItem('e2e.signed-in', '1');
        }
      }, auth);
      await page.goto(path);
      return user;
    });
  },
});

export { expect };

/**
 * Signs `email` in through the API in `page`'s browser context, as the shell's sign-in form
 * does (from the shell's origin, with the kit's X-Requested-With): the session's HttpOnly
 * cookies go into the context's jar. Answers the sign-in response.
 */
export async function signInContext(
  page: Page,
  env: E2eEnvironment,
  email: string,
  password = DEMO_PASSWORD,
) {
  const response = await page.request.post(`${env.apiUrl}/api/auth/login`, {
    data: { email, password },
    headers: { Origin: env.shellUrl, 'X-Requested-With': 'campus' },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return response;
}

/** The verification link of the last e-mail sent to `email`, read from the API's outbox. */
export function verificationLinkFor(env: E2eEnvironment, email: string): Promise<string> {
  return mailLinkFor(env, email, 'verification');
}

/**
 * The link of one kind (`verification`, `reset`) in the last e-mail to `email` that has one,
 * read from the API's outbox.
 */
export async function mailLinkFor(
  env: E2eEnvironment,
  email: string,
  kind: 'verification' | 'reset',
): Promise<string> {
  const outbox = path.join(env.dataDir, 'outbox');
  for (let attempt = 0; attempt < 40; attempt++) {
    const files = (await readdir(outbox).catch(() => [] as string[]))
      .filter((file) => file.endsWith('.json'))
      .sort();
    for (const file of files.reverse()) {
      const mail = JSON.parse(await readFile(path.join(outbox, file), 'utf8')) as {
        to: string;
        links?: Record<string, string>;
      };
      const link = mail.links?.[kind];
      if (mail.to.includes(email) && link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`No ${kind} e-mail for ${email} in ${outbox}`);
}

/** The currently shown toast (one at a time). */
export function toast(page: Page) {
  return page.locator('[aria-live="polite"] [data-variant]');
}

/**
 * The first run (issue 41) a member's first sign-in opens over the feed: a spec that signs a new
 * member in through the page (the form, a verification link, an invitation) skips it here.
 */
export async function skipFirstRun(page: Page) {
  const run = page.getByRole('dialog', { name: 'Add a photo and a bio' });
  // Its code (mf_profile's) arrives with the feed's, after the sign-in, on a busy machine.
  await expect(run).toBeVisible({ timeout: 20_000 });
  await run.getByRole('button', { name: 'Skip' }).click();
  await expect(run).toBeHidden();
}
