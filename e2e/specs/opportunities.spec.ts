import { MEMBER_EMAIL, expect, test } from '../support/fixtures';

test('the opportunities placeholder shows one sample job whose actions are disabled', async ({
  page,
  signInAs,
}) => {
  await signInAs(MEMBER_EMAIL, '/');
  await page.getByRole('tab', { name: /^JD/ }).click();
  await page.getByRole('link', { name: /Explore Opportunities/ }).click();
  await expect(page).toHaveURL(/\/opportunities$/);
  await expect(page.getByText('Under Construction - Features coming soon')).toBeVisible();
  const cards = page.getByRole('article');
  await expect(cards).toHaveCount(1);
  const card = cards.first();
  for (const label of ['Company', 'Location', 'Salary', 'Experience', 'Job type']) {
    await expect(card.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(card.getByText('Verified Recruiter')).toBeVisible();
  await expect(card.getByRole('listitem').first()).toBeVisible();
  for (const name of ['Interested', 'Not Interested', 'View Details']) {
    await expect(card.getByRole('button', { name, exact: true })).toBeDisabled();
  }
});
