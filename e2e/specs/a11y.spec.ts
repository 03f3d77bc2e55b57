import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolationsInBothSchemes } from '../support/accessibility';
import { ADMIN_EMAIL, MEMBER_EMAIL, expect, test } from '../support/fixtures';

const OTHER_MEMBER_EMAIL = 'ben.larsen@campus.edu';

// Issue 41, dark mode: every screen is scanned twice, in the light colour scheme and in the dark
// one (contrast included). A test loads a page cold and runs up to three screens' scans (six axe
// runs), each several seconds of one core: with two workers on a busy 2-core machine three runs
// came within a few seconds of 30 s (and past it once); six took 78 s with one worker, so 180 s.
test.describe.configure({ timeout: 180_000 });

interface Post {
  id: number;
}

/** A small PNG drawn by the browser, to open the avatar crop dialog with. */
async function pngFile(page: Page) {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 240;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#1d4ed8';
    context.fillRect(0, 0, 320, 240);
    return canvas.toDataURL('image/png');
  });
  return {
    name: 'avatar.png',
    mimeType: 'image/png',
    buffer: Buffer.from(dataUrl.split(',')[1]!, 'base64'),
  };
}

test.describe('signed out', () => {
  test('sign in', async ({ page }, testInfo) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Sign in to Campus' })).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'sign in');
  });

  test('registration and the apply-for-access dialog', async ({ page }, testInfo) => {
    await page.goto('/register');
    await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'registration');
    await page.getByRole('button', { name: 'Apply for access' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'apply-for-access dialog');
  });

  test('e-mail verification with an unknown link', async ({ page }, testInfo) => {
    await page.goto('/verify/not-a-real-token');
    await expect(page.getByRole('main')).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'verification');
  });
});

test.describe('a member', () => {
  test('feed, the composer and the repost dialog', async ({ page, signInAs }, testInfo) => {
    await signInAs(MEMBER_EMAIL, '/');
    const main = page.getByRole('main');
    await expect(main.getByRole('article').first()).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'feed');

    await page
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('button', { name: 'Post', exact: true })
      .click();
    await expect(page.getByRole('dialog', { name: 'Create Post' })).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'post composer dialog');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();

    await main
      .getByRole('button', { name: /^Repost/ })
      .and(page.locator(':enabled'))
      .first()
      .click();
    await expect(page.getByRole('dialog', { name: 'Repost' })).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'repost dialog');
  });

  test('post detail with comments, and the delete dialog', async ({
    page,
    signInAs,
    apiAs,
  }, testInfo) => {
    const member = await apiAs(MEMBER_EMAIL);
    const other = await apiAs(OTHER_MEMBER_EMAIL);
    const post = await member.call<Post>('POST', '/api/posts', {
      content: 'Accessibility check: a post with a comment and a reply.',
    });
    const comment = await other.call<Post>('POST', `/api/posts/${post.id}/comments`, {
      content: 'A comment to read.',
    });
    await member.call('POST', `/api/posts/${post.id}/comments`, {
      content: 'A reply to it.',
      parentId: comment.id,
    });

    await signInAs(MEMBER_EMAIL, `/post/${post.id}`);
    const main = page.getByRole('main');
    await expect(main.getByText('A reply to it.')).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'post detail');

    await main.getByRole('button', { name: 'Delete', exact: true }).first().click();
    await expect(page.getByRole('dialog', { name: 'Delete post' })).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'delete post dialog');
  });

  test('own profile and the feedback dialog', async ({ page, signInAs }, testInfo) => {
    const user = await signInAs(MEMBER_EMAIL, '/');
    await page.goto(`/profile/${user.id}`);
    await expect(page.getByRole('heading', { name: user.name, level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'own profile');

    await page.getByRole('button', { name: 'Feedback' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'feedback dialog');
  });

  test("another member's profile", async ({ page, signInAs, apiAs }, testInfo) => {
    const other = await apiAs(OTHER_MEMBER_EMAIL);
    await signInAs(MEMBER_EMAIL, `/profile/${other.user.id}`);
    await expect(page.getByRole('heading', { name: other.user.name, level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, "another member's profile");
  });

  test('edit profile and the avatar crop dialog', async ({ page, signInAs }, testInfo) => {
    const user = await signInAs(MEMBER_EMAIL, '/');
    await page.goto(`/profile/${user.id}/edit`);
    await expect(page.getByRole('heading', { name: 'Edit Profile', level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'edit profile');

    await page.locator('input[type="file"]').setInputFiles(await pngFile(page));
    await expect(page.getByRole('dialog', { name: 'Crop your picture' })).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'avatar crop dialog');
  });

  test('following and followers lists', async ({ page, signInAs }, testInfo) => {
    const user = await signInAs(MEMBER_EMAIL, '/');
    for (const kind of ['following', 'followers']) {
      await page.goto(`/profile/${user.id}/${kind}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, `${kind} list`);
    }
  });

  test('settings, with its appearance choices', async ({ page, signInAs }, testInfo) => {
    await signInAs(MEMBER_EMAIL, '/settings');
    await expect(page.getByRole('radiogroup', { name: 'Appearance' })).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'settings');
  });

  test('notifications', async ({ page, signInAs }, testInfo) => {
    await signInAs(MEMBER_EMAIL, '/notifications');
    await expect(page.getByRole('heading', { name: /^Notifications/, level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'notifications');
  });

  test('opportunities, search and not found', async ({ page, signInAs }, testInfo) => {
    await signInAs(MEMBER_EMAIL, '/opportunities');
    await expect(page.getByText('Under Construction - Features coming soon')).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'opportunities');
    await page.goto('/search');
    await expect(page.getByRole('heading', { name: 'AI Search' })).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'AI search');
    await page.goto('/no-such-page');
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'not found');
  });

  test('the feed on a phone (header and bottom bar)', async ({ page, signInAs }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAs(MEMBER_EMAIL, '/');
    await expect(page.getByRole('main').getByRole('article').first()).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'feed on a phone');
  });
});

test('the administrator: analytics', async ({ page, signInAs }, testInfo) => {
  await signInAs(ADMIN_EMAIL, '/analytics');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoSeriousA11yViolationsInBothSchemes(page, testInfo, 'analytics');
});
