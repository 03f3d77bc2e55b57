import { ADMIN_EMAIL, MEMBER_EMAIL, expect, test } from '../support/fixtures';
import { originOf } from '../support/environment';

test.describe('signed-in routes', () => {
  test('/post without an id goes home and an unknown path is not found', async ({
    page,
    signInAs,
  }) => {
    await signInAs(MEMBER_EMAIL, '/post');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('tab', { name: 'For You' })).toBeVisible();

    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Sidebar' })).toBeVisible();
  });

  test('the AI search placeholder is all disabled', async ({ page, signInAs }) => {
    await signInAs(MEMBER_EMAIL, '/');
    await page
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('link', { name: 'Search' })
      .click();
    await expect(page.getByRole('heading', { name: 'AI Search' })).toBeVisible();
    await expect(page.getByRole('searchbox', { name: 'Search', exact: true })).toBeDisabled();
    await expect(page.getByText('Check back later to see magic...')).toBeVisible();
    for (const tile of ['Build my CV', 'Find alums', 'Find resources']) {
      await expect(page.getByRole('button', { name: tile })).toBeDisabled();
    }
  });

  test('the opportunities placeholder comes from mf_feed with its disabled actions', async ({
    page,
    signInAs,
  }) => {
    await signInAs(MEMBER_EMAIL, '/opportunities');
    await expect(page.getByText('Under Construction - Features coming soon')).toBeVisible();
    for (const action of ['Interested', 'Not Interested', 'View Details']) {
      await expect(page.getByRole('button', { name: action, exact: true })).toBeDisabled();
    }
  });

  test('the Post button opens the composer exposed by mf_feed', async ({ page, signInAs }) => {
    await signInAs(MEMBER_EMAIL, '/');
    await page
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('button', { name: 'Post' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Create Post' });
    await expect(dialog.getByRole('checkbox', { name: 'Sync to profile timeline' })).toBeChecked();
    await expect(
      dialog.getByRole('checkbox', { name: 'Tag as JD (Jobs/Admissions)' }),
    ).not.toBeChecked();
    await expect(dialog.getByRole('button', { name: 'Post', exact: true })).toBeDisabled();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });
});

test.describe('the admin dashboard', () => {
  test('a member on /analytics is sent home and never requests any mf_admin file', async ({
    page,
    signInAs,
    env,
    requestedUrls,
  }) => {
    await signInAs(MEMBER_EMAIL, '/analytics');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('tab', { name: 'For You' })).toBeVisible();
    await expect(page.getByRole('heading', { name: /Analytics/ })).toHaveCount(0);
    await page.goto('/notifications');
    await page.goto('/opportunities');
    await expect(page.getByText('Under Construction - Features coming soon')).toBeVisible();
    const adminOrigin = originOf(env.remotes.mf_admin);
    expect(requestedUrls.filter((url) => url.startsWith(adminOrigin))).toEqual([]);
    expect(requestedUrls.length).toBeGreaterThan(0);
  });

  test('the admin gets the dashboard from mf_admin', async ({
    page,
    signInAs,
    env,
    requestedUrls,
  }) => {
    await signInAs(ADMIN_EMAIL, '/analytics');
    await expect(page.getByText('Admin Dashboard')).toBeVisible();
    await expect(page.getByText(/^Updated: /)).toBeVisible();
    expect(requestedUrls.some((url) => url.startsWith(originOf(env.remotes.mf_admin)))).toBe(true);
  });
});
