import {
  ADMIN_EMAIL,
  DEMO_PASSWORD,
  MEMBER_EMAIL,
  expect,
  test,
  toast,
  verificationLinkFor,
  type ApiClient,
} from '../support/fixtures';

const BEN = 'ben.larsen@campus.edu';

/** Ada posts `content` and Ben likes it: a fresh unread 'like' notification for Ada. */
async function benLikesANewPostOfAda(
  apiAs: (email: string) => Promise<ApiClient>,
  content: string,
) {
  const ada = await apiAs(MEMBER_EMAIL);
  const post = await ada.call<{ id: number }>('POST', '/api/posts', {
    content,
    syncToProfile: true,
    isJdTagged: false,
  });
  const ben = await apiAs(BEN);
  await ben.call('POST', `/api/posts/${post.id}/like`);
  return post;
}

test('an unread like: preview cut to 100 characters, choosing it opens the post, reads it and the badge follows', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const content = `${Date.now()} ${'long words about the campus library opening hours '.repeat(4)}`;
  const post = await benLikesANewPostOfAda(apiAs, content);
  await signInAs(MEMBER_EMAIL, '/notifications');

  const item = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: 'View post' }) })
    .filter({ hasText: content.slice(0, 40) });
  const row = item.getByRole('link', { name: 'Ben Larsen liked your post (unread)' });
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute('href', `/post/${post.id}`);
  await expect(item.locator('blockquote')).toHaveText(`${content.slice(0, 100)}...`);
  await expect(item.getByRole('link', { name: 'View post' })).toHaveAttribute(
    'href',
    `/post/${post.id}`,
  );

  const sidebarBadge = page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByTestId('unread-badge');
  const unreadBefore = Number(await sidebarBadge.textContent());
  expect(unreadBefore).toBeGreaterThan(0);
  const heading = page.getByRole('heading', { name: /^Notifications/ });
  await expect(heading).toContainText(String(unreadBefore));

  await row.click();
  await expect(page).toHaveURL(new RegExp(`/post/${post.id}$`));
  await page.goBack();
  await expect(
    item.getByRole('link', { name: 'Ben Larsen liked your post', exact: true }),
  ).toBeVisible();
  if (unreadBefore > 1) {
    await expect(sidebarBadge).toHaveText(String(unreadBefore - 1));
    await expect(heading).toContainText(String(unreadBefore - 1));
  } else {
    await expect(sidebarBadge).toBeHidden();
  }
  // the server holds it too
  const ada = await apiAs(MEMBER_EMAIL);
  const list = await ada.call<{ post?: { id: number } | null; isRead: boolean; type: string }[]>(
    'GET',
    '/api/notifications',
  );
  expect(list.find((n) => n.type === 'like' && n.post?.id === post.id)?.isRead).toBe(true);
});

test("'Mark all read' reads everything; the header badge, the button and the sidebar badge go", async ({
  page,
  signInAs,
  apiAs,
}) => {
  await benLikesANewPostOfAda(apiAs, `Mark all read check ${Date.now()}`);
  await signInAs(MEMBER_EMAIL, '/notifications');
  const markAll = page.getByRole('button', { name: 'Mark all read' });
  await expect(markAll).toBeVisible();
  await markAll.click();
  await expect(markAll).toBeHidden();
  await expect(page.getByTestId('page-unread-badge')).toHaveCount(0);
  await expect(
    page.getByRole('complementary', { name: 'Sidebar' }).getByTestId('unread-badge'),
  ).toBeHidden();
  await expect(page.getByRole('link', { name: /\(unread\)$/ })).toHaveCount(0);
  await expect(page.getByTestId('unread-marker')).toHaveCount(0);
});

test("a failing 'Mark all read' says so and keeps the unread items", async ({
  page,
  signInAs,
  apiAs,
}) => {
  await benLikesANewPostOfAda(apiAs, `Failing mark all read ${Date.now()}`);
  await signInAs(MEMBER_EMAIL, '/notifications');
  await page.route('**/api/notifications/read-all', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' }),
  );
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(toast(page)).toContainText('Failed to mark notifications as read.');
  await expect(page.getByRole('button', { name: 'Mark all read' })).toBeVisible();
});

test('five skeleton rows show while the notifications load', async ({ page, signInAs }) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/notifications\?grouped=true/, async (route) => {
    await held;
    await route.continue();
  });
  await signInAs(MEMBER_EMAIL, '/notifications');
  await expect(page.getByTestId('notification-skeleton')).toHaveCount(5);
  release();
  await expect(page.getByTestId('notification-skeleton')).toHaveCount(0);
});

test('follow, comment, reply, feedback and account-application notifications read as such', async ({
  page,
  signInAs,
  apiAs,
  env,
  request,
}) => {
  const ada = await apiAs(MEMBER_EMAIL);
  const ben = await apiAs(BEN);
  const admin = await apiAs(ADMIN_EMAIL);
  // Ben follows the admin (unfollowing first if he already did, which withdraws the old one)
  const adminProfile = await ben.call<{ isFollowing: boolean }>(
    'GET',
    `/api/users/${admin.user.id}`,
  );
  if (adminProfile.isFollowing) await ben.call('POST', `/api/users/${admin.user.id}/follow`);
  await ben.call('POST', `/api/users/${admin.user.id}/follow`);
  // Ben comments on a post of the admin; the admin replies... and Ada replies to the admin's comment
  const post = await admin.call<{ id: number }>('POST', '/api/posts', {
    content: `Office hours moved to Thursday ${Date.now()}`,
  });
  const comment = await admin.call<{ id: number }>('POST', `/api/posts/${post.id}/comments`, {
    content: 'Questions welcome below',
  });
  const thanks = await ben.call<{ id: number }>('POST', `/api/posts/${post.id}/comments`, {
    content: 'Thanks!',
  });
  await ada.call('POST', `/api/posts/${post.id}/comments`, {
    content: 'Is it in room 4?',
    parentId: comment.id,
  });
  const feedback = `${'Please extend the gym hours during exams. '.repeat(6)}${Date.now()}`;
  await ada.call('POST', '/api/feedback', { feedback });
  const applicant = `Alumna ${Date.now()}`;
  const application = await request.post(`${env.apiUrl}/api/account-application`, {
    data: { name: applicant, contactInfo: 'alumna@example.com', message: 'Class of 1999, Physics' },
  });
  expect(application.ok(), await application.text()).toBe(true);

  await signInAs(ADMIN_EMAIL, '/notifications');
  // follows of one day are one row: Ben's may share it with others of today
  await expect(
    page.getByRole('link', { name: /^Ben Larsen.* started following you \(unread\)$/ }),
  ).toBeVisible();
  const benComment = page
    .getByRole('link', { name: 'Ben Larsen commented on your post (unread)' })
    .first();
  // at the comment itself (issue 41)
  await expect(benComment).toHaveAttribute('href', `/post/${post.id}#comment-${thanks.id}`);
  // what was said, not the post's text
  await expect(benComment.locator('blockquote')).toHaveText('Thanks!');
  const adaReply = page
    .getByRole('link', { name: 'Ada Okafor replied to your comment (unread)' })
    .first();
  await expect(adaReply.locator('blockquote')).toHaveText('Is it in room 4?');
  const feedbackItem = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: 'Ada Okafor sent feedback (unread)' }) })
    .first();
  await expect(feedbackItem.locator('blockquote')).toHaveText(`${feedback.slice(0, 200)}...`);
  await expect(feedbackItem.getByRole('link').first()).toHaveAttribute('href', '/admin/feedback');
  const applicationRow = page.getByRole('link', {
    name: `${applicant} applied for account access (unread)`,
  });
  await expect(applicationRow).toContainText('alumna@example.com · Class of 1999, Physics');
  await expect(applicationRow).toHaveAttribute('href', '/admin/applications');
});

test('a member with no notifications sees the empty state', async ({
  page,
  signInAs,
  env,
  request,
}) => {
  const email = `quiet.${Date.now()}@campus.edu`;
  const register = await request.post(`${env.apiUrl}/api/auth/register`, {
    data: { name: 'Quiet Member', email, password: DEMO_PASSWORD },
  });
  expect(register.ok(), await register.text()).toBe(true);
  const link = await verificationLinkFor(env, email);
  const token = link.split('/verify/')[1]!;
  expect((await request.get(`${env.apiUrl}/api/auth/verify/${token}`)).ok()).toBe(true);

  await signInAs(email, '/notifications');
  await expect(page.getByRole('heading', { name: 'No notifications yet' })).toBeVisible();
  await expect(
    page.getByText("You'll see notifications here when others interact with your posts."),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark all read' })).toHaveCount(0);
});
