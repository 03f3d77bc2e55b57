import type { Locator } from '@playwright/test';
import { ADMIN_EMAIL, expect, test } from '../support/fixtures';

// Issue 22: no layout shift when content replaces its placeholder. The dashboard's placeholders
// stand where its figure cards and charts will be, the size they will be.
test.use({ viewport: { width: 1280, height: 900 } });

type Shifts = { __layoutShifts: number[] };

const CARDS = [
  'Total Users',
  'New This Week',
  'Total Posts',
  'Total Engagement',
  'Daily Active Users',
  'Monthly Active Users',
  'User Growth (Last 30 Days)',
  'Daily Engagement (Last 7 Days)',
];

async function boxes(locators: Locator[]) {
  return Promise.all(locators.map((locator) => locator.boundingBox()));
}

test('the dashboard does not move when its figures and charts replace the placeholders', async ({
  page,
  signInAs,
}) => {
  // The browser's own layout-shift entries (what CLS adds up), from the page's start.
  await page.addInitScript(() => {
    const record = ((window as unknown as Shifts).__layoutShifts = [] as number[]);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        record.push((entry as unknown as { value: number }).value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/analytics/overview', async (route) => {
    await held;
    await route.continue();
  });
  await signInAs(ADMIN_EMAIL, '/analytics');

  const placeholders = page.getByTestId('analytics-placeholder');
  await expect(placeholders).toHaveCount(8);
  await expect(page.getByText('Admin Only')).toBeVisible();
  const before = await boxes(await placeholders.all());
  await page.evaluate(() => ((window as unknown as Shifts).__layoutShifts.length = 0));

  release();
  const cards = CARDS.map((name) => page.getByRole('article', { name, exact: true }));
  await expect(cards[0]!).toBeVisible();
  await expect(page.getByText('Admin Only')).toHaveCount(0);
  // Both charts drawn (apexcharts arrives in its own chunk after the figures).
  await expect(page.locator('main svg.apexcharts-svg')).toHaveCount(2);
  await expect(page.getByRole('article', { name: 'Platform Health' })).toBeVisible();

  // Each card stands exactly where its placeholder stood, at its size.
  expect(await boxes(cards)).toEqual(before);
  // And the browser saw nothing move.
  expect(await page.evaluate(() => (window as unknown as Shifts).__layoutShifts)).toEqual([]);
});
