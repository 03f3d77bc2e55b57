import { MEMBER_EMAIL, expect, test, toast } from '../support/fixtures';

const BEN_EMAIL = 'ben.larsen@campus.edu';
const unique = (text: string) => `${text} ${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

test('the tabs, the JD banner and the remembered tab', async ({ page, signInAs }) => {
  await signInAs(MEMBER_EMAIL, '/');
  const forYou = page.getByRole('tab', { name: 'For You' });
  await expect(forYou).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('article').first()).toBeVisible();

  const jd = page.getByRole('tab', { name: /^JD/ });
  await expect(jd).toContainText('Jobs');
  await jd.click();
  const banner = page.getByRole('link', { name: /Explore Opportunities/ });
  await expect(banner).toContainText('Swipe through personalised job recommendations');
  await expect(banner).toHaveAttribute('href', '/opportunities');
  await expect(page.getByRole('article').first()).toContainText('JD');

  await page.reload();
  await expect(page.getByRole('tab', { name: /^JD/ })).toHaveAttribute('aria-selected', 'true');
  await banner.click();
  await expect(page).toHaveURL(/\/opportunities$/);
});

test('For You pages by 20 with Load more; Top Posts shows the trending footer', async ({
  page,
  signInAs,
}) => {
  await signInAs(MEMBER_EMAIL, '/');
  const articles = page.getByRole('article');
  await expect(articles).toHaveCount(20);
  await page.getByRole('button', { name: 'Load more posts' }).click();
  await expect(articles).toHaveCount(40);

  const top = page.getByRole('button', { name: 'Top Posts' });
  await top.click();
  await expect(top).toHaveAttribute('aria-pressed', 'true');
  const footer = page.getByText(/^Showing \d+ trending posts$/);
  await expect(footer).toBeVisible();
  const shown = Number((await footer.textContent())?.match(/\d+/)?.[0]);
  await expect(articles).toHaveCount(shown);
  await expect(page.getByRole('button', { name: 'Load more posts' })).toBeHidden();

  await page.getByRole('button', { name: 'Return to For You feed' }).click();
  await expect(top).toHaveAttribute('aria-pressed', 'false');
  await expect(articles).toHaveCount(20);
  await expect(page.getByRole('button', { name: 'Load more posts' })).toBeVisible();
});

test('the first posts are drawn before the rest of the page, which only adds below them', async ({
  page,
  signInAs,
}) => {
  // Watches every DOM change from the start: how many posts the first change that drew one had,
  // and where the first post was then.
  await page.addInitScript(() => {
    const seen: { first?: number; top?: number } = {};
    (window as unknown as { __firstPosts: typeof seen }).__firstPosts = seen;
    new MutationObserver(() => {
      if (seen.first !== undefined) return;
      const posts = document.querySelectorAll('main article');
      if (posts.length === 0) return;
      seen.first = posts.length;
      seen.top = posts[0]!.getBoundingClientRect().top;
    }).observe(document, { childList: true, subtree: true });
  });
  await signInAs(MEMBER_EMAIL, '/');
  const articles = page.getByRole('main').getByRole('article');
  await expect(articles).toHaveCount(20);
  await expect(page.getByRole('button', { name: 'Load more posts' })).toBeVisible();
  const seen = await page.evaluate(
    () => (window as unknown as { __firstPosts: { first: number; top: number } }).__firstPosts,
  );
  expect(seen.first).toBeGreaterThan(0);
  expect(seen.first).toBeLessThanOrEqual(6);
  expect((await articles.first().boundingBox())!.y).toBeCloseTo(seen.top, 0);
});

test('a post from the composer tagged JD shows on the JD tab', async ({ page, signInAs }) => {
  await signInAs(MEMBER_EMAIL, '/');
  await page.getByRole('tab', { name: /^JD/ }).click();
  await expect(page.getByRole('article').first()).toBeVisible();
  const text = unique('Research assistant wanted in the robotics lab');
  await page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('button', { name: 'Post' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Create Post' });
  await dialog.getByRole('textbox').fill(text);
  await dialog.getByRole('checkbox', { name: 'Tag as JD (Jobs/Admissions)' }).check();
  await dialog.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(toast(page)).toContainText('Post created successfully!');
  const card = page.getByRole('article').filter({ hasText: text });
  await expect(card).toBeVisible();
  await expect(card).toContainText('JD');
});

test('a like shows at once and is kept by the server', async ({ page, signInAs, apiAs }) => {
  const ben = await apiAs(BEN_EMAIL);
  const text = unique('Who is up for the chess club tonight?');
  await ben.call('POST', '/api/posts', { content: text });
  await signInAs(MEMBER_EMAIL, '/');
  const card = page.getByRole('article').filter({ hasText: text });
  const like = card.getByRole('button', { name: 'Like (0 likes)' });
  await like.click();
  await expect(card.getByRole('button', { name: 'Liked (1 like)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.reload();
  await expect(
    page
      .getByRole('article')
      .filter({ hasText: text })
      .getByRole('button', { name: 'Liked (1 like)' }),
  ).toHaveAttribute('aria-pressed', 'true');
});

test('reposting with a comment, and a repost cannot be reposted', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const ben = await apiAs(BEN_EMAIL);
  const text = unique('Free tutoring sessions in the library');
  await ben.call('POST', '/api/posts', { content: text });
  const ada = await signInAs(MEMBER_EMAIL, '/');
  const original = page
    .getByRole('article', { name: 'Post by Ben Larsen' })
    .filter({ hasText: text });
  await original.getByRole('button', { name: 'Repost (0 reposts)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Repost' });
  const comment = dialog.getByRole('textbox', { name: 'Add a comment (optional)' });
  await expect(dialog).toContainText('0/280');
  await comment.fill('Highly recommended');
  await expect(dialog).toContainText('18/280');
  await dialog.getByRole('button', { name: 'Repost', exact: true }).click();
  await expect(toast(page)).toContainText('Post reposted successfully!');
  await expect(dialog).toBeHidden();

  const repost = page
    .getByRole('article', { name: `${ada.name} reposted Ben Larsen` })
    .filter({ hasText: text });
  await expect(repost).toBeVisible();
  await expect(repost).toContainText(`${ada.name} reposted`);
  await expect(repost).toContainText('Highly recommended');
  await expect(repost.getByRole('link', { name: 'Ben Larsen' })).toHaveAttribute(
    'href',
    `/profile/${ben.user.id}`,
  );
  await expect(repost.getByRole('button', { name: /^Repost/ })).toBeDisabled();
  // The member reposted it: the button says so (pressing it again would withdraw a plain repost).
  await expect(original.getByRole('button', { name: 'Repost (1 repost)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  await repost.getByRole('link', { name: 'View original post' }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  await expect(page.getByRole('article', { name: 'Post by Ben Larsen' })).toContainText(text);
});

test('a repost whose original was deleted says so plainly', async ({ page, signInAs, apiAs }) => {
  const ben = await apiAs(BEN_EMAIL);
  const text = unique('This will be withdrawn');
  const post = await ben.call<{ id: number }>('POST', '/api/posts', { content: text });
  const ada = await apiAs(MEMBER_EMAIL);
  const comment = unique('Quoting before it goes');
  await ada.call('POST', `/api/posts/${post.id}/repost`, { comment });
  await ben.call('DELETE', `/api/posts/${post.id}`);
  await signInAs(MEMBER_EMAIL, '/');
  const repost = page.getByRole('article').filter({ hasText: comment });
  await expect(repost).toContainText('The original post has been deleted.');
  await expect(repost).not.toContainText(text);
});

test('coming back from a post restores the loaded pages and the scroll position', async ({
  page,
  signInAs,
}) => {
  await signInAs(MEMBER_EMAIL, '/');
  const articles = page.getByRole('article');
  await expect(articles).toHaveCount(20);
  await page.getByRole('button', { name: 'Load more posts' }).click();
  await expect(articles).toHaveCount(40);
  const target = articles.nth(30);
  await target.scrollIntoViewIfNeeded();
  const scrolledTo = await page.evaluate(() => window.scrollY);
  expect(scrolledTo).toBeGreaterThan(500);
  await target
    .getByRole('link', { name: /^Open (post|repost),/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  await page.getByRole('button', { name: '← Back' }).click();
  await expect(articles).toHaveCount(40);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolledTo - 100);
  expect(await page.evaluate(() => window.scrollY)).toBeLessThan(scrolledTo + 100);
});

test("'Show more' appears only on a post longer than 5 lines", async ({
  page,
  signInAs,
  apiAs,
}) => {
  const ben = await apiAs(BEN_EMAIL);
  const short = unique('Short and sweet');
  const long = unique('Long read');
  await ben.call('POST', '/api/posts', { content: short });
  await ben.call('POST', '/api/posts', {
    content: `${long}\n${Array.from({ length: 12 }, (_, line) => `Line ${line + 1}`).join('\n')}`,
  });
  await signInAs(MEMBER_EMAIL, '/');
  const longCard = page.getByRole('article').filter({ hasText: long });
  await expect(longCard).toBeVisible();
  // The paragraph is cut after 5 lines: its text runs past its box (line 12 is not shown).
  // (Its box is on screen either way, so toBeInViewport cannot tell; an absent card would pass it.)
  const text = longCard.getByText('Line 12');
  const clipped = () => text.evaluate((p) => p.scrollHeight > p.clientHeight + 1);
  await expect.poll(clipped).toBe(true);
  const more = longCard.getByRole('button', { name: 'Show more' });
  await more.click();
  await expect(longCard.getByRole('button', { name: 'Show less' })).toBeVisible();
  await expect.poll(clipped).toBe(false);
  await expect(page).toHaveURL(/\/$/);
  const shortCard = page.getByRole('article').filter({ hasText: short });
  await expect(shortCard).toBeVisible();
  await expect(shortCard.getByRole('button', { name: 'Show more' })).toHaveCount(0);
});

test("the feed's error state offers Retry, which brings the feed", async ({ page, signInAs }) => {
  let failing = true;
  await page.route(/\/api\/posts\?/, (route) =>
    failing ? route.fulfill({ status: 503, body: '{"message":"down"}' }) : route.fallback(),
  );
  await signInAs(MEMBER_EMAIL, '/');
  await expect(page.getByRole('heading', { name: 'Failed to fetch posts' })).toBeVisible();
  failing = false;
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('article').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Failed to fetch posts' })).toHaveCount(0);
});

test("another member's new post waits behind the '{n} new posts' pill", async ({
  page,
  signInAs,
  apiAs,
}) => {
  await signInAs(MEMBER_EMAIL, '/');
  const articles = page.getByRole('article');
  await expect(articles).toHaveCount(20);
  const firstBefore = await articles.first().getAttribute('aria-label');
  const firstText = await articles.first().innerText();

  const ben = await apiAs(BEN_EMAIL);
  const text = unique('Just in: the library stays open all night');
  await ben.call('POST', '/api/posts', { content: text });

  const pill = page.getByRole('button', { name: /^1 new post$/ });
  await expect(pill).toBeVisible({ timeout: 15_000 });
  // Nothing moved while the member was reading.
  await expect(page.getByRole('article').filter({ hasText: text })).toHaveCount(0);
  expect(await articles.first().getAttribute('aria-label')).toBe(firstBefore);
  expect(await articles.first().innerText()).toBe(firstText);

  await pill.click();
  await expect(articles.first()).toContainText(text);
  await expect(pill).toBeHidden();
  // The posts read before are still there below the new one.
  await expect(articles.filter({ hasText: firstText.split('\n')[0]! }).first()).toBeVisible();
});

test.describe('Who to follow', () => {
  test('sits in a right column on a desktop, with working follow buttons', async ({
    page,
    signInAs,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAs(MEMBER_EMAIL, '/');
    const card = page.getByRole('region', { name: 'Who to follow' });
    await expect(card).toBeVisible();
    const feedBox = await page.getByRole('region', { name: 'Home feed' }).boundingBox();
    const cardBox = await card.boundingBox();
    expect(cardBox!.x).toBeGreaterThanOrEqual(feedBox!.x + feedBox!.width - 1);
    const person = card.getByRole('listitem').first();
    await person.getByRole('button', { name: 'Follow' }).click();
    await expect(toast(page)).toContainText('Follow status updated!');
    await expect(person.getByRole('button', { name: /Following|Unfollow/ })).toBeVisible();
    // Undo, so other specs see the demo follows as they were.
    await person.getByRole('button', { name: /Following|Unfollow/ }).click();
    await expect(person.getByRole('button', { name: 'Follow' })).toBeVisible();
  });

  test('sits inside the feed on a phone', async ({ page, signInAs }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAs(MEMBER_EMAIL, '/');
    const card = page.getByRole('region', { name: 'Who to follow' });
    await expect(card).toHaveCount(1);
    const feed = page.getByRole('region', { name: 'Home feed' });
    await expect(feed.getByRole('region', { name: 'Who to follow' })).toHaveCount(1);
  });
});
