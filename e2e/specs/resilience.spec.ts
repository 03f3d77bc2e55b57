import { MEMBER_EMAIL, expect, test } from '../support/fixtures';
import { originOf } from '../support/environment';

test('a remote whose server is down shows its fallback; the rest keeps working; Retry recovers it', async ({
  page,
  signInAs,
  env,
}) => {
  const notificationsOrigin = originOf(env.remotes.mf_notifications);
  await page.route(`${notificationsOrigin}/**`, (route) => route.abort('connectionrefused'));
  await signInAs(MEMBER_EMAIL, '/');
  await page.evaluate(() => {
    (window as unknown as { e2eMarker: string }).e2eMarker = 'same page';
  });

  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await sidebar.getByRole('link', { name: 'Notifications' }).click();
  const fallback = page.getByTestId('remote-error');
  await expect(fallback).toContainText("We couldn't load your notifications.");
  await expect(sidebar).toBeVisible();

  await sidebar.getByRole('link', { name: 'Search' }).click();
  await expect(page.getByRole('heading', { name: 'AI Search' })).toBeVisible();
  await page.goto('/opportunities');
  await page.evaluate(() => {
    (window as unknown as { e2eMarker: string }).e2eMarker = 'same page';
  });
  await expect(page.getByText('Under Construction - Features coming soon')).toBeVisible();

  await sidebar.getByRole('link', { name: 'Notifications' }).click();
  await expect(fallback).toBeVisible();
  await page.unroute(`${notificationsOrigin}/**`);
  await fallback.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: /^Notifications/, level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe(
    'same page',
  );
});
