import type { APIRequestContext, Page } from '@playwright/test';
import type { E2eEnvironment } from '../support/environment';
import { expectNoSeriousA11yViolations } from '../support/accessibility';
import { expect, test, toast, verificationLinkFor } from '../support/fixtures';

// Issue 41, part F: after a member's first sign-in (the spec's "Welcome back!" stays) a skippable
// first run opens over the feed: a photo and a bio, then people to follow. Only that sign-in:
// the API records it once (users.firstSignedInAt).

const PASSWORD = 'first-run-password';

/** The run's code (mf_profile's) arrives with the feed's, after the sign-in, on a busy machine. */
const FIRST_SHOWING = { timeout: 20_000 };

/**
 * A member registered through the page, whose mailbox owner verifies the link elsewhere
 * (choosing the password: no sign-in happens), so the page's first sign-in is the form's.
 */
async function registerMember(
  page: Page,
  request: APIRequestContext,
  env: E2eEnvironment,
  label: string,
) {
  const stamp = Date.now();
  const member = {
    name: `Rowan ${label} ${stamp % 100_000}`,
    email: `e2e.${label}.${stamp}@campus.edu`,
  };
  await page.goto('/register');
  await page.getByLabel('Full name').fill(member.name);
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page)).toContainText('Account created successfully!');
  const token = (await verificationLinkFor(env, member.email)).split('/').at(-1);
  const verified = await request.post(`${env.apiUrl}/api/auth/verify/${token}`, {
    data: { password: PASSWORD },
    headers: { Origin: env.shellUrl, 'X-Requested-With': 'campus' },
  });
  expect(verified.status(), await verified.text()).toBe(200);
  return member;
}

/** A picture drawn by the browser itself, as PNG bytes (as profile.spec.ts draws one). */
async function drawPicture(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 200;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#0f766e';
    context.fillRect(0, 0, 320, 200);
    context.fillStyle = '#f59e0b';
    context.fillRect(110, 50, 100, 100);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

async function signInWithForm(page: Page, email: string) {
  await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(toast(page)).toContainText('Welcome back!');
}

test('the first sign-in keeps the welcome toast and opens the first run: a photo, a bio, a follow, Done; the next sign-in goes straight to the feed', async ({
  page,
  request,
  env,
}, testInfo) => {
  test.slow(); // registers, signs in twice and walks the run through the pages on a busy machine
  const member = await registerMember(page, request, env, 'firstrun');
  await signInWithForm(page, member.email);
  await expect(toast(page)).toContainText('You have successfully logged in.');
  await expect(page).toHaveURL(/\/$/);

  const photo = page.getByRole('dialog', { name: 'Add a photo and a bio' });
  await expect(photo).toBeVisible(FIRST_SHOWING);
  await expect(photo.getByText('Step 1 of 2')).toBeVisible();
  // Focus is in the dialog, and the page under it is out of reach.
  await expect(photo.locator(':focus')).toHaveCount(1);
  await expectNoSeriousA11yViolations(page, testInfo, 'first run: photo and bio');

  // A reload mid-run keeps it.
  await page.reload();
  await expect(photo).toBeVisible();

  // A photo, cropped in the dialog as in the profile editor.
  await photo.getByLabel('Choose a photo').setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: await drawPicture(page),
  });
  await expect(photo.getByRole('img', { name: 'Picture to crop' })).toBeVisible();
  await photo.getByRole('button', { name: 'Apply Crop' }).click();
  await expect(
    photo.getByText('cropped-avatar.jpg will be uploaded when you continue.'),
  ).toBeVisible();
  await expect(photo.getByLabel('Choose another photo')).toBeFocused();

  const bio = `Studying physics, here since ${member.name.split(' ').at(-1)}`;
  await photo.getByLabel('Bio').fill(bio);
  await photo.getByRole('button', { name: 'Next' }).click();

  const people = page.getByRole('dialog', { name: 'People to follow' });
  await expect(people.getByText('Step 2 of 2')).toBeVisible();
  const someone = people.getByRole('listitem').first();
  const followed = (await someone.getAttribute('aria-label'))!;
  await someone.getByRole('button', { name: `Follow ${followed}` }).click();
  await expect(someone.getByRole('button', { name: `Following ${followed}` })).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo, 'first run: people to follow');
  await people.getByRole('button', { name: 'Done' }).click();
  await expect(people).toBeHidden();

  // The profile has the bio and the follow.
  await page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('link', { name: 'Profile' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: member.name })).toBeVisible();
  await expect(page.getByText(bio)).toBeVisible();
  const stored = await page.evaluate(() => window.localStorage.getItem('campus.auth'));
  const avatarUrl = (JSON.parse(stored!) as { user: { avatarUrl: string } }).user.avatarUrl;
  expect(avatarUrl).toMatch(/\/uploads\/[a-f0-9]{32}\.webp$/);
  await expect(
    page.getByRole('region', { name: member.name }).getByRole('img').first(),
  ).toHaveAttribute('src', avatarUrl);
  await page.getByRole('link', { name: /^1\s*Following$/ }).click();
  await expect(page.getByText(followed, { exact: true }).first()).toBeVisible();

  // Done is for good: back on the feed, after a reload and after signing in again, no run.
  await page.goto('/');
  await expect(page.getByRole('tab', { name: 'For You' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.goto('/login');
  await signInWithForm(page, member.email);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('tab', { name: 'For You' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('Escape skips the first run, saving nothing, and focus goes back to the page', async ({
  page,
  request,
  env,
}) => {
  test.slow(); // registers and signs in through the pages on a busy machine
  const member = await registerMember(page, request, env, 'skipper');
  await signInWithForm(page, member.email);
  const photo = page.getByRole('dialog', { name: 'Add a photo and a bio' });
  await expect(photo).toBeVisible(FIRST_SHOWING);
  await photo.getByLabel('Bio').fill('Not saved');
  await page.keyboard.press('Escape');
  await expect(photo).toBeHidden();
  await expect(page.locator('#main-content')).toBeFocused();
  await page.reload();
  await expect(page.getByRole('tab', { name: 'For You' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("the first run's controls are fingertip targets, at least 44 px each way", async ({
    page,
    request,
    env,
  }) => {
    test.slow(); // registers and signs in through the pages on a busy machine
    const member = await registerMember(page, request, env, 'phone');
    await signInWithForm(page, member.email);
    const photo = page.getByRole('dialog', { name: 'Add a photo and a bio' });
    await expect(photo).toBeVisible(FIRST_SHOWING);
    expect(await smallControls(photo)).toEqual([]);
    await photo.getByRole('button', { name: 'Next' }).click();
    const people = page.getByRole('dialog', { name: 'People to follow' });
    await expect(people.getByRole('listitem').first()).toBeVisible();
    expect(await smallControls(people)).toEqual([]);
  });
});

/**
 * The dialog's controls (buttons, fields, and the file input's label, which is what a finger
 * presses) whose box is under 44 px in either direction, as 'name: width×height'.
 */
function smallControls(dialog: ReturnType<Page['getByRole']>) {
  return dialog
    .locator('button, textarea, input:not([type="file"]), input[type="file"] + label')
    .evaluateAll((elements) =>
      elements
        .map((element) => {
          const { width, height } = element.getBoundingClientRect();
          const name =
            element.getAttribute('aria-label') ?? element.textContent?.trim() ?? element.tagName;
          return { name, width: Math.round(width), height: Math.round(height) };
        })
        .filter(({ width, height }) => width < 44 || height < 44)
        .map(({ name, width, height }) => `${name}: ${width}×${height}`),
    );
}
