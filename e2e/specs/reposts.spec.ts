import { MEMBER_EMAIL, expect, test, toast } from '../support/fixtures';

// Issue 20: reposts credit the original. A plain repost (no quote) and a comment shared to the
// timeline act on the original post: its likes, its comment thread, its detail page.
const BEN_EMAIL = 'ben.larsen@campus.edu';
const CHIARA_EMAIL = 'chiara.rossi@campus.edu';
const unique = (text: string) => `${text} ${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

interface PostShape {
  id: number;
  likesCount: number;
  repostsCount: number;
  isReposted: boolean;
}

test('a like on a plain repost is counted on the original, and the card opens the original', async ({
  page,
  signInAs,
  apiAs,
}) => {
  test.slow(); // two page loads, a reload and a redirect on a shared 2-core machine
  const ben = await apiAs(BEN_EMAIL);
  const chiara = await apiAs(CHIARA_EMAIL);
  const text = unique('Robotics demo day on Friday');
  const original = await ben.call<PostShape>('POST', '/api/posts', { content: text });
  const repost = await chiara.call<PostShape>('POST', `/api/posts/${original.id}/repost`, {});
  const ada = await apiAs(MEMBER_EMAIL);

  await signInAs(MEMBER_EMAIL, '/');
  const card = page
    .getByRole('article', { name: `${chiara.user.name} reposted Ben Larsen` })
    .filter({ hasText: text });
  await card.getByRole('button', { name: 'Like (0 likes)' }).click();
  await expect(card.getByRole('button', { name: 'Liked (1 like)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // The server counted the like on Ben's post, not on Chiara's repost.
  await expect
    .poll(async () => (await ada.call<PostShape>('GET', `/api/posts/${original.id}`)).likesCount)
    .toBe(1);
  expect((await ada.call<PostShape>('GET', `/api/posts/${repost.id}`)).likesCount).toBe(0);

  // Ben's own card shows the same like once the feed is read again.
  await page.reload();
  const originalCard = page
    .getByRole('article', { name: 'Post by Ben Larsen' })
    .filter({ hasText: text });
  await expect(originalCard.getByRole('button', { name: 'Liked (1 like)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // Comments on the repost's card lead to the original's thread, with the comment box ready.
  await card.getByRole('button', { name: /^Comments/ }).click();
  await expect(page).toHaveURL(new RegExp(`/post/${original.id}$`));
  await expect(page.getByRole('textbox', { name: 'Write a comment' })).toBeFocused();
  await expect(page.getByRole('article', { name: 'Post by Ben Larsen' })).toContainText('1 like');

  // A link straight to the plain repost opens the original too.
  await page.goto(`/post/${repost.id}`);
  await expect(page).toHaveURL(new RegExp(`/post/${original.id}$`));
});

test('the Repost button reposts, then withdraws the member’s own repost', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const ben = await apiAs(BEN_EMAIL);
  const text = unique('Lost and found: a blue umbrella');
  const original = await ben.call<PostShape>('POST', '/api/posts', { content: text });
  const ada = await signInAs(MEMBER_EMAIL, '/');

  const card = page.getByRole('article', { name: 'Post by Ben Larsen' }).filter({ hasText: text });
  await card.getByRole('button', { name: 'Repost (0 reposts)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Repost' });
  await dialog.getByRole('button', { name: 'Repost', exact: true }).click();
  await expect(toast(page)).toContainText('Post reposted successfully!');
  const mine = page
    .getByRole('article', { name: `${ada.name} reposted Ben Larsen` })
    .filter({ hasText: text });
  await expect(mine).toBeVisible();
  const button = card.getByRole('button', { name: 'Repost (1 repost)' });
  await expect(button).toHaveAttribute('aria-pressed', 'true');

  await button.click();
  await expect(toast(page)).toContainText('Your repost was removed.');
  await expect(card.getByRole('button', { name: 'Repost (0 reposts)' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await expect(mine).toHaveCount(0);
  const after = await ben.call<PostShape>('GET', `/api/posts/${original.id}`);
  expect(after.repostsCount).toBe(0);
});

test('a comment shared to the timeline reads as a comment on the post', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const ben = await apiAs(BEN_EMAIL);
  const chiara = await apiAs(CHIARA_EMAIL);
  const text = unique('Study group for the statistics exam?');
  const original = await ben.call<PostShape>('POST', '/api/posts', { content: text });
  const said = unique('Count me in');
  await chiara.call('POST', `/api/posts/${original.id}/comments`, {
    content: said,
    syncToTimeline: true,
  });

  await signInAs(MEMBER_EMAIL, '/');
  const card = page
    .getByRole('article', { name: `${chiara.user.name} commented on Ben Larsen's post` })
    .filter({ hasText: said });
  await expect(card).toContainText(`${chiara.user.name} commented`);
  await expect(card).not.toContainText('reposted');
  await expect(card).toContainText(text);
  await card.getByText(said).click();
  await expect(page).toHaveURL(new RegExp(`/post/${original.id}$`));
  await expect(
    page.getByRole('listitem', { name: `Comment by ${chiara.user.name}` }),
  ).toContainText(said);
});
