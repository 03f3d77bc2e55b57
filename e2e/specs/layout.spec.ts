import { MEMBER_EMAIL, expect, test } from '../support/fixtures';

test.describe('large screens', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('a 60-unit sidebar with the navigation, search, Post and the current user', async ({
    page,
    signInAs,
  }) => {
    const user = await signInAs(MEMBER_EMAIL, '/');
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await expect(sidebar).toBeVisible();
    expect((await sidebar.boundingBox())?.width).toBe(240);
    await expect(sidebar.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute(
      'href',
      '/',
    );
    await expect(sidebar.getByRole('link', { name: 'Notifications' })).toHaveAttribute(
      'href',
      '/notifications',
    );
    await expect(sidebar.getByRole('link', { name: 'Profile' })).toHaveAttribute(
      'href',
      `/profile/${user.id}`,
    );
    await expect(sidebar.getByRole('link', { name: 'Search' })).toHaveAttribute('href', '/search');
    await expect(sidebar.getByRole('button', { name: 'Post' })).toBeVisible();
    await expect(sidebar.getByTestId('logo')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Bottom navigation' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Create post' })).toBeHidden();
  });
});

test.describe('small screens (375 px)', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('a header with the logo and search, a bottom bar and a floating post button', async ({
    page,
    signInAs,
  }) => {
    await signInAs(MEMBER_EMAIL, '/');
    await expect(page.getByRole('complementary', { name: 'Sidebar' })).toBeHidden();
    const header = page.getByRole('banner');
    await expect(header.getByTestId('logo')).toBeVisible();
    await expect(header.getByRole('link', { name: 'Search' })).toHaveAttribute('href', '/search');
    const bottomBar = page.getByRole('navigation', { name: 'Bottom navigation' });
    await expect(bottomBar).toBeVisible();
    for (const name of ['Home', 'Notifications', 'Profile']) {
      await expect(bottomBar.getByRole('link', { name })).toBeVisible();
    }
    const floating = page.getByRole('button', { name: 'Create post' });
    await expect(floating).toBeVisible();
    const box = await floating.boundingBox();
    expect(box?.width).toBe(box?.height);

    await floating.click();
    await expect(page.getByRole('dialog', { name: 'Create Post' })).toBeVisible();
    await page.keyboard.press('Escape');

    await header.getByRole('link', { name: 'Search' }).click();
    await expect(page.getByRole('heading', { name: 'AI Search' })).toBeVisible();
    await expect(floating).toBeHidden();
    await page.goto('/opportunities');
    await expect(page.getByText('Under Construction - Features coming soon')).toBeVisible();
    await expect(floating).toBeHidden();
    await bottomBar.getByRole('link', { name: 'Home' }).click();
    await expect(floating).toBeVisible();
  });
});
