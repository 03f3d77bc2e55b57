import {
  DEMO_PASSWORD,
  MEMBER_EMAIL,
  expect,
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

test('a new member registers, follows the verification link from the outbox, then signs in', async ({
  page,
  env,
}) => {
  const email = `e2e.${Date.now()}@campus.edu`;
  await page.goto('/register');
  await page.getByLabel('Full name').fill('Erin Tester');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a-long-password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page)).toContainText('Account created successfully!');
  await expect(page).toHaveURL(/\/$/);

  const link = await verificationLinkFor(env, email);
  expect(link.startsWith(env.shellUrl)).toBe(true);
  await page.goto(link);
  await expect(page.getByText('Email verified successfully! You can now log in.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 6_000 });

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a-long-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(toast(page)).toContainText('Welcome back!');
  await expect(
    page.getByRole('complementary', { name: 'Sidebar' }).getByText('Erin Tester'),
  ).toBeVisible();
});
