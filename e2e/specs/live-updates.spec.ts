import { DEMO_PASSWORD, MEMBER_EMAIL, expect, test } from '../support/fixtures';

const BEN = 'ben.larsen@campus.edu';
const CHIARA = 'chiara.rossi@campus.edu';

test('a like in one browser shows in the other at once: live badge, tab title, grouped row', async ({
  page,
  browser,
  env,
  signInAs,
  apiAs,
}) => {
  test.setTimeout(60_000); // two browsers sign in
  // Ada starts with nothing unread and a fresh post of her own
  const ada = await apiAs(MEMBER_EMAIL);
  await ada.call('PUT', '/api/notifications/read-all');
  const content = `Live like check ${Date.now()}`;
  const post = await ada.call<{ id: number }>('POST', '/api/posts', {
    content,
    syncToProfile: true,
    isJdTagged: false,
  });

  const streamOpened = page.waitForRequest((request) => request.url().includes('/api/stream'));
  await signInAs(MEMBER_EMAIL, '/');
  const stream = await streamOpened;
  // a plain EventSource on the session cookie: no token in the URL or in a header
  expect(stream.url()).not.toMatch(/token|Bearer/i);
  const streamHeaders = await stream.allHeaders();
  expect(streamHeaders.authorization).toBeUndefined();
  expect(streamHeaders.cookie).toMatch(/campus_access=/);
  expect(streamHeaders.accept).toBe('text/event-stream');

  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  const badge = sidebar.getByTestId('unread-badge');
  await expect(page).toHaveTitle('Home · Campus');
  await expect(badge).toBeHidden();
  // proves nothing below reloads the page
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  // Ben, in another browser, opens Ada's post from a deep link, signs in and likes it
  const bensBrowser = await browser.newContext({ baseURL: env.shellUrl });
  try {
    const ben = await bensBrowser.newPage();
    await ben.goto(`/post/${post.id}`);
    await ben.getByLabel('Email').fill(BEN);
    await ben.getByLabel('Password').fill(DEMO_PASSWORD);
    await ben.getByRole('button', { name: 'Sign In' }).click();
    await expect(ben).toHaveURL(new RegExp(`/post/${post.id}$`));
    await expect(ben.getByText(content)).toBeVisible();
    const liked = ben.waitForResponse(
      (response) => response.url().endsWith(`/api/posts/${post.id}/like`) && response.ok(),
    );
    await ben.getByRole('button', { name: /^Like \(/ }).click();
    await liked;
  } catch (error) {
    await bensBrowser.pages()[0]?.screenshot({ path: '/tmp/fe-live-ben.png' });
    throw error;
  } finally {
    await bensBrowser.close();
  }

  await expect(badge).toHaveText('1');
  await expect(page).toHaveTitle('(1) Home · Campus');

  await sidebar.getByRole('link', { name: /Notifications/ }).click();
  await expect(page).toHaveTitle('(1) Notifications · Campus');
  const row = page.getByRole('listitem').filter({ hasText: content });
  await expect(
    row.getByRole('link', { name: 'Ben Larsen liked your post (unread)' }),
  ).toBeVisible();

  // a second like of the same post joins the same row, live
  const chiara = await apiAs(CHIARA);
  await chiara.call('POST', `/api/posts/${post.id}/like`);
  await expect(
    row.getByRole('link', { name: 'Chiara Rossi and Ben Larsen liked your post (unread)' }),
  ).toBeVisible();
  await expect(row).toHaveCount(1);
  await expect(badge).toHaveText('2');
  await expect(page).toHaveTitle('(2) Notifications · Campus');

  expect(
    await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
  ).toBe(true);
});

test('a stream refused with a 503 comes back by itself, and the badge is live again', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const ada = await apiAs(MEMBER_EMAIL);
  await ada.call('PUT', '/api/notifications/read-all');
  // the first connection is refused with a 503: the client retries with back-off
  let refused = 0;
  await page.route('**/api/stream*', async (route) => {
    if (refused === 0) {
      refused += 1;
      await route.fulfill({ status: 503, body: '{"message":"down"}' });
    } else await route.continue();
  });
  const reconnected = page.waitForRequest(
    (request) => request.url().includes('/api/stream') && refused === 1,
  );
  await signInAs(MEMBER_EMAIL, '/');
  await reconnected;

  const post = await ada.call<{ id: number }>('POST', '/api/posts', {
    content: `Back online ${Date.now()}`,
    syncToProfile: true,
    isJdTagged: false,
  });
  const ben = await apiAs(BEN);
  await ben.call('POST', `/api/posts/${post.id}/like`);
  await expect(
    page.getByRole('complementary', { name: 'Sidebar' }).getByTestId('unread-badge'),
  ).toHaveText('1');
});
