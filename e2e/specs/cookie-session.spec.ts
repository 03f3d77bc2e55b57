import { DEMO_PASSWORD, MEMBER_EMAIL, expect, test, toast } from '../support/fixtures';

// Issue 35: the browser's session is an HttpOnly cookie, out of every script's reach.

const BEN = 'ben.larsen@campus.edu';
/** The API's messages (@campus/contracts `SESSION_SIGNED_OUT_MESSAGE`, `CSRF_REFUSED_MESSAGE`). */
const SIGNED_OUT = 'This session was signed out, from this device or from your Sessions list.';
const CSRF_REFUSED =
  /^Request refused: a signed-in browser request that changes something must come from the Campus app/;
const FIREFOX_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

test('signing in sets HttpOnly session cookies, and nothing of the session is readable from script', async ({
  page,
  env,
}) => {
  await page.goto('/');
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/auth/login'));
  await page.getByLabel('Email').fill(BEN);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const login = await answered;
  await expect(
    page.getByRole('complementary', { name: 'Sidebar' }).getByText('Ben Larsen'),
  ).toBeVisible();

  // The API set its cookies: HttpOnly, SameSite=Lax, under /api.
  const cookies = await page.context().cookies(env.apiUrl + '/api/auth/');
  const access = cookies.find((cookie) => cookie.name === 'campus_access');
  const refresh = cookies.find((cookie) => cookie.name === 'campus_refresh');
  expect(access).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api' });
  expect(refresh).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth' });
  const { token } = (await login.json()) as { token: string };
  const secrets = [access!.value, refresh!.value, token];

  // No script reads them: not on the shell's pages, not even on a page under the API's /api.
  expect(await page.evaluate(() => document.cookie)).toBe('');
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  for (const secret of secrets) expect(storage).not.toContain(secret);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('campus.auth')!));
  expect(Object.keys(stored).sort()).toEqual(['signedInAt', 'user']);
  expect(Object.keys(stored.user).sort()).toEqual(['avatarUrl', 'email', 'id', 'name']);
  const apiPage = await page.context().newPage();
  await apiPage.goto(`${env.apiUrl}/api/settings`);
  expect(await apiPage.evaluate(() => document.cookie)).toBe('');
  await apiPage.close();

  // The session survives a reload, on the cookie alone.
  await page.reload();
  await expect(
    page.getByRole('complementary', { name: 'Sidebar' }).getByText('Ben Larsen'),
  ).toBeVisible();
});

test('the Sessions list shows each signed-in device, and signing one out ends it there with the reason', async ({
  page,
  browser,
  env,
  signInAs,
}) => {
  test.setTimeout(60_000); // two browsers sign in
  // Ada's phone... another browser, signed in through the sign-in page.
  const other = await browser.newContext({ baseURL: env.shellUrl, userAgent: FIREFOX_ON_WINDOWS });
  try {
    const phone = await other.newPage();
    await phone.goto('/');
    await phone.getByLabel('Email').fill(MEMBER_EMAIL);
    await phone.getByLabel('Password').fill(DEMO_PASSWORD);
    await phone.getByRole('button', { name: 'Sign In' }).click();
    await expect(phone.getByRole('complementary', { name: 'Sidebar' })).toBeVisible();

    await signInAs(MEMBER_EMAIL, '/settings');
    const list = page.getByRole('list', { name: "Where you're signed in" });
    const thisDevice = list.getByRole('listitem').filter({ hasText: 'This device' });
    await expect(thisDevice).toHaveCount(1);
    const firefox = list.getByRole('listitem').filter({ hasText: 'Firefox on Windows' });
    await expect(firefox.first()).toBeVisible();
    const before = await list.getByRole('listitem').count();

    await firefox.first().getByRole('button', { name: 'Sign out Firefox on Windows' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out this device?' });
    await expect(dialog).toContainText('Firefox on Windows will need to sign in again.');
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await expect(toast(page)).toContainText('Device signed out');
    await expect(list.getByRole('listitem')).toHaveCount(before - 1);
    await expect(list).toBeFocused();

    // The phone is told why the next time it asks the API.
    await phone.reload();
    await expect(phone.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();
    await expect(phone.getByRole('status').filter({ hasText: SIGNED_OUT })).toBeVisible();
    // This device is still signed in.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  } finally {
    await other.close();
  }
});

test('a signed-in write forged from another origin of the same site is refused (CSRF), and the session stays', async ({
  page,
  env,
  signInAs,
}) => {
  await signInAs(MEMBER_EMAIL, '/');
  await expect(page.getByRole('complementary', { name: 'Sidebar' })).toBeVisible();

  // A page on another origin (another port of the same host: the same site, so the browser
  // sends the SameSite=Lax cookie) posts a form to "sign out of all devices".
  const foreign = `${env.previewOrigin}/csrf-forgery.html`;
  await page.route(foreign, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Win a prize</title>
        <form method="post" action="${env.apiUrl}/api/auth/logout-all">
          <button type="submit">Claim your prize</button>
        </form>`,
    }),
  );
  await page.goto(foreign);
  const refused = page.waitForResponse((response) =>
    response.url().endsWith('/api/auth/logout-all'),
  );
  await page.getByRole('button', { name: 'Claim your prize' }).click();
  const response = await refused;
  expect(response.status()).toBe(403);
  expect(((await response.json()) as { message: string }).message).toMatch(CSRF_REFUSED);
  // The browser did send the session cookie: only the API's check stopped it.
  expect((await response.request().allHeaders()).cookie).toMatch(/campus_access=/);

  await page.goto(env.shellUrl);
  await expect(
    page.getByRole('complementary', { name: 'Sidebar' }).getByText('Ada Okafor'),
  ).toBeVisible();
});
