import { MEMBER_EMAIL, expect, test, toast, type ApiClient } from '../support/fixtures';

/** Ada posts and Ben likes it: Ada has at least one unread notification. */
async function giveAdaAnUnreadNotification(apiAs: (email: string) => Promise<ApiClient>) {
  const ada = await apiAs(MEMBER_EMAIL);
  const post = await ada.call<{ id: number }>('POST', '/api/posts', {
    content: `Badge check ${Date.now()}`,
    syncToProfile: true,
    isJdTagged: false,
  });
  const ben = await apiAs('ben.larsen@campus.edu');
  await ben.call('POST', `/api/posts/${post.id}/like`);
}

test('the unread badge follows the shared notifications cache without a reload', async ({
  page,
  signInAs,
  apiAs,
}) => {
  await giveAdaAnUnreadNotification(apiAs);
  await signInAs(MEMBER_EMAIL, '/');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  const badge = sidebar.getByTestId('unread-badge');
  await expect(badge).toBeVisible();
  await expect(badge).toHaveText(/^[1-9][0-9]*$/);

  await page.evaluate(() => {
    (window as unknown as { e2eMarker: string }).e2eMarker = 'same page';
  });
  await sidebar.getByRole('link', { name: 'Notifications' }).click();
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(badge).toBeHidden();
  expect(await page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe(
    'same page',
  );
});

test.describe('small screens', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the bottom bar shows unread notifications as a dot only', async ({
    page,
    signInAs,
    apiAs,
  }) => {
    await giveAdaAnUnreadNotification(apiAs);
    await signInAs(MEMBER_EMAIL, '/');
    const bottomBar = page.getByRole('navigation', { name: 'Bottom navigation' });
    await expect(bottomBar.getByTestId('unread-dot')).toBeVisible();
    await expect(bottomBar).not.toContainText(/[0-9]/);
    await expect(bottomBar.getByRole('link', { name: 'Notifications (unread)' })).toBeVisible();
  });
});

test('the sidebar Post button publishes through the mf_feed composer and the feed refreshes', async ({
  page,
  signInAs,
}) => {
  await signInAs(MEMBER_EMAIL, '/');
  await expect(page.getByRole('tab', { name: 'For You' })).toBeVisible();
  const text = `Hello campus from the e2e suite ${Date.now()}`;
  await page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('button', { name: 'Post' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Create Post' });
  await dialog.getByRole('textbox').fill(`  ${text}  `);
  await dialog.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(toast(page)).toContainText('Post created successfully!');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article').filter({ hasText: text }).first()).toBeVisible();
});
