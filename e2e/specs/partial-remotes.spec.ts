import { ADMIN_EMAIL, MEMBER_EMAIL, expect, test } from '../support/fixtures';
import { originOf } from '../support/environment';
import { takeDown } from '../support/remote-deploys';

test('with only the feed remote up, profile and notifications say so and the feed still works', async ({
  page,
  signInAs,
  env,
}) => {
  await takeDown(page, originOf(env.remotes.mf_profile));
  await takeDown(page, originOf(env.remotes.mf_notifications));
  const user = await signInAs(MEMBER_EMAIL, '/');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  const main = page.getByRole('main');

  await expect(main.getByRole('tab', { name: 'For You', exact: true })).toBeVisible();
  await expect(main.getByRole('article').first()).toBeVisible();

  await sidebar.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/${user.id}$`));
  await expect(main.getByRole('alert')).toContainText("We couldn't load this profile.");

  await sidebar.getByRole('link', { name: 'Notifications' }).click();
  await expect(main.getByRole('alert')).toContainText("We couldn't load your notifications.");

  // The feed's composer is still there from the sidebar, and home still renders the feed.
  await sidebar.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await sidebar.getByRole('link', { name: 'Home', exact: true }).click();
  await expect(main.getByRole('tab', { name: 'For You', exact: true })).toBeVisible();
  await expect(sidebar.getByText(user.name)).toBeVisible();
});

test('with the feed remote down, home and the composer say so while profile and notifications work', async ({
  page,
  signInAs,
  env,
}) => {
  await takeDown(page, originOf(env.remotes.mf_feed));
  const user = await signInAs(MEMBER_EMAIL, '/');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  const main = page.getByRole('main');

  await expect(main.getByRole('alert')).toContainText("We couldn't load the feed.");
  await sidebar.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: "We couldn't load the post composer." }),
  ).toBeVisible();

  await sidebar.getByRole('link', { name: 'Profile' }).click();
  await expect(main.getByRole('heading', { name: user.name, level: 1 })).toBeVisible();
  await sidebar.getByRole('link', { name: 'Notifications' }).click();
  await expect(main.getByRole('heading', { name: /^Notifications/, level: 1 })).toBeVisible();
});

test('with the admin remote down, the administrator is told so on analytics and the rest works', async ({
  page,
  signInAs,
  env,
}) => {
  await takeDown(page, originOf(env.remotes.mf_admin));
  await signInAs(ADMIN_EMAIL, '/analytics');
  const main = page.getByRole('main');
  await expect(main.getByRole('alert')).toContainText("We couldn't load the analytics dashboard.");
  await page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('link', { name: 'Home', exact: true })
    .click();
  await expect(main.getByRole('tab', { name: 'For You', exact: true })).toBeVisible();
});
