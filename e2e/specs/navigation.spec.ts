import type { Page } from '@playwright/test';
import { ADMIN_EMAIL, DEMO_PASSWORD, MEMBER_EMAIL, expect, test } from '../support/fixtures';

const BEN = 'ben.larsen@campus.edu';
const CHIARA = 'chiara.rossi@campus.edu';

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

test.describe('on a phone (390x844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a post opened from deep in the feed starts at the top; Back restores the feed', async ({
    page,
    signInAs,
  }) => {
    await signInAs(MEMBER_EMAIL, '/');
    // posts only: the feed also holds a Who to follow card on phones
    const cards = page.getByRole('main').getByRole('article', { name: /^Post by/ });
    await expect(cards.nth(6)).toBeVisible();
    const card = cards.nth(6);
    // its text in the middle of the screen, clear of the fixed header and bottom bar (a card with
    // a picture is taller than the screen's free space)
    await card
      .locator('p')
      .first()
      .evaluate((paragraph) => paragraph.scrollIntoView({ block: 'center' }));
    const feedPosition = await scrollY(page);
    expect(feedPosition).toBeGreaterThan(800);

    // open it by its text (the post's paragraph), not by a button, the author's name link or a
    // #tag or @mention link inside the text: click the middle of its first plain word
    const point = await card
      .locator('p')
      .first()
      .evaluate((paragraph) => {
        const walker = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          const start = text.search(/\S/);
          if (start < 0 || node.parentElement?.closest('a')) continue;
          const range = document.createRange();
          range.setStart(node, start);
          range.setEnd(node, Math.min(text.length, start + 2));
          const box = range.getBoundingClientRect();
          return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
        }
        return null;
      });
    expect(point, 'the post has plain text to click').not.toBeNull();
    await page.mouse.click(point!.x, point!.y);
    await expect(page).toHaveURL(/\/post\/\d+$/);
    await expect(page).toHaveTitle(/Post · Campus$/);
    await expect.poll(() => scrollY(page)).toBe(0);
    // the detail's Back button is on screen
    await expect(page.getByRole('button', { name: /back/i }).first()).toBeInViewport();

    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await expect.poll(async () => Math.abs((await scrollY(page)) - feedPosition)).toBeLessThan(60);
  });

  test('choosing Home on Home scrolls to the top', async ({ page, signInAs }) => {
    await signInAs(MEMBER_EMAIL, '/');
    await expect(page.getByRole('main').getByRole('article').nth(6)).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 1500));
    await expect.poll(() => scrollY(page)).toBeGreaterThan(1000);
    await page
      .getByRole('navigation', { name: 'Bottom navigation' })
      .getByRole('link', { name: 'Home', exact: true })
      .click();
    await expect.poll(() => scrollY(page)).toBe(0);
    await expect(page).toHaveURL(/\/$/);
  });
});

test('signing in from a deep link lands on that link', async ({ page, apiAs }) => {
  const ada = await apiAs(MEMBER_EMAIL);
  const post = await ada.call<{ id: number }>('POST', '/api/posts', {
    content: `Deep link target ${Date.now()}`,
    syncToProfile: true,
    isJdTagged: false,
  });
  await page.goto(`/post/${post.id}`);
  await expect(page).toHaveTitle('Sign in · Campus');
  await page.getByLabel('Email').fill(BEN);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(new RegExp(`/post/${post.id}$`));
  await expect(page.getByText('Deep link target')).toBeVisible();
  await expect(page).toHaveTitle(/^(\(\d+\) )?Post · Campus$/);
});

test('every route names itself in the tab title', async ({ page, signInAs }) => {
  await signInAs(MEMBER_EMAIL, '/search');
  await expect(page).toHaveTitle(/^(\(\d+\) )?Search · Campus$/);
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await sidebar.getByRole('link', { name: /Notifications/ }).click();
  await expect(page).toHaveTitle(/^(\(\d+\) )?Notifications · Campus$/);
  await sidebar.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveTitle(/^(\(\d+\) )?Profile · Campus$/);
  await page.goto('/no/such/page');
  await expect(page).toHaveTitle(/^(\(\d+\) )?Page not found · Campus$/);
});

test.describe('notifications lead somewhere', () => {
  test('a like opens the post and is read; a comment quotes what was said; a follow opens the follower', async ({
    page,
    signInAs,
    apiAs,
  }) => {
    const ada = await apiAs(MEMBER_EMAIL);
    const ben = await apiAs(BEN);
    const chiara = await apiAs(CHIARA);
    await ada.call('PUT', '/api/notifications/read-all');
    const content = `Where it leads ${Date.now()}`;
    const post = await ada.call<{ id: number }>('POST', '/api/posts', {
      content,
      syncToProfile: true,
      isJdTagged: false,
    });
    await ben.call('POST', `/api/posts/${post.id}/like`);
    await chiara.call('POST', `/api/posts/${post.id}/comments`, {
      content: 'What a thoughtful point about the library',
    });
    const profile = await chiara.call<{ isFollowing: boolean }>('GET', `/api/users/${ada.user.id}`);
    if (profile.isFollowing) await chiara.call('POST', `/api/users/${ada.user.id}/follow`);
    await chiara.call('POST', `/api/users/${ada.user.id}/follow`);

    await signInAs(MEMBER_EMAIL, '/notifications');
    const like = page.getByRole('link', { name: 'Ben Larsen liked your post (unread)' }).filter({
      hasText: content,
    });
    await like.click();
    await expect(page).toHaveURL(new RegExp(`/post/${post.id}$`));
    await page.goBack();
    await expect(
      page
        .getByRole('link', { name: 'Ben Larsen liked your post', exact: true })
        .filter({ hasText: content }),
    ).toBeVisible();

    const comment = page.getByRole('link', {
      name: 'Chiara Rossi commented on your post (unread)',
    });
    await expect(comment.locator('blockquote').first()).toHaveText(
      'What a thoughtful point about the library',
    );
    await expect(comment.first()).not.toContainText(content);

    const follow = page.getByRole('link', { name: /^Chiara Rossi.* started following you/ });
    const label = (await follow.first().getAttribute('aria-label')) ?? '';
    await follow.first().click();
    await expect(page).toHaveURL(
      label.startsWith('Chiara Rossi started')
        ? new RegExp(`/profile/${chiara.user.id}$`)
        : new RegExp(`/profile/${ada.user.id}/followers$`),
    );
    // the server holds the like as read
    const list = await ada.call<{ type: string; post?: { id: number } | null; isRead: boolean }[]>(
      'GET',
      '/api/notifications',
    );
    expect(list.find((n) => n.type === 'like' && n.post?.id === post.id)?.isRead).toBe(true);
  });

  test("'View post' marks the notification read too", async ({ page, signInAs, apiAs }) => {
    const ada = await apiAs(MEMBER_EMAIL);
    const ben = await apiAs(BEN);
    const content = `View post reads ${Date.now()}`;
    const post = await ada.call<{ id: number }>('POST', '/api/posts', {
      content,
      syncToProfile: true,
      isJdTagged: false,
    });
    await ben.call('POST', `/api/posts/${post.id}/like`);
    await signInAs(MEMBER_EMAIL, '/notifications');
    const item = page.getByRole('listitem').filter({ hasText: content });
    await item.getByRole('link', { name: 'View post' }).click();
    await expect(page).toHaveURL(new RegExp(`/post/${post.id}$`));
    await expect
      .poll(async () => {
        const list = await ada.call<
          { type: string; post?: { id: number } | null; isRead: boolean }[]
        >('GET', '/api/notifications');
        return list.find((n) => n.type === 'like' && n.post?.id === post.id)?.isRead;
      })
      .toBe(true);
  });

  test("the admin's feedback notification opens the feedback page", async ({
    page,
    signInAs,
    apiAs,
  }) => {
    const ada = await apiAs(MEMBER_EMAIL);
    await ada.call('POST', '/api/feedback', { feedback: `Please add dark mode ${Date.now()}` });
    await signInAs(ADMIN_EMAIL, '/notifications');
    const feedback = page.getByRole('link', { name: 'Ada Okafor sent feedback (unread)' }).first();
    await expect(feedback).toHaveAttribute('href', '/admin/feedback');
    await feedback.click();
    await expect(page).toHaveURL(/\/admin\/feedback$/);
  });
});
