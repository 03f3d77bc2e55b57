import type { Browser, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/accessibility';
import type { E2eEnvironment } from '../support/environment';
import { MEMBER_EMAIL, expect, signInContext, test, toast } from '../support/fixtures';

// Issue 40, the web part: a member mentions another with the keyboard from the composer (the post
// links the mention and its #tag; the mentioned member's notifications page shows it), and
// bookmarks a post from the feed (kept after a reload, and on the Bookmarks page).
const BEN = 'ben.larsen@campus.edu';
const unique = (text: string) => `${text} ${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

/** A second browser context signed in as `email`, as the app leaves it after signing in. */
async function contextAs(browser: Browser, env: E2eEnvironment, email: string) {
  const context = await browser.newContext({ baseURL: env.shellUrl });
  const page = await context.newPage();
  const login = await signInContext(page, env, email);
  const { user } = (await login.json()) as { user: object };
  await context.addInitScript(
    (stored) => window.localStorage.setItem('campus.auth', stored),
    JSON.stringify({ user }),
  );
  return { context, page };
}

function cardWith(page: Page, text: string) {
  return page.getByRole('article').filter({ hasText: text });
}

test('a member mentions another with the keyboard; the post links them and the tag, and they are notified', async ({
  page,
  browser,
  env,
  signInAs,
  apiAs,
}, testInfo) => {
  test.slow(); // a post written key by key, an accessibility scan, a second member's browser
  const ben = await apiAs(BEN);
  const marker = unique('group');
  await signInAs(MEMBER_EMAIL, '/');
  await expect(page.getByRole('article').first()).toBeVisible();

  await page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('button', { name: 'Post' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Create Post' });
  const field = dialog.getByRole('textbox', { name: "What's happening on campus?" });
  await field.pressSequentially('Study group tonight with @Ben');
  const list = dialog.getByRole('listbox', { name: 'Members to mention' });
  const option = list.getByRole('option', { name: /Ben Larsen/ });
  await expect(option).toBeVisible();
  // the field points at the list and its active option
  await expect(field).toHaveAttribute('aria-controls', (await list.getAttribute('id'))!);
  await expectNoSeriousA11yViolations(page, testInfo, 'composer with mention suggestions');
  // at most 8 members are offered: ArrowDown reaches Ben within them
  for (let step = 0; step < 8 && (await option.getAttribute('aria-selected')) !== 'true'; step++) {
    await field.press('ArrowDown');
  }
  await expect(field).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id'))!);
  await field.press('Enter');
  await expect(list).toBeHidden();
  await expect(field).toHaveValue('Study group tonight with @Ben Larsen ');
  await field.pressSequentially(`#StudyGroup ${marker}`);
  await dialog.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(toast(page)).toContainText('Post created successfully!');

  const card = cardWith(page, marker);
  await expect(card.getByRole('link', { name: '@Ben Larsen' })).toHaveAttribute(
    'href',
    `/profile/${ben.user.id}`,
  );
  await expect(card.getByRole('link', { name: '#StudyGroup' })).toHaveAttribute(
    'href',
    '/tags/studygroup',
  );
  const postHref = await card.getByRole('link', { name: /^Open post,/ }).getAttribute('href');
  expect(postHref).toMatch(/^\/post\/\d+$/);
  await card.getByRole('link', { name: '@Ben Larsen' }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/${ben.user.id}$`));

  // Ben's notifications page shows the mention, with the post's words, opening the post.
  const { context, page: benPage } = await contextAs(browser, env, BEN);
  try {
    await benPage.goto('/notifications');
    const item = benPage.getByRole('listitem').filter({ hasText: marker });
    const row = item.getByRole('link', { name: 'Ada Okafor mentioned you in a post (unread)' });
    await expect(row).toBeVisible();
    await expect(row).toHaveAttribute('href', postHref!);
    await row.click();
    await expect(benPage).toHaveURL(new RegExp(`${postHref}$`));
  } finally {
    await context.close();
  }
});

test('a member bookmarks a post from the feed; it stays bookmarked after a reload and is on the Bookmarks page', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const ben = await apiAs(BEN);
  const text = unique('Lecture notes for the algorithms exam');
  await ben.call('POST', '/api/posts', { content: text, syncToProfile: true, isJdTagged: false });
  await signInAs(MEMBER_EMAIL, '/');
  const card = cardWith(page, text);
  const bookmark = card.getByRole('button', { name: 'Bookmark', exact: true });
  await expect(bookmark).toHaveAttribute('aria-pressed', 'false');
  const saved = page.waitForResponse(
    (response) =>
      /\/api\/posts\/\d+\/bookmark$/.test(response.url()) && response.request().method() === 'POST',
  );
  await bookmark.click();
  await expect(card.getByRole('button', { name: 'Remove bookmark' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  expect((await saved).ok()).toBe(true);

  await page.reload();
  await expect(
    cardWith(page, text).getByRole('button', { name: 'Remove bookmark' }),
  ).toHaveAttribute('aria-pressed', 'true');

  // It is on the Bookmarks page (the discovery part's page), bookmarked there too.
  await page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('link', { name: 'Bookmarks' })
    .click();
  await expect(page).toHaveURL(/\/bookmarks$/);
  const kept = page.getByRole('main').getByRole('article').filter({ hasText: text });
  await expect(kept.getByRole('button', { name: 'Remove bookmark' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
});
