// Issue 41: on a slow network a cold start showed a blank "Loading..." for seconds. index.html
// draws the app's frame (the sidebar from 768 px; the header and the bottom bar below) from its
// own HTML and CSS, so it is there before any script: these tests hold every script back and
// look. Once the app shows a page, the frame drawn by index.html is gone (the app's own is there).
import type { Page } from '@playwright/test';
import { MEMBER_EMAIL, expect, test } from '../support/fixtures';

/** Holds every script of the page back until `release`. */
async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\.js(\?.*)?$/, async (route) => {
    await released;
    await route.continue().catch(() => undefined);
  });
  return release;
}

const box = async (page: Page, selector: string) => {
  const found = await page.locator(selector).boundingBox();
  expect(found, `${selector} is drawn`).not.toBeNull();
  return found!;
};

test('on a wide screen, the sidebar and the main column are drawn before any script runs', async ({
  page,
  signInAs,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const release = await holdScripts(page);
  const landing = signInAs(MEMBER_EMAIL, '/');
  await expect(page.getByRole('status')).toHaveText('Loading...');
  const sidebar = await box(page, '#boot-frame .boot-sidebar');
  expect(sidebar).toMatchObject({ x: 0, y: 0, width: 240, height: 900 });
  const main = await box(page, '#boot-frame .boot-main');
  // Where the app's main column will be: centred beside the sidebar, 680 px wide.
  expect(main.width).toBe(680);
  expect(main.x).toBe(240 + (1280 - 240 - 680) / 2);
  await expect(page.locator('#boot-frame .boot-header')).toBeHidden();
  release();
  await landing;
  await expect(page.getByRole('main').getByRole('article').first()).toBeVisible();
  await expect(page.locator('#boot-frame')).toHaveCount(0);
  // The app's own sidebar is where the drawn one was.
  const appSidebar = await page.getByRole('complementary').first().boundingBox();
  expect(appSidebar).toMatchObject({ x: 0, width: 240 });
});

test('on a phone, the header and the bottom bar are drawn before any script runs', async ({
  page,
  signInAs,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const release = await holdScripts(page);
  const landing = signInAs(MEMBER_EMAIL, '/');
  await expect(page.getByRole('status')).toHaveText('Loading...');
  expect(await box(page, '#boot-frame .boot-header')).toMatchObject({
    y: 0,
    width: 390,
    height: 56,
  });
  expect(await box(page, '#boot-frame .boot-bottom')).toMatchObject({
    y: 844 - 64,
    width: 390,
    height: 64,
  });
  await expect(page.locator('#boot-frame .boot-sidebar')).toBeHidden();
  release();
  await landing;
  await expect(page.getByRole('navigation', { name: 'Bottom navigation' })).toBeVisible();
  await expect(page.locator('#boot-frame')).toHaveCount(0);
});

test('a visitor who is not signed in gets the sign-in page without the frame', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();
  await expect(page.locator('#boot-frame')).toHaveCount(0);
});

/** The colours the boot frame is painted in (before any script). */
const frameColours = (page: Page) =>
  page.evaluate(() => {
    const colour = (selector: string, property: 'backgroundColor' | 'color' | 'borderRightColor') =>
      getComputedStyle(document.querySelector(selector)!)[property];
    return {
      page: colour('body', 'backgroundColor'),
      sidebar: colour('#boot-frame .boot-sidebar', 'backgroundColor'),
      border: colour('#boot-frame .boot-sidebar', 'borderRightColor'),
      bar: colour('#boot-frame .boot-sidebar i', 'backgroundColor'),
      loading: colour('#root [role="status"]', 'color'),
    };
  });

// The kit's light and dark colours (packages/kit/src/theme/theme.ts).
const LIGHT_FRAME = {
  page: 'rgb(248, 250, 252)',
  sidebar: 'rgb(255, 255, 255)',
  border: 'rgb(226, 232, 240)',
  bar: 'rgb(241, 245, 249)',
  loading: 'rgb(71, 85, 105)',
};
const DARK_FRAME = {
  page: 'rgb(11, 17, 32)',
  sidebar: 'rgb(17, 24, 39)',
  border: 'rgb(51, 65, 85)',
  bar: 'rgb(30, 41, 59)',
  loading: 'rgb(169, 182, 200)',
};

test('when the system prefers dark, the frame is drawn dark before any script runs, and the app stays dark', async ({
  page,
  signInAs,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const release = await holdScripts(page);
  const landing = signInAs(MEMBER_EMAIL, '/');
  await expect(page.getByRole('status')).toHaveText('Loading...');
  expect(await frameColours(page)).toEqual(DARK_FRAME);
  release();
  await landing;
  await expect(page.getByRole('main').getByRole('article').first()).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
    DARK_FRAME.page,
  );
});

test("a member's choice of light on a dark system is painted by the first script, before the app", async ({
  page,
  signInAs,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.addInitScript(() => window.localStorage.setItem('campus.color-scheme', 'light'));
  // Only the main script is held: the shell's first script (early.js) runs.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/main\.[0-9a-f]{8}\.js$/, async (route) => {
    await released;
    await route.continue().catch(() => undefined);
  });
  const landing = signInAs(MEMBER_EMAIL, '/');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(page.getByRole('status')).toHaveText('Loading...');
  expect(await frameColours(page)).toEqual(LIGHT_FRAME);
  release();
  await landing;
  await expect(page.getByRole('main').getByRole('article').first()).toBeVisible();
});
