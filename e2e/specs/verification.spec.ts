import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/accessibility';
import { expect, skipFirstRun, test, toast, verificationLinkFor } from '../support/fixtures';

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

// Issue 35: a verification link proves the mailbox, not the password typed at registration
// (docs/security.md). The browser that registered verifies in one click (session.spec.ts).
test('a verification link opened in another browser asks its holder for the password; the one typed at registration no longer signs in', async ({
  page,
  browser,
  env,
}, testInfo) => {
  test.slow(); // two browsers, a registration, an accessibility scan and two sign-ins
  const email = `e2e.verify.${Date.now()}@campus.edu`;

  // Someone registers the address, in a browser of theirs.
  const registrant = await browser.newContext({ baseURL: env.shellUrl });
  const theirs = await registrant.newPage();
  await theirs.goto('/register');
  await theirs.getByLabel('Full name').fill('Someone Else');
  await theirs.getByLabel('Email').fill(email);
  await theirs.getByLabel('Password').fill('registrant-password');
  await theirs.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(theirs)).toContainText('Account created successfully!');
  await registrant.close();

  // The owner of the mailbox opens the mailed link in their own browser and chooses a password.
  await page.goto(await verificationLinkFor(env, email));
  await expect(page.getByText('Choose a password to finish verifying your email.')).toBeVisible();
  const password = page.getByLabel('Password');
  await expect(password).toBeFocused();
  await password.fill('short');
  await page.getByRole('button', { name: 'Verify and set password' }).click();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await expect(password).toBeFocused();
  await expectNoSeriousA11yViolations(page, testInfo, 'verification: choose a password');
  await password.fill('the-owners-password');
  await page.getByRole('button', { name: 'Verify and set password' }).click();
  await expect(page.getByText('Email verified successfully! You can now log in.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 6_000 });
  // The URL changes before the login card replaces "Email verification" (whose section
  // getByLabel('Email') would otherwise find): wait for the form itself.
  await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();

  // The password typed at registration is refused; the owner's signs in.
  await signIn(page, email, 'registrant-password');
  await expect(toast(page)).toContainText('Login failed');
  await signIn(page, email, 'the-owners-password');
  await expect(toast(page)).toContainText('Welcome back!');
  // The member's first sign-in: the first run opens (first-run.spec.ts), and is skipped.
  await skipFirstRun(page);
});
