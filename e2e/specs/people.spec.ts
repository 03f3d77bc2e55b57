import { MEMBER_EMAIL, expect, test } from '../support/fixtures';

// Issue 19: people search on /search, above the AI search placeholder, by keyboard alone.
test('finding a member by name prefix with the keyboard, accents and case aside', async ({
  page,
  signInAs,
}) => {
  await signInAs(MEMBER_EMAIL, '/search');
  const field = page.getByRole('searchbox', { name: 'Search people' });
  await field.focus();
  await page.keyboard.type('CHIA');
  const results = page.getByRole('list', { name: 'People' });
  const chiara = results.getByRole('link', { name: /Chiara Rossi/ });
  await expect(chiara).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /found/ })).toContainText(/found/);

  await page.keyboard.press('ArrowDown');
  await expect(results.getByRole('link').first()).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(field).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  await expect(results.getByRole('button').first()).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/profile\/\d+$/);
  await expect(page.getByRole('heading', { name: 'Chiara Rossi', level: 1 })).toBeVisible();
});

test('the AI search placeholder stays as it was, below the people search', async ({
  page,
  signInAs,
}) => {
  await signInAs(MEMBER_EMAIL, '/search');
  await expect(page.getByRole('heading', { name: 'AI Search' })).toBeVisible();
  await expect(page.getByText('Check back later to see magic...')).toBeVisible();
  for (const tile of ['Build my CV', 'Find alums', 'Find resources']) {
    await expect(page.getByRole('button', { name: tile })).toBeDisabled();
  }
  const people = await page.getByRole('searchbox', { name: 'Search people' }).boundingBox();
  const tiles = await page.getByRole('button', { name: 'Build my CV' }).boundingBox();
  expect(people!.y).toBeLessThan(tiles!.y);
  await page.getByRole('searchbox', { name: 'Search people' }).fill('zzqx-nobody');
  await expect(page.getByText('No people found')).toBeVisible();
});
