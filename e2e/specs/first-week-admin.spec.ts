import { ADMIN_EMAIL, MEMBER_EMAIL, expect, test } from '../support/fixtures';

// Issue 41, the admin: figures that explain themselves, reports of what is gone closed by
// themselves, an audit log that reads as sentences and filters.

test.describe.configure({ timeout: 120_000 });

test('the dashboard explains each chart and the engagement rate in one line', async ({
  page,
  signInAs,
}) => {
  await signInAs(ADMIN_EMAIL, '/analytics');
  const card = (name: string) => page.getByRole('article', { name, exact: true });
  await expect(card('User Growth (Last 30 Days)')).toContainText(
    'Members who signed up on each of the last 30 days.',
  );
  await expect(card('Daily Engagement (Last 7 Days)')).toContainText(
    'Posts published on each of the last 7 days.',
  );
  await expect(card('Engagement')).toContainText(
    'Likes plus comments per 100 posts: above 100% means more than one like or comment per post.',
  );
});

test('a report of a post its author deleted closes by itself; the audit log says who did what, with links, and filters', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const member = await apiAs(MEMBER_EMAIL);
  const admin = await apiAs(ADMIN_EMAIL);
  const gone = await member.call<{ id: number }>('POST', '/api/posts', {
    content: `Selling notes, DM me ${Date.now()}`,
  });
  const kept = await member.call<{ id: number }>('POST', '/api/posts', {
    content: `Cheap essays ${Date.now()}`,
  });
  // Reported by the admin's own account (any member may report).
  await admin.call('POST', '/api/reports', {
    targetType: 'post',
    targetId: gone.id,
    category: 'spam',
  });
  await admin.call('POST', '/api/reports', {
    targetType: 'post',
    targetId: kept.id,
    category: 'spam',
  });
  await member.call('DELETE', `/api/posts/${gone.id}`);

  await signInAs(ADMIN_EMAIL, '/admin/reports');
  const open = page.getByRole('list', { name: 'Open reports' });
  await expect(open.getByRole('article').filter({ hasText: 'Cheap essays' })).toBeVisible();
  await expect(open.getByRole('article').filter({ hasText: 'Selling notes' })).toHaveCount(0);
  await expect(
    open
      .getByRole('article')
      .filter({ hasText: 'Cheap essays' })
      .getByRole('button', { name: /^Remove post/ }),
  ).toBeVisible();

  // Dismiss the one still there: the audit log tells it as a sentence with a link to the post.
  await open
    .getByRole('article')
    .filter({ hasText: 'Cheap essays' })
    .getByRole('button', { name: /^Dismiss/ })
    .click();
  await expect(open.getByRole('article').filter({ hasText: 'Cheap essays' })).toHaveCount(0);
  await page.goto('/admin/audit');
  const table = page.getByRole('table', { name: 'Admin actions, newest first' });
  const row = table.getByRole('row').filter({ hasText: new RegExp(`post #${kept.id}\\b`) });
  await expect(row).toContainText(`Campus Admin dismissed 1 report of post #${kept.id}.`);
  await expect(row.getByRole('link', { name: `post #${kept.id}` })).toHaveAttribute(
    'href',
    `/post/${kept.id}`,
  );

  const filters = page.getByRole('group', { name: 'Filters' });
  await filters.getByLabel('Action').selectOption({ label: 'Suspended member' });
  await expect(page).toHaveURL(/action=user\.suspend/);
  await expect(row).toHaveCount(0);
  await filters.getByLabel('Action').selectOption({ label: 'Dismissed report' });
  await expect(row).toBeVisible();
  await filters.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/action=/);
});
