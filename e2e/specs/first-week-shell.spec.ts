import type { Locator, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/accessibility';
import {
  DEMO_PASSWORD,
  MEMBER_EMAIL,
  expect,
  mailLinkFor,
  skipFirstRun,
  test,
  toast,
  verificationLinkFor,
} from '../support/fixtures';

// Issue 41, part A (the shell): a new member's first week, from sign-up to signing out of every
// device, and the shell's touch targets on a phone.

/** The element's box, asserted at least 44×44 CSS px (the touch-target rule). */
async function expectTouchSized(target: Locator, what: string) {
  const box = await target.boundingBox();
  expect(box, `${what} is on screen`).not.toBeNull();
  expect(
    { what, width: Math.round(box!.width), height: Math.round(box!.height) },
    `${what} is at least 44×44 CSS px`,
  ).toEqual({
    what,
    width: Math.max(44, Math.round(box!.width)),
    height: Math.max(44, Math.round(box!.height)),
  });
}

async function signInOnThePage(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test('a new member signs up, is signed in by the link, and signs out of every device after a confirmation', async ({
  page,
  env,
}, testInfo) => {
  // Signs up, verifies, skips the first run, signs out everywhere and resets a password: on a
  // busy machine more than the default 30 s.
  test.slow();
  const email = `e2e.first.week.${Date.now()}@campus.edu`;
  await page.goto('/register');
  // The rules are told before any submit.
  await expect(page.getByText('Accepted: @campus.edu, @mail.campus.edu, @cu.edu')).toBeVisible();
  await expect(page.getByText('At least 8 characters')).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo, 'register: rules up front');

  // An address outside the domains is said on its field as soon as it is left; the API's refusal
  // keeps the spec's toast, and the field says it too.
  await page.getByLabel('Full name').fill('Fay First');
  await page.getByLabel('Email').fill('fay@gmail.com');
  await page.getByLabel('Password').focus();
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/^Only institutional email addresses are accepted/)).toBeVisible();
  await page.getByLabel('Password').fill('fays-long-password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page)).toContainText('Registration failed');
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page)).toContainText('Account created successfully!');
  await expect(page.getByText(`We sent a link to ${email}`)).toBeVisible();
  // It stays until that address signs in: another visit still says it.
  await page.reload();
  await expect(page.getByText(`We sent a link to ${email}`)).toBeVisible();

  // The registering browser opens its link: signed in, no password to type again.
  await page.goto(await verificationLinkFor(env, email));
  await expect(page.getByText('Email verified successfully! You can now log in.')).toBeVisible();
  // Its first sign-in opens the first run (first-run.spec.ts): skipped here.
  await skipFirstRun(page);
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await expect(sidebar.getByText('Fay First')).toBeVisible({ timeout: 6_000 });

  // Sign out of all devices asks first, and the sign-in page then says why you are there.
  await page.goto('/settings');
  const signOutAll = page.getByRole('button', { name: 'Sign out of all devices' });
  await signOutAll.click();
  const dialog = page.getByRole('dialog', { name: 'Sign out of all devices?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoSeriousA11yViolations(page, testInfo, 'sign out everywhere: confirmation');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(signOutAll).toBeFocused();
  await signOutAll.click();
  await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();
  await expect(
    page.getByText('You signed out of all devices. Sign in again on each device you use.'),
  ).toBeVisible();
  // Signed in once with that address: the sign-up note is gone.
  await expect(page.getByText(`We sent a link to ${email}`)).toHaveCount(0);

  // A reset link works once; opened again, it says so instead of showing the form.
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const reset = new URL(await mailLinkFor(env, email, 'reset'));
  await page.goto(reset.pathname);
  await page.getByLabel('New password', { exact: true }).fill('fays-new-password');
  await page.getByLabel('Confirm new password').fill('fays-new-password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(toast(page)).toContainText('Password reset');
  await page.goto(reset.pathname);
  await expect(
    page.getByRole('heading', { name: 'This reset link no longer works' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
    'href',
    '/forgot-password',
  );
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
});

test('a member opening an admin page gets the not-found page, titled as such', async ({
  page,
  signInAs,
}) => {
  await signInAs(MEMBER_EMAIL, '/admin/members');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page).toHaveTitle(/^(\(\d+\) )?Page not found · Campus$/);
});

/**
 * Stops the page's (installed) clock now: `pauseAt` takes a time ahead of the page's clock, which
 * keeps running while the call travels; on a busy machine that can be later than the time asked
 * for, and then the next try asks for a later one.
 */
async function stopTheClock(page: Page) {
  for (let ahead = 50; ; ahead *= 2) {
    const at = (await page.evaluate(() => Date.now())) + ahead;
    try {
      await page.clock.pauseAt(at);
      return;
    } catch (error) {
      if (!String(error).includes('Cannot fast-forward to the past') || ahead > 60_000) throw error;
    }
  }
}

/**
 * Waits for `target` while the stopped clock moves on in steps of 100 ms only when nothing is
 * there yet: the page's timers (Suspense's among them) still run, and once `target` shows, at
 * most one step of page time has passed, whatever the machine's load.
 */
async function stepTheClockUntilVisible(page: Page, target: Locator) {
  await expect(async () => {
    if (!(await target.isVisible())) await page.clock.runFor(100);
    await expect(target).toBeVisible({ timeout: 100 });
  }).toPass({ intervals: [0] });
}

test.describe('on a phone (390×844, touch)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the header search icon and the toast close button are 44×44, and toasts sit above the bottom bar', async ({
    page,
  }) => {
    // The toast is measured while it stays: the page's clock is stopped before signing in and
    // moves on only in small steps until the toast and the bottom bar show, so its 5 seconds
    // never run out however busy the machine (a real clock can lose them between two checks).
    await page.clock.install();
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await stopTheClock(page);
    await signInOnThePage(page, MEMBER_EMAIL, DEMO_PASSWORD);
    const welcome = toast(page);
    await stepTheClockUntilVisible(page, welcome);
    await expect(welcome).toContainText('Welcome back!');
    await stepTheClockUntilVisible(
      page,
      page.getByRole('navigation', { name: 'Bottom navigation' }),
    );
    await stepTheClockUntilVisible(
      page,
      page.getByRole('banner').getByRole('link', { name: 'Search' }),
    );

    const search = page.getByRole('banner').getByRole('link', { name: 'Search' });
    await expectTouchSized(search, 'header search');
    await expectTouchSized(
      welcome.getByRole('button', { name: 'Dismiss notification' }),
      'toast close',
    );
    const bar = await page.getByRole('navigation', { name: 'Bottom navigation' }).boundingBox();
    const card = await welcome.boundingBox();
    expect(card!.y + card!.height).toBeLessThanOrEqual(bar!.y);

    await welcome.getByRole('button', { name: 'Dismiss notification' }).tap();
    await expect(toast(page)).toHaveCount(0);
  });
});
