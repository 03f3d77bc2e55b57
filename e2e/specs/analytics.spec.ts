import { ADMIN_EMAIL, MEMBER_EMAIL, expect, test } from '../support/fixtures';
import { originOf } from '../support/environment';

interface Overview {
  totalUsers: number;
  verifiedUsers: number;
  verificationRate: number;
  newUsersWeek: number;
  totalPosts: number;
  postsMonth: number;
  totalLikes: number;
  totalComments: number;
  totalFollows: number;
}

const oneDecimal = (value: number) => (Math.round(value * 10) / 10).toFixed(1);

test('the admin (user 107) sees the cards, the two charts and the panels', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const admin = await apiAs(ADMIN_EMAIL);
  expect(admin.user.id).toBe(107);
  await signInAs(ADMIN_EMAIL, '/analytics');

  await expect(page.getByRole('heading', { name: /^Analytics/ })).toContainText('Admin Dashboard');
  const today = new Date().toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });
  await expect(page.getByText(`Updated: ${today}`)).toBeVisible();

  const card = (name: string) => page.getByRole('article', { name, exact: true });
  await expect(card('Total Users')).toContainText('% verified');
  const o = await admin.call<Overview>('GET', '/api/analytics/overview');
  await expect(card('Total Users')).toContainText(`${oneDecimal(o.verificationRate)}% verified`);
  await expect(card('New This Week')).toBeVisible();
  await expect(card('Total Posts')).toContainText('posts this month');
  await expect(card('Total Engagement')).toContainText(/\d+ likes, \d+ comments/);
  await expect(card('Daily Active Users')).toContainText('Users active in last 24 hours');
  await expect(card('Monthly Active Users')).toContainText('Users active in last 30 days');

  await expect(card('Platform Health')).toContainText('Verified Users');
  await expect(card('Platform Health')).toContainText('Verification Rate');
  await expect(card('Platform Health')).toContainText('Total Follows');
  const content = card('Content Stats');
  await expect(content).toContainText('Avg. Posts/User');
  await expect(content).toContainText(/Avg\. Posts\/User\s*\d+\.\d$/);
  const engagement = card('Engagement');
  // The rate, then the line that says how it is worked out (issue 41).
  await expect(engagement).toContainText(
    /Engagement Rate\s*\d+\.\d%Likes plus comments per 100 posts/,
  );

  // the charts: apexcharts SVGs, dates as short month and day
  const growth = card('User Growth (Last 30 Days)');
  const daily = card('Daily Engagement (Last 7 Days)');
  await expect(growth.locator('svg.apexcharts-svg')).toBeVisible();
  await expect(daily.locator('svg.apexcharts-svg')).toBeVisible();
  await expect(daily.locator('.apexcharts-bar-area')).toHaveCount(7);
  const labels = await daily.locator('.apexcharts-xaxis-label tspan').allTextContents();
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) expect(label.trim()).toMatch(/^[A-Z][a-z]{2} \d{1,2}$/);

  await daily.locator('.apexcharts-bar-area').last().hover();
  await expect(daily.locator('.apexcharts-tooltip')).toContainText('Posts');
  await growth.locator('.apexcharts-svg').hover();
  await expect(growth.locator('.apexcharts-tooltip')).toContainText('New Users');
});

test('while the figures load: 8 placeholder cards and the Admin Only badge', async ({
  page,
  signInAs,
}) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/analytics/overview', async (route) => {
    await held;
    await route.continue();
  });
  await signInAs(ADMIN_EMAIL, '/analytics');
  await expect(page.getByTestId('analytics-placeholder')).toHaveCount(8);
  await expect(page.getByText('Admin Only')).toBeVisible();
  release();
  await expect(page.getByRole('article', { name: 'Total Users' })).toBeVisible();
  await expect(page.getByText('Admin Only')).toHaveCount(0);
});

test('a member on /analytics is sent home, sees nothing of the dashboard and loads no chart code', async ({
  page,
  signInAs,
  env,
  requestedUrls,
}) => {
  await signInAs(MEMBER_EMAIL, '/analytics');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('tab', { name: 'For You' })).toBeVisible();
  for (const text of [
    'Admin Dashboard',
    'Admin Only',
    'Total Users',
    'User Growth (Last 30 Days)',
  ]) {
    await expect(page.getByText(text)).toHaveCount(0);
  }
  const adminOrigin = originOf(env.remotes.mf_admin);
  expect(requestedUrls.filter((url) => url.startsWith(adminOrigin))).toEqual([]);
  expect(requestedUrls.filter((url) => url.includes('/api/analytics/'))).toEqual([]);
  expect(await page.evaluate(() => 'ApexCharts' in window)).toBe(false);
});
