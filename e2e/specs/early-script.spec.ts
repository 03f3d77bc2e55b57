// Issue 22, no waterfall: the landing route's early requests are started by the shell's first
// script (shell/src/early.ts, built on its own by shell/early-script-plugin.cjs), which index.html
// runs before the shell's main script: they do not wait for the main script (the federation
// runtime, React's loader, ...) to arrive. Each test holds the main script back until it has seen
// what the first script must have done without it.
import type { Page, Request } from '@playwright/test';
import { MEMBER_EMAIL, expect, test } from '../support/fixtures';

/** The shell's main script (`/main.<hash>.js`): held until `release` is called. */
async function holdMainScript(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: string[] = [];
  await page.route(/\/main\.[0-9a-f]{8}\.js$/, async (route) => {
    held.push(route.request().url());
    await released;
    await route.continue();
  });
  return { release, held };
}

const isApi = (request: Request, pathname: string) => new URL(request.url()).pathname === pathname;

test('a signed-in landing asks for the session and its first data before the main script has arrived', async ({
  page,
  signInAs,
}) => {
  const main = await holdMainScript(page);
  const apiRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) apiRequests.push(request.url());
  });
  const sessionCheck = page.waitForRequest((request) => isApi(request, '/api/auth/me'));
  const firstPage = page.waitForRequest((request) => isApi(request, '/api/posts'));
  const landing = signInAs(MEMBER_EMAIL, '/');
  // Both are sent while the main script is still held: only the first script can have sent them.
  const [me, posts] = await Promise.all([sessionCheck, firstPage]);
  expect(main.held, 'the main script was asked for and is held').toHaveLength(1);
  // With the session cookie (the page holds no token).
  expect(me.headers()['authorization']).toBeUndefined();
  expect((await me.allHeaders()).cookie).toMatch(/campus_access=/);
  expect(new URL(posts.url()).searchParams.get('offset')).toBe('0');
  main.release();
  await landing;
  await expect(page.getByRole('main').getByRole('article').first()).toBeVisible();
  // The main script used those answers: one session check, one first page.
  expect(apiRequests.filter((url) => new URL(url).pathname === '/api/auth/me')).toHaveLength(1);
  expect(
    apiRequests.filter(
      (url) =>
        new URL(url).pathname === '/api/posts' && new URL(url).searchParams.get('offset') === '0',
    ),
  ).toHaveLength(1);
});

test('a signed-out visitor: the first script reads env.json and sends the API nothing', async ({
  page,
}) => {
  const main = await holdMainScript(page);
  const apiRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) apiRequests.push(request.url());
  });
  const landing = page.goto('/');
  await expect.poll(() => main.held.length).toBe(1);
  // The first script has run while the main script is held: it has started reading env.json
  // (and left that request where the main script's bootstrap takes it).
  await expect
    .poll(() => page.evaluate(() => Symbol.for('campus.early-config') in globalThis))
    .toBe(true);
  await page.evaluate(() =>
    (globalThis as unknown as Record<symbol, Promise<unknown>>)[
      Symbol.for('campus.early-config')
    ]!.then(() => undefined),
  );
  expect(apiRequests, 'nothing was sent to the API before the main script ran').toEqual([]);
  main.release();
  await landing;
  await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();
});
