import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { E2eEnvironment } from '../support/environment';
import { expect, mailLinkFor, signInContext, test, toast } from '../support/fixtures';

// Issue 38: a member blocks another from the ⋯ menu of a post; neither then sees the other in
// the feeds, people search, the profile or the notifications; the block is undone from
// Settings → Privacy and safety. Two new members, so that no other spec's members are touched.
const PASSWORD = 'safety-password-1';

interface NewMember {
  id: number;
  name: string;
  email: string;
  call<T>(method: string, path: string, data?: unknown): Promise<T>;
}

async function newMember(
  request: APIRequestContext,
  env: E2eEnvironment,
  name: string,
): Promise<NewMember> {
  const email = `e2e.safety.${name.split(' ')[0]!.toLowerCase()}.${Date.now()}@campus.edu`;
  const registered = await request.post(`${env.apiUrl}/api/auth/register`, {
    data: { name, email, password: PASSWORD },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const token = (await mailLinkFor(env, email, 'verification')).split('/').at(-1);
  const verified = await request.get(`${env.apiUrl}/api/auth/verify/${token}`);
  expect(verified.status(), await verified.text()).toBe(200);
  const login = await request.post(`${env.apiUrl}/api/auth/login`, {
    data: { email, password: PASSWORD },
  });
  const { user, token: bearer } = (await login.json()) as { user: { id: number }; token: string };
  return {
    id: user.id,
    name,
    email,
    async call<T>(method: string, path: string, data?: unknown) {
      const response = await request.fetch(`${env.apiUrl}${path}`, {
        method,
        data,
        headers: { Authorization: `Bearer ${bearer}` },
      });
      expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
      const text = await response.text();
      return (text ? JSON.parse(text) : null) as T;
    },
  };
}

/** A page of its own for `member`, signed in as the shell's form does, opened at `path`. */
async function pageOf(browser: Browser, env: E2eEnvironment, member: NewMember, path: string) {
  const context = await browser.newContext({ baseURL: env.shellUrl });
  const page = await context.newPage();
  const response = await signInContext(page, env, member.email, PASSWORD);
  const { user } = (await response.json()) as {
    user: { id: number; name: string; email: string; avatarUrl: string | null };
  };
  await page.addInitScript(
    (stored) => window.localStorage.setItem('campus.auth', stored),
    JSON.stringify({ user }),
  );
  await page.goto(path);
  return page;
}

const postCard = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text });

async function searchPeople(page: Page, name: string) {
  await page.goto('/search');
  await page.getByRole('searchbox', { name: 'Search people' }).fill(name);
}

test('a member blocks another from the ⋯ menu; neither sees the other anywhere; unblocked from Settings', async ({
  browser,
  request,
  env,
}) => {
  test.slow(); // two members registered, two browsers, a dozen page loads on a shared machine
  const stamp = Date.now().toString(36);
  const bo = await newMember(request, env, `Bo Safety${stamp}`);
  const cy = await newMember(request, env, `Cy Safety${stamp}`);
  await bo.call('POST', `/api/users/${cy.id}/follow`, {});
  await cy.call('POST', `/api/users/${bo.id}/follow`, {});
  const bosPost = await bo.call<{ id: number }>('POST', '/api/posts', {
    content: `Bo's post ${stamp}`,
  });
  await cy.call('POST', '/api/posts', { content: `Cy's post ${stamp}` });
  await cy.call('POST', `/api/posts/${bosPost.id}/like`);

  const boPage = await pageOf(browser, env, bo, '/');
  const cysCard = postCard(boPage, `Cy's post ${stamp}`);
  await expect(cysCard).toBeVisible();
  await cysCard.getByRole('button', { name: 'More actions for this post' }).click();
  await boPage.getByRole('menuitem', { name: `Block ${cy.name}` }).click();
  const dialog = boPage.getByRole('dialog', { name: `Block ${cy.name}?` });
  await dialog.getByRole('button', { name: 'Block' }).click();
  await expect(toast(boPage)).toContainText('Blocked');
  // The feed is read again without Cy: For You and Following.
  await expect(cysCard).toHaveCount(0);
  await expect(postCard(boPage, `Bo's post ${stamp}`)).toBeVisible();
  await boPage.getByRole('tab', { name: 'Following' }).click();
  await expect(postCard(boPage, `Bo's post ${stamp}`)).toBeVisible();
  await expect(postCard(boPage, `Cy's post ${stamp}`)).toHaveCount(0);

  // Search, profile, notifications: Cy is nowhere for Bo.
  await searchPeople(boPage, cy.name);
  await expect(boPage.getByText('No people found')).toBeVisible();
  await boPage.goto(`/profile/${cy.id}`);
  await expect(boPage.getByText('User not found')).toBeVisible();
  await boPage.goto('/notifications');
  await expect(boPage.getByRole('heading', { name: /^Notifications/ })).toBeVisible();
  await expect(boPage.getByText(`${cy.name} liked your post`)).toHaveCount(0);
  // Cy's like is not counted as unread either.
  await expect(
    boPage.getByRole('complementary', { name: 'Sidebar' }).getByTestId('unread-badge'),
  ).toHaveCount(0);

  // And Bo is nowhere for Cy, who is not told.
  const cyPage = await pageOf(browser, env, cy, '/');
  await expect(postCard(cyPage, `Cy's post ${stamp}`)).toBeVisible();
  await expect(postCard(cyPage, `Bo's post ${stamp}`)).toHaveCount(0);
  await searchPeople(cyPage, bo.name);
  await expect(cyPage.getByText('No people found')).toBeVisible();
  await cyPage.goto(`/profile/${bo.id}`);
  await expect(cyPage.getByText('User not found')).toBeVisible();

  // Bo unblocks Cy from Settings → Privacy and safety.
  await boPage.goto('/settings');
  const blocked = boPage.getByRole('region', { name: 'Blocked members' });
  await blocked.getByRole('button', { name: `Unblock ${cy.name}` }).click();
  await expect(blocked.getByText('You have not blocked anyone.')).toBeVisible();
  await expect(boPage.getByRole('heading', { name: 'Blocked members' })).toBeFocused();
  // Back on For You (the feed remembers the Following tab, where Cy no longer is: the block
  // ended the follows, and the unblock does not bring them back).
  await boPage.goto('/');
  await boPage.getByRole('tab', { name: 'For You' }).click();
  await expect(postCard(boPage, `Cy's post ${stamp}`)).toBeVisible();
  await boPage.context().close();
  await cyPage.context().close();
});

test('a word muted in Settings collapses the posts that contain it, as a row that opens', async ({
  browser,
  request,
  env,
}) => {
  test.slow(); // a member registered and four page loads on a shared machine
  const stamp = Date.now().toString(36);
  const di = await newMember(request, env, `Di Safety${stamp}`);
  const ed = await newMember(request, env, `Ed Safety${stamp}`);
  const word = `zorblax${stamp}`;
  await ed.call('POST', '/api/posts', { content: `Spoilers about #${word.toUpperCase()} ahead` });
  await ed.call('POST', '/api/posts', { content: `Nothing muted here ${stamp}` });

  const page = await pageOf(browser, env, di, '/settings');
  await page.getByLabel('Word or phrase to mute').fill(word);
  await page.getByLabel('For how long').selectOption({ label: '7 days' });
  await page.getByRole('button', { name: 'Mute word' }).click();
  const words = page.getByRole('region', { name: 'Muted words and phrases' });
  await expect(words.getByText(word)).toBeVisible();

  await page.goto('/');
  await page.getByRole('tab', { name: 'For You' }).click();
  await expect(postCard(page, `Nothing muted here ${stamp}`)).toBeVisible();
  const row = page.getByRole('group', { name: `Hidden post by ${ed.name}` });
  await expect(row).toContainText('Hidden: contains a muted word');
  await expect(page.getByText(`Spoilers about #${word.toUpperCase()} ahead`)).toHaveCount(0);
  await row.getByRole('button', { name: 'Show' }).click();
  await expect(postCard(page, `Spoilers about #${word.toUpperCase()} ahead`)).toBeVisible();
  await page.context().close();
});
