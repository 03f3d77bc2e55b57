import { MEMBER_EMAIL, expect, test } from '../support/fixtures';

// Issue 20: members' text (links, direction), times that live, controls a finger can hit.
const BEN_EMAIL = 'ben.larsen@campus.edu';
const unique = (text: string) => `${text} ${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

test('web addresses in posts and comments are links that leave Campus safely', async ({
  page,
  signInAs,
  apiAs,
}) => {
  test.slow(); // the feed, a second tab and the post detail on a shared 2-core machine
  const ben = await apiAs(BEN_EMAIL);
  const text = unique('Slides:');
  const post = await ben.call<{ id: number }>('POST', '/api/posts', {
    content: `${text} https://example.org/slides?week=5 and www.example.com`,
  });
  await ben.call('POST', `/api/posts/${post.id}/comments`, {
    content: 'Recording at https://example.net/rec',
  });
  await signInAs(MEMBER_EMAIL, '/');
  const card = page.getByRole('article').filter({ hasText: text });
  const link = card.getByRole('link', { name: 'https://example.org/slides?week=5' });
  await expect(link).toHaveAttribute('href', 'https://example.org/slides?week=5');
  await expect(link).toHaveAttribute('rel', 'noopener nofollow ugc');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(card.getByRole('link', { name: 'www.example.com' })).toHaveAttribute(
    'href',
    'https://www.example.com',
  );

  // Following the link opens a tab of its own and leaves the feed where it was.
  await page.route('https://example.org/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>slides</title>' }),
  );
  const popup = page.waitForEvent('popup');
  await link.click();
  const opened = await popup;
  expect(await opened.evaluate(() => window.opener)).toBeNull();
  await opened.close();
  await expect(page).toHaveURL(/\/$/);

  await page.goto(`/post/${post.id}`);
  const comment = page.getByRole('listitem', { name: 'Comment by Ben Larsen' });
  await expect(comment.getByRole('link', { name: 'https://example.net/rec' })).toHaveAttribute(
    'rel',
    'noopener nofollow ugc',
  );
});

test('Arabic and Hebrew text reads right to left beside English', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const ben = await apiAs(BEN_EMAIL);
  const english = unique('Welcome everyone to campus');
  const arabic = unique('مرحبا بالجميع في الحرم الجامعي');
  await ben.call('POST', '/api/posts', { content: english });
  await ben.call('POST', '/api/posts', { content: arabic });
  await signInAs(MEMBER_EMAIL, '/');
  for (const [text, direction] of [
    [arabic, 'rtl'],
    [english, 'ltr'],
  ] as const) {
    const shown = page.getByRole('article').getByText(text);
    await expect(shown).toHaveAttribute('dir', 'auto');
    expect(await shown.evaluate((node) => getComputedStyle(node).direction)).toBe(direction);
  }
});

// (That they move on every minute is the kit's TimeAgo unit test, on a fake clock.)
test('times are <time datetime> with the exact moment on hover and for screen readers', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const ben = await apiAs(BEN_EMAIL);
  const text = unique('Fresh off the press');
  await ben.call('POST', '/api/posts', { content: text });
  await signInAs(MEMBER_EMAIL, '/');
  const card = page.getByRole('article').filter({ hasText: text });
  const time = card.locator('time').first();
  await expect(time).toContainText('just now');
  await expect(time).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  const exact = await time.getAttribute('title');
  expect(exact).toMatch(/\d{4} at \d{1,2}:\d\d/);
  await expect(card.getByRole('link', { name: `Open post, just now (${exact})` })).toBeVisible();
});

test.describe('on a phone (390 x 844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('like, comment and repost controls are at least 44 x 44 px', async ({
    page,
    signInAs,
    apiAs,
  }) => {
    const ben = await apiAs(BEN_EMAIL);
    const text = unique('Thumb-sized buttons');
    const post = await ben.call<{ id: number }>('POST', '/api/posts', { content: text });
    await signInAs(MEMBER_EMAIL, '/');
    const card = page.getByRole('article').filter({ hasText: text });
    for (const name of [/^Like \(/, /^Comments \(/, /^Repost \(/]) {
      const box = await card.getByRole('button', { name }).boundingBox();
      expect(box!.width, `${name}`).toBeGreaterThanOrEqual(44);
      expect(box!.height, `${name}`).toBeGreaterThanOrEqual(44);
    }
    await page.goto(`/post/${post.id}`);
    const detail = page.getByRole('article', { name: 'Post by Ben Larsen' });
    for (const name of [/^Like \(/, /^Comments \(/, /^Repost \(/]) {
      const box = await detail.getByRole('button', { name }).boundingBox();
      expect(box!.width, `${name}`).toBeGreaterThanOrEqual(44);
      expect(box!.height, `${name}`).toBeGreaterThanOrEqual(44);
    }
  });

  test('a long name ends in an ellipsis inside the card', async ({ page, signInAs, apiAs }) => {
    const ben = await apiAs(BEN_EMAIL);
    const text = unique('Names can be long');
    await ben.call('POST', '/api/posts', { content: text });
    await signInAs(MEMBER_EMAIL, '/');
    const card = page.getByRole('article').filter({ hasText: text });
    const name = card.getByRole('link', { name: 'Ben Larsen' }).first();
    // Make the name far wider than the card, as a long real name would be.
    await name.evaluate((node) => {
      node.textContent = 'Ben '.repeat(40) + 'Larsen';
    });
    const style = await name.evaluate((node) => {
      const computed = getComputedStyle(node);
      return {
        overflow: computed.overflow,
        textOverflow: computed.textOverflow,
        whiteSpace: computed.whiteSpace,
        fits:
          node.getBoundingClientRect().right <=
          node.closest('article')!.getBoundingClientRect().right,
        clipped: node.scrollWidth > node.clientWidth,
      };
    });
    expect(style).toEqual({
      overflow: 'hidden',
      textOverflow: 'ellipsis',
      whiteSpace: 'nowrap',
      fits: true,
      clipped: true,
    });
  });
});
