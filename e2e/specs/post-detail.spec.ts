import { MEMBER_EMAIL, expect, test, toast } from '../support/fixtures';

const BEN_EMAIL = 'ben.larsen@campus.edu';
const unique = (text: string) => `${text} ${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

test('opening a post from the feed, then Back', async ({ page, signInAs, apiAs }) => {
  const ben = await apiAs(BEN_EMAIL);
  const text = unique('Lecture notes for week 5 are up');
  const post = await ben.call<{ id: number }>('POST', '/api/posts', {
    content: text,
    isJdTagged: true,
  });
  await signInAs(MEMBER_EMAIL, '/');
  await page.getByRole('article').filter({ hasText: text }).getByText(text).click();
  await expect(page).toHaveURL(new RegExp(`/post/${post.id}$`));
  const detail = page.getByRole('article', { name: 'Post by Ben Larsen' });
  await expect(detail).toContainText(text);
  await expect(detail).toContainText('JD');
  await expect(detail).toContainText('0 likes');
  await expect(detail.getByRole('link', { name: 'Ben Larsen' }).first()).toHaveAttribute(
    'href',
    `/profile/${ben.user.id}`,
  );
  // The feed's action bar (issue 41): icons with their counts.
  for (const name of ['Like (0 likes)', 'Comments (0 comments)', 'Repost (0 reposts)']) {
    await expect(detail.getByRole('button', { name, exact: true })).toBeVisible();
  }
  await expect(detail.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await detail.getByRole('button', { name: 'Like (0 likes)', exact: true }).click();
  await expect(detail.getByRole('button', { name: 'Liked (1 like)' })).toBeVisible();
  await expect(detail).toContainText('1 like');

  await page.getByRole('button', { name: '← Back' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('tab', { name: 'For You' })).toBeVisible();
});

test('a post opened directly goes home from Back; a missing post says so', async ({
  page,
  signInAs,
}) => {
  await signInAs(MEMBER_EMAIL, '/post/99999999');
  await expect(page.getByRole('heading', { name: 'Post not found' })).toBeVisible();
  await expect(page.getByText("This post doesn't exist or has been deleted.")).toBeVisible();
  await page.getByRole('button', { name: '← Back' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('commenting, sharing the comment to the timeline, replying and liking a comment', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const ben = await apiAs(BEN_EMAIL);
  const text = unique('Which elective should I take next term?');
  const post = await ben.call<{ id: number }>('POST', '/api/posts', { content: text });
  const ada = await signInAs(MEMBER_EMAIL, `/post/${post.id}`);

  const form = page.getByRole('form', { name: 'Add a comment' });
  const submit = form.getByRole('button', { name: 'Post Comment' });
  await expect(submit).toBeDisabled();
  await form.getByRole('textbox').fill('   ');
  await expect(submit).toBeDisabled();
  const comment = unique('Take machine learning');
  await form.getByRole('textbox').fill(`  ${comment}  `);
  await form.getByRole('checkbox', { name: 'Also post to my timeline' }).check();
  await submit.click();
  const thread = page.getByRole('listitem', { name: `Comment by ${ada.name}` }).filter({
    hasText: comment,
  });
  await expect(thread).toBeVisible();
  await expect(form.getByRole('textbox')).toHaveValue('');
  await expect(page.getByRole('article').first()).toContainText('1 comment');

  await thread.getByRole('button', { name: `Reply to ${ada.name}` }).click();
  const replyForm = page.getByRole('form', { name: `Reply to ${ada.name}` });
  await replyForm.getByRole('textbox').fill('And statistics too');
  await replyForm.getByRole('button', { name: 'Post Reply' }).click();
  await expect(thread.getByRole('list', { name: `Replies to ${ada.name}` })).toContainText(
    'And statistics too',
  );

  await thread
    .getByRole('button', { name: `Like comment by ${ada.name} (0 likes)` })
    .first()
    .click();
  await expect(
    thread.getByRole('button', { name: `Like comment by ${ada.name} (1 like)` }),
  ).toHaveAttribute('aria-pressed', 'true');

  // The shared comment is on Ada's timeline as a quote of Ben's post.
  await page.goto('/');
  await expect(page.getByRole('article').filter({ hasText: comment }).first()).toContainText(text);
});

test('the author deletes a post after confirming, and lands on the feed without it', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const ada = await apiAs(MEMBER_EMAIL);
  const text = unique('Posted by mistake');
  const post = await ada.call<{ id: number }>('POST', '/api/posts', { content: text });
  await signInAs(MEMBER_EMAIL, '/');
  await page.getByRole('article').filter({ hasText: text }).getByText(text).click();
  await expect(page).toHaveURL(new RegExp(`/post/${post.id}$`));
  const deleteButton = page.getByRole('button', { name: 'Delete' });
  await deleteButton.click();
  const dialog = page.getByRole('dialog', { name: 'Delete post' });
  await expect(dialog).toContainText(
    'Are you sure you want to delete this post? This action cannot be undone.',
  );
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(deleteButton).toBeFocused();

  await deleteButton.click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page)).toContainText('Post deleted successfully!');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('article').first()).toBeVisible();
  await expect(page.getByRole('article').filter({ hasText: text })).toHaveCount(0);
});

test('Comment focuses the comment box and Repost opens the repost dialog', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const ben = await apiAs(BEN_EMAIL);
  const text = unique('Bike repair workshop on Saturday');
  const post = await ben.call<{ id: number }>('POST', '/api/posts', { content: text });
  await signInAs(MEMBER_EMAIL, `/post/${post.id}`);
  const detail = page.getByRole('article', { name: 'Post by Ben Larsen' });
  await detail.getByRole('button', { name: /^Comments \(/ }).click();
  await expect(page.getByRole('textbox', { name: 'Write a comment' })).toBeFocused();

  const repost = detail.getByRole('button', { name: /^Repost \(/ });
  await repost.click();
  const dialog = page.getByRole('dialog', { name: 'Repost' });
  await expect(dialog.getByRole('textbox', { name: 'Add a comment (optional)' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(repost).toBeFocused();
  await repost.click();
  await dialog.getByRole('button', { name: 'Repost', exact: true }).click();
  await expect(toast(page)).toContainText('Post reposted successfully!');
  await expect(repost).toHaveAttribute('aria-pressed', 'true');
  await expect(detail).toContainText('1 repost');
});
