import { expectNoSeriousA11yViolations } from '../support/accessibility';
import { MEMBER_EMAIL, expect, test, toast } from '../support/fixtures';

const BEN_EMAIL = 'ben.larsen@campus.edu';
const unique = (text: string) => `${text} ${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

test('a member edits their comment, reads its earlier version, then deletes it and a replied one', async ({
  page,
  signInAs,
  apiAs,
}, testInfo) => {
  const ben = await apiAs(BEN_EMAIL);
  const ada = await apiAs(MEMBER_EMAIL);
  const post = await ben.call<{ id: number }>('POST', '/api/posts', {
    content: unique('Which lab has free seats this afternoon?'),
  });
  const replied = unique('Lab 3, I think');
  const typo = unique('Lab 5 has plenty of seets');
  const first = await ada.call<{ id: number }>('POST', `/api/posts/${post.id}/comments`, {
    content: replied,
  });
  await ada.call('POST', `/api/posts/${post.id}/comments`, { content: typo });
  const reply = unique('Thanks, on my way');
  await ben.call('POST', `/api/posts/${post.id}/comments`, { content: reply, parentId: first.id });

  await signInAs(MEMBER_EMAIL, `/post/${post.id}`);
  const article = page.getByRole('article').first();
  await expect(article).toContainText('3 comments');
  const mine = page.getByRole('listitem', { name: `Comment by ${ada.user.name}` });

  // Edit the comment with the typo from its '⋯' menu, with the keyboard.
  const typoComment = mine.filter({ hasText: typo });
  const menu = typoComment.getByRole('button', {
    name: `More actions for the comment by ${ada.user.name}`,
  });
  await menu.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Edit' })).toBeFocused();
  await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText([
    'Edit',
    'Delete',
    'Copy link',
  ]);
  await page.keyboard.press('Enter');
  const editDialog = page.getByRole('dialog', { name: 'Edit comment' });
  const field = editDialog.getByLabel('Comment');
  await expect(field).toBeFocused();
  await expect(field).toHaveValue(typo);
  await expectNoSeriousA11yViolations(page, testInfo, 'edit comment dialog');
  const fixed = typo.replace('seets', 'seats');
  await field.fill(fixed);
  await editDialog.getByRole('button', { name: 'Save' }).click();
  await expect(editDialog).toBeHidden();
  const fixedComment = mine.filter({ hasText: fixed });
  await expect(fixedComment).toBeVisible();
  // Focus is back on the menu's button, of the comment now edited.
  await expect(
    fixedComment.getByRole('button', { name: `More actions for the comment by ${ada.user.name}` }),
  ).toBeFocused();
  await expect(page.getByText(typo)).toHaveCount(0);

  // The "edited" mark shows the earlier version.
  await fixedComment.getByRole('button', { name: /^Edited / }).click();
  const history = page.getByRole('dialog', { name: 'Edit history' });
  await expect(history.getByRole('listitem')).toHaveCount(2);
  await expect(history.getByRole('listitem').first()).toContainText(fixed);
  await expect(history.getByRole('listitem').last()).toContainText(typo);
  await page.keyboard.press('Escape');
  await expect(history).toBeHidden();

  // Delete the comment that has a reply: a placeholder keeps the reply in its place.
  await mine
    .filter({ hasText: replied })
    .getByRole('button', { name: `More actions for the comment by ${ada.user.name}` })
    .click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete comment' });
  await expect(confirm).toContainText(
    'Are you sure you want to delete this comment? This action cannot be undone.',
  );
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page)).toContainText('Comment deleted.');
  const placeholder = page.getByRole('listitem', { name: 'Deleted comment' });
  await expect(placeholder).toContainText('This comment was deleted.');
  await expect(
    placeholder.getByRole('list', { name: 'Replies to a deleted comment' }),
  ).toContainText(reply);
  await expect(page.getByText(replied)).toHaveCount(0);
  await expect(article).toContainText('2 comments');

  // Delete the edited one: it goes altogether.
  await fixedComment
    .getByRole('button', { name: `More actions for the comment by ${ada.user.name}` })
    .click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(mine).toHaveCount(0);
  await expect(article).toContainText('1 comment');

  // Ben sees the same thread after a reload: the placeholder, his reply, no text of Ada's.
  await page.reload();
  await expect(page.getByRole('listitem', { name: 'Deleted comment' })).toContainText(reply);
  await expect(page.getByRole('listitem', { name: `Comment by ${ada.user.name}` })).toHaveCount(0);
});

test("a member edits their post from the feed's '⋯' menu; others' posts offer Mute, Block, Report and Copy link", async ({
  page,
  signInAs,
  apiAs,
}) => {
  const ben = await apiAs(BEN_EMAIL);
  const ada = await apiAs(MEMBER_EMAIL);
  const bensText = unique('Study group on Thursday');
  await ben.call('POST', '/api/posts', { content: bensText });
  const draft = unique('Seminar moved to room 12');
  await ada.call('POST', '/api/posts', { content: draft });

  await signInAs(MEMBER_EMAIL, '/');
  const bens = page.getByRole('article').filter({ hasText: bensText });
  await bens.getByRole('button', { name: 'More actions for this post' }).click();
  await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText([
    `Mute ${ben.user.name}`,
    `Block ${ben.user.name}`,
    'Report post',
    'Copy link',
  ]);
  await page.keyboard.press('Escape');

  const card = page.getByRole('article').filter({ hasText: draft });
  await card.getByRole('button', { name: 'More actions for this post' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit post' });
  const corrected = draft.replace('room 12', 'room 21');
  await dialog.getByLabel('Post text').fill(corrected);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const edited = page.getByRole('article').filter({ hasText: corrected });
  await expect(edited).toBeVisible();
  await expect(edited.getByRole('button', { name: /^Edited / })).toBeVisible();
  await expect(page.getByRole('article').filter({ hasText: draft })).toHaveCount(0);
});
