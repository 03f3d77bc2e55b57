import { expect, test, toast } from '../support/fixtures';

test.describe('signed out', () => {
  test('every path other than /register and /verify shows the login page', async ({ page }) => {
    for (const path of ['/', '/notifications', '/some/unknown/path', '/login']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    }
  });

  test('the login form rejects invalid input and wrong credentials with the spec toasts', async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('x');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(toast(page)).toContainText('Invalid input');
    await expect(toast(page)).toContainText('Please check your email and password.');

    await page.getByLabel('Email').fill('ada.okafor@campus.edu');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(toast(page)).toContainText('Login failed');
  });

  test('registration refuses a non-institutional address with the server message', async ({
    page,
  }) => {
    await page.goto('/register');
    await page.getByLabel('Full name').fill('Outside Person');
    await page.getByLabel('Email').fill(`outsider.${Date.now()}@gmail.com`);
    await page.getByLabel('Password').fill('a-long-password');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(toast(page)).toContainText('Registration failed');
    await expect(toast(page)).toContainText(/institution/i);
    await expect(page).toHaveURL(/\/register$/);
  });

  test('registration links back to sign in and offers the access application', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();

    await page.getByRole('button', { name: 'Apply for access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Apply for Account Access' });
    const submit = dialog.getByRole('button', { name: 'Submit Application' });
    await expect(submit).toBeDisabled();
    await dialog.getByLabel('Full name').fill('Old Alum');
    await dialog.getByLabel('Contact information').fill('old.alum@example.com');
    await expect(submit).toBeDisabled();
    await dialog.getByLabel('Additional information').fill('   ');
    await expect(submit).toBeDisabled();
    await dialog.getByLabel('Additional information').fill('Class of 1999, Physics');
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(toast(page)).toContainText('Application submitted!');
    await expect(dialog).toBeHidden();

    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();
  });

  test('a verification link without a token, or with a bad one, explains and offers a way on', async ({
    page,
  }) => {
    await page.goto('/verify');
    await expect(page.getByText('Invalid verification link')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Register Again' })).toHaveAttribute(
      'href',
      '/register',
    );
    await expect(page.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');

    await page.goto('/verify/not-a-real-token');
    await expect(page.getByRole('alert')).toBeVisible();
    await page.getByRole('link', { name: 'Go to Login' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();
  });
});
