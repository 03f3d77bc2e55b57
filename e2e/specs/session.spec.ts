import {
  DEMO_PASSWORD,
  MEMBER_EMAIL,
  expect,
  skipFirstRun,
  test,
  toast,
  verificationLinkFor,
} from '../support/fixtures';

test('a member signs in, sees the shell with their name, and signs out from their profile', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByLabel('Email').fill(MEMBER_EMAIL);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();

  await expect(toast(page)).toContainText('Welcome back!');
  await expect(toast(page)).toContainText('You have successfully logged in.');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await expect(sidebar.getByText('Ada Okafor')).toBeVisible();
  await expect(sidebar.getByText(MEMBER_EMAIL)).toBeVisible();

  await sidebar.getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { name: 'Ada Okafor', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();
});

test('a 401 at start-up signs out and says the session ended', async ({ page }) => {
  await page.addInitScript(() => {
    if (window.sessionStorage.getItem('e2e.seeded')) return;
    window.sessionStorage.setItem('e2e.seeded', '1');
    window.localStorage.setItem(
      'campus.auth',
      JSON.stringify({
        user: { id: 1, name: 'Ada', email: 'a@campus.edu', avatarUrl: null },
        token: 'expired-or-forged',
      }),
    );
  });
  await page.goto('/');
  // The toast first: it goes after 5 s, while the sign-in page stays (a busy machine can spend
  // longer than that between two expectations).
  await expect(toast(page)).toContainText('Session ended');
  await expect(toast(page)).toContainText('Your session has ended. Please sign in again.');
  await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('campus.auth'))).toBeNull();
});

for (const [what, fail] of [
  ['a 503', { status: 503, body: '{"message":"Service Unavailable"}' }],
  ['an unreachable API', null],
] as const) {
  test(`${what} at start-up keeps the login and offers a retry`, async ({ page, signInAs }) => {
    await page.route('**/api/auth/me', (route) =>
      fail
        ? route.fulfill({ ...fail, contentType: 'application/json' })
        : route.abort('connectionrefused'),
    );
    await signInAs(MEMBER_EMAIL, '/notifications');
    await expect(
      page.getByRole('heading', { name: "Campus can't be reached right now" }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toHaveCount(0);
    expect(await page.evaluate(() => window.localStorage.getItem('campus.auth'))).not.toBeNull();

    // the API is back: Try again gets the member in where they were going
    await page.unroute('**/api/auth/me');
    // The page retries by itself too, and may get in before the button is pressed (a click
    // would then wait for a button that is gone): press it if it is still there.
    await page.evaluate(() =>
      [...document.querySelectorAll('button')].find((b) => b.textContent === 'Try again')?.click(),
    );
    await expect(page.getByRole('heading', { name: /^Notifications/ })).toBeVisible();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(
      page.getByRole('complementary', { name: 'Sidebar' }).getByText('Ada Okafor'),
    ).toBeVisible();
  });
}

test('a stored session that the API rejects is logged out at start-up', async ({ page }) => {
  await page.addInitScript(() => {
    window.localStorage.setItem(
      'campus.auth',
      JSON.stringify({
        user: { id: 1, name: 'Ada', email: 'a@campus.edu', avatarUrl: null },
        token: 'forged',
      }),
    );
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('campus.auth'))).toBeNull();
});

test('a new member registers, follows the verification link from the outbox, and is signed in (issue 41)', async ({
  page,
  env,
}) => {
  test.slow(); // registers, verifies and signs in through the pages on a busy machine
  const email = `e2e.${Date.now()}@campus.edu`;
  await page.goto('/register');
  await page.getByLabel('Full name').fill('Erin Tester');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a-long-password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page)).toContainText('Account created successfully!');
  await expect(page).toHaveURL(/\/$/);
  // The sign-in page keeps saying where the link went until that address signs in.
  await expect(page.getByText(`We sent a link to ${email}`)).toBeVisible();

  const link = await verificationLinkFor(env, email);
  expect(link.startsWith(env.shellUrl)).toBe(true);
  await page.goto(link);
  await expect(page.getByText('Email verified successfully! You can now log in.')).toBeVisible();
  // The browser that registered typed the password and now proved the mailbox: it is signed in,
  // with no password to type again, for the first time (the first run opens: skipped here).
  await skipFirstRun(page);
  await expect(
    page.getByRole('complementary', { name: 'Sidebar' }).getByText('Erin Tester'),
  ).toBeVisible({ timeout: 6_000 });
  await expect(page).toHaveURL(/\/$/);
  await page.reload();
  await expect(
    page.getByRole('complementary', { name: 'Sidebar' }).getByText('Erin Tester'),
  ).toBeVisible();
});
