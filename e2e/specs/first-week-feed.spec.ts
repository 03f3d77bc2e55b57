import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { E2eEnvironment } from '../support/environment';
import { MEMBER_EMAIL, expect, mailLinkFor, test } from '../support/fixtures';

// Issue 41, the feed's part: composing within the limits, a comment notification's link to its
// comment, one action bar on the post page, an empty Following tab that leads to people, and
// controls a fingertip can hit on a phone.
const BEN_EMAIL = 'ben.larsen@campus.edu';
const unique = (text: string) => `${text} ${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

/** The element's box, which is its hit area (padding included). */
async function sizeOf(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box, 'the control is on the page').not.toBeNull();
  return { width: Math.round(box!.width), height: Math.round(box!.height) };
}

/** Every control named fails the 44 x 44 px rule or not: the message lists the small ones. */
async function expectFingerSized(controls: Record<string, Locator>) {
  const small: string[] = [];
  for (const [name, locator] of Object.entries(controls)) {
    const { width, height } = await sizeOf(locator);
    if (width < 44 || height < 44) small.push(`${name}: ${width}x${height}`);
  }
  expect(small, 'controls smaller than 44 x 44 px').toEqual([]);
}

/** A member who follows nobody: registered and verified through the API. */
async function newMember(request: APIRequestContext, env: E2eEnvironment) {
  const email = `e2e.firstweek.${Date.now()}@campus.edu`;
  const password = 'first-week-password-1';
  const registered = await request.post(`${env.apiUrl}/api/auth/register`, {
    data: { name: 'Noor Haddad', email, password },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const token = (await mailLinkFor(env, email, 'verification')).split('/').at(-1);
  const verified = await request.get(`${env.apiUrl}/api/auth/verify/${token}`);
  expect(verified.status(), await verified.text()).toBe(200);
  return { email, password };
}

async function signInWithForm(page: Page, email: string, password: string) {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test('a post over 5000 characters is counted and cannot be sent from the composer', async ({
  page,
  signInAs,
}) => {
  await signInAs(MEMBER_EMAIL, '/');
  await page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('button', { name: 'Post', exact: true })
    .click();
  const composer = page.getByRole('dialog', { name: 'Create Post' });
  const field = composer.getByRole('textbox', { name: "What's happening on campus?" });
  await field.fill('x'.repeat(5001));
  await expect(field).toHaveValue('x'.repeat(5001));
  await expect(composer.getByText('5001/5000')).toBeVisible();
  await expect(composer.getByText('1 character over the limit')).toBeVisible();
  await expect(composer.getByRole('button', { name: 'Post', exact: true })).toBeDisabled();
  await field.press('End');
  await field.press('Backspace');
  await expect(composer.getByText('5000/5000')).toBeVisible();
  await expect(composer.getByRole('button', { name: 'Post', exact: true })).toBeEnabled();
});

test("a comment notification's link opens the post at that comment, highlighted; Ctrl+Enter sends a comment", async ({
  page,
  signInAs,
  apiAs,
}) => {
  const ada = await apiAs(MEMBER_EMAIL);
  const ben = await apiAs(BEN_EMAIL);
  const post = await ada.call<{ id: number }>('POST', '/api/posts', {
    content: unique('Study group for the algorithms exam'),
  });
  let linked = { id: 0 };
  // Twelve comments (a member may write 20 a minute): the linked one is below the first screen.
  for (let i = 1; i <= 12; i++) {
    const comment = await ben.call<{ id: number }>('POST', `/api/posts/${post.id}/comments`, {
      content: `Comment number ${i}`,
    });
    if (i === 11) linked = comment;
  }
  await signInAs(MEMBER_EMAIL, `/post/${post.id}#comment-${linked.id}`);
  const comment = page.locator(`#comment-${linked.id}`);
  await expect(comment).toContainText('Comment number 11');
  await expect(comment).toBeFocused();
  await expect(comment).toBeInViewport();
  await expect(comment).toHaveAttribute('data-linked', '');

  const field = page.getByRole('textbox', { name: 'Write a comment' });
  await field.fill('Count me in');
  await field.press('Control+Enter');
  await expect(field).toHaveValue('');
  await expect
    .poll(
      async () =>
        (await ada.call<{ commentsCount: number }>('GET', `/api/posts/${post.id}`)).commentsCount,
    )
    .toBe(13);
});

test('the post page has the feed\'s action bar; a liked post reads "Liked"; no comments yet is said', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const ben = await apiAs(BEN_EMAIL);
  const post = await ben.call<{ id: number }>('POST', '/api/posts', {
    content: unique('Lab open late on Thursday'),
  });
  await signInAs(MEMBER_EMAIL, `/post/${post.id}`);
  const detail = page.getByRole('article', { name: 'Post by Ben Larsen' });
  const bar = detail.getByRole('group', { name: 'Post actions' });
  await expect(detail.getByText('No comments yet')).toBeVisible();
  await bar.getByRole('button', { name: 'Like (0 likes)' }).click();
  await expect(bar.getByRole('button', { name: 'Liked (1 like)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(bar.getByRole('button', { name: 'Comments (0 comments)' })).toBeVisible();
  await expect(bar.getByRole('button', { name: 'Repost (0 reposts)' })).toBeVisible();
});

test.describe('on a phone (390 x 844)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("the feed's and the post page's controls are at least 44 x 44 px, and your own post's actions sit like others'", async ({
    page,
    signInAs,
    apiAs,
  }) => {
    const ada = await apiAs(MEMBER_EMAIL);
    const ben = await apiAs(BEN_EMAIL);
    const own = await ada.call<{ id: number }>('POST', '/api/posts', {
      content: unique('My own words'),
    });
    const others = await ben.call<{ id: number }>('POST', '/api/posts', {
      content: unique("Ben's words"),
    });
    await signInAs(MEMBER_EMAIL, '/');
    const main = page.getByRole('main');
    await expect(main.getByRole('article').first()).toBeVisible();
    await expectFingerSized({
      'Top Posts': main.getByRole('button', { name: 'Top Posts' }),
      'a post ⋯ menu': main.getByRole('button', { name: 'More actions for this post' }).first(),
    });

    /** Where each action of the post page's bar sits, left to right. */
    const barLayout = async (postId: number) => {
      await page.goto(`/post/${postId}`);
      const bar = main.getByRole('group', { name: 'Post actions' });
      await expect(bar.getByRole('button', { name: /^Like/ })).toBeVisible();
      const boxes = await bar.getByRole('button').evaluateAll((buttons) =>
        buttons.map((button) => {
          const { x, width } = button.getBoundingClientRect();
          return Math.round(x + width / 2);
        }),
      );
      return boxes;
    };
    const ownBar = await barLayout(own.id);
    await expectFingerSized({
      '← Back': main.getByRole('button', { name: '← Back' }),
      Delete: main.getByRole('button', { name: 'Delete', exact: true }),
      'the post ⋯ menu': main.getByRole('button', { name: 'More actions for this post' }),
      'Also post to my timeline': main.getByRole('checkbox', { name: 'Also post to my timeline' }),
      'Post Comment': main.getByRole('button', { name: 'Post Comment' }),
    });
    // The box is still a checkbox a tap toggles.
    const timeline = main.getByRole('checkbox', { name: 'Also post to my timeline' });
    await timeline.tap();
    await expect(timeline).toBeChecked();

    const othersBar = await barLayout(others.id);
    expect(othersBar).toEqual(ownBar);
  });

  test('an empty Following tab leads to people to follow', async ({ page, env, request }) => {
    const { email, password } = await newMember(request, env);
    await signInWithForm(page, email, password);
    await page.getByRole('tab', { name: 'Following' }).click();
    const main = page.getByRole('main');
    await expect(main.getByText('Follow some users to see their posts here')).toBeVisible();
    const find = main.getByRole('link', { name: 'Find people to follow' });
    await expectFingerSized({ 'Find people to follow': find });
    const suggestions = main.getByRole('region', { name: 'Who to follow' });
    await expect(suggestions.getByRole('listitem').first()).toBeVisible();
    await find.click();
    await expect(page).toHaveURL(/\/search\?tab=people$/);
  });
});
