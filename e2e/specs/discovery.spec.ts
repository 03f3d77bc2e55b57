import { MEMBER_EMAIL, expect, test, type ApiClient } from '../support/fixtures';

// Issue 40: find and be found. A member searches a word and finds a post, opens its tag, follows
// the tag and sees the post in Following (from an author they do not follow), and finds a
// bookmarked post on the Bookmarks page.
const AUTHOR_EMAIL = 'yara.haddad@campus.edu';

/** A word and a tag no other post has (letters and digits only, so both are one text token). */
function uniqueWords() {
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return { word: `zephyrine${stamp}`, tag: `finals${stamp}` };
}

/** The member follows nobody's posts from `author` but the tag's (toggleFollow is a toggle). */
async function notFollowing(member: ApiClient, author: ApiClient) {
  const profile = await member.call<{ isFollowing: boolean }>(
    'GET',
    `/api/users/${author.user.id}`,
  );
  if (profile.isFollowing) await member.call('POST', `/api/users/${author.user.id}/follow`, {});
}

test('search a word, open its tag, follow the tag and see its post in Following', async ({
  page,
  signInAs,
  apiAs,
}) => {
  test.slow(); // a post, a search, a tag page and the feed on a shared machine
  const { word, tag } = uniqueWords();
  const author = await apiAs(AUTHOR_EMAIL);
  const member = await apiAs(MEMBER_EMAIL);
  await notFollowing(member, author);
  const content = `Revision group tonight, bring your ${word} notes #${tag}`;
  await author.call('POST', '/api/posts', { content, isJdTagged: false });

  await signInAs(MEMBER_EMAIL, '/search');
  const field = page.getByRole('searchbox', { name: 'Search people, posts and tags' });
  await field.fill(word);
  await page.getByRole('tab', { name: 'Posts' }).click();
  await expect(page).toHaveURL(new RegExp(`/search\\?.*q=${word}`));
  await expect(page).toHaveURL(/tab=posts/);
  const found = page.getByRole('main').getByRole('article').filter({ hasText: word });
  await expect(found).toBeVisible();

  // The URL is the search: opened afresh, it shows the same results on the same tab.
  await page.goto(`/search?q=${word}&tab=posts`);
  await expect(page.getByRole('tab', { name: 'Posts' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('main').getByRole('article').filter({ hasText: word })).toBeVisible();

  // The tag, from the Tags tab (the post's own #tag link is the kit's renderer: see below).
  await page.getByRole('tab', { name: 'Tags' }).click();
  await page.getByRole('searchbox', { name: 'Search people, posts and tags' }).fill(tag);
  await page
    .getByRole('list', { name: 'Tags' })
    .getByRole('link', { name: new RegExp(`#${tag}`) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/tags/${tag}$`));
  await expect(page.getByRole('heading', { level: 1, name: `#${tag}` })).toBeVisible();
  await expect(page.getByText('1 post', { exact: true })).toBeVisible();
  await expect(page.getByRole('main').getByRole('article').filter({ hasText: word })).toBeVisible();

  const follow = page.getByRole('button', { name: `Follow #${tag}` });
  await expect(follow).toHaveAttribute('aria-pressed', 'false');
  await follow.click();
  await expect(follow).toHaveAttribute('aria-pressed', 'true');
  await expect(follow).toBeEnabled();

  await page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('link', { name: 'Home', exact: true })
    .click();
  const feedTabs = page.getByRole('tablist', { name: 'Feed' });
  await feedTabs.getByRole('tab', { name: 'Following' }).click();
  await expect(page.getByRole('main').getByRole('article').filter({ hasText: word })).toBeVisible();

  // Unfollowed, the tag's post leaves Following again.
  await page.goto(`/tags/${tag}`);
  await page.getByRole('button', { name: `Follow #${tag}` }).click();
  await expect(page.getByRole('button', { name: `Follow #${tag}` })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
});

test('a #tag in a post links to its tag page', async ({ page, signInAs, apiAs }) => {
  // Needs the kit's text renderer (part i40-kit-web), which makes #tags links in every post.
  const { word, tag } = uniqueWords();
  const author = await apiAs(AUTHOR_EMAIL);
  await author.call('POST', '/api/posts', { content: `${word} #${tag}`, isJdTagged: false });
  await signInAs(MEMBER_EMAIL, `/search?q=${word}&tab=posts`);
  const post = page.getByRole('main').getByRole('article').filter({ hasText: word });
  await post.getByRole('link', { name: `#${tag}` }).click();
  await expect(page).toHaveURL(new RegExp(`/tags/${tag}$`));
  await expect(page.getByRole('heading', { level: 1, name: `#${tag}` })).toBeVisible();
});

test('an unknown tag is an empty page, not an error', async ({ page, signInAs }) => {
  const { tag } = uniqueWords();
  await signInAs(MEMBER_EMAIL, `/tags/${tag}`);
  await expect(page.getByRole('heading', { level: 1, name: `#${tag}` })).toBeVisible();
  await expect(page.getByText(`No posts with #${tag} yet.`)).toBeVisible();
  await expect(page.getByText('0 posts', { exact: true })).toBeVisible();
});

test('a bookmarked post is on the Bookmarks page, reached from the sidebar', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const { word } = uniqueWords();
  const author = await apiAs(AUTHOR_EMAIL);
  const member = await apiAs(MEMBER_EMAIL);
  const post = await author.call<{ id: number }>('POST', '/api/posts', {
    content: `Keep this one for later: ${word}`,
    isJdTagged: false,
  });
  // Through the API: the post card's bookmark control is the kit part's (i40-kit-web).
  await member.call('POST', `/api/posts/${post.id}/bookmark`, {});

  await signInAs(MEMBER_EMAIL, '/');
  await page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('link', { name: 'Bookmarks' })
    .click();
  await expect(page).toHaveURL(/\/bookmarks$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Bookmarks' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('article').filter({ hasText: word })).toBeVisible();

  await member.call('DELETE', `/api/posts/${post.id}/bookmark`);
  await page.reload();
  // Loaded (a list or the empty state), and the post is not in it.
  await expect(
    page
      .getByRole('region', { name: 'Bookmarked posts' })
      .or(page.getByText('No bookmarks yet. Bookmark a post to find it here later.')),
  ).toBeVisible();
  await expect(page.getByRole('main').getByRole('article').filter({ hasText: word })).toHaveCount(
    0,
  );
});
