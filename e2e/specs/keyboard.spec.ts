import type { Locator, Page } from '@playwright/test';
import { DEMO_PASSWORD, MEMBER_EMAIL, expect, test, toast } from '../support/fixtures';

/** Presses Tab (never the mouse) until `target` has the focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let presses = 0; presses < max; presses++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false))
      return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()} in ${max} presses`);
}

test('a member signs in, posts, likes, opens the post, comments and signs out with the keyboard alone', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const content = `Keyboard only ${Date.now()}: no mouse was used for this post.`;
  const comment = 'And a comment typed without a mouse.';

  await page.goto('/');
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(MEMBER_EMAIL);
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(toast(page)).toContainText('Welcome back!');

  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await tabTo(page, sidebar.getByRole('button', { name: 'Post', exact: true }));
  await page.keyboard.press('Enter');
  const composer = page.getByRole('dialog', { name: 'Create Post' });
  await expect(composer).toBeVisible();
  await tabTo(page, composer.getByLabel("What's happening on campus?"));
  await page.keyboard.type(content);
  await tabTo(page, composer.getByRole('button', { name: 'Post', exact: true }));
  await page.keyboard.press('Enter');
  await expect(composer).toBeHidden();

  const post = page.getByRole('main').getByRole('article').filter({ hasText: content });
  await expect(post).toBeVisible();
  await tabTo(page, post.getByRole('button', { name: /^Like/ }));
  await page.keyboard.press('Space');
  await expect(post.getByRole('button', { name: /^Like/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(post.getByRole('button', { name: 'Liked (1 like)' })).toBeVisible();

  await tabTo(page, post.getByRole('button', { name: /^Comments/ }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/post\/\d+$/);
  const main = page.getByRole('main');
  await expect(main.getByText(content)).toBeVisible();

  await tabTo(page, main.getByLabel('Write a comment'));
  await page.keyboard.type(comment);
  await tabTo(page, main.getByRole('button', { name: 'Post Comment' }));
  await page.keyboard.press('Enter');
  await expect(main.getByText(comment)).toBeVisible();

  await tabTo(page, sidebar.getByRole('link', { name: 'Profile' }));
  await page.keyboard.press('Enter');
  await tabTo(page, main.getByRole('button', { name: 'Logout' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();
});
