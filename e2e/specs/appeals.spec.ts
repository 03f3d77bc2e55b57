import type { APIRequestContext, Browser, Page, TestInfo } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { E2eEnvironment } from '../support/environment';
import {
  ADMIN_EMAIL,
  DEMO_PASSWORD,
  expect,
  mailLinkFor,
  signInContext,
  test,
  toast,
} from '../support/fixtures';

// Issue 38, reasons and appeals: the admin removes a reported post with a reason, its author
// reads the reason in their notifications and appeals, the admin lifts the decision from the
// appeals queue, and the post is back, the author told and the audit log says so. A suspended
// member appeals from the sign-in page.

const PASSWORD = 'appeals-password-1';

// Two people in their own browsers on a busy 2-core machine.
test.describe.configure({ timeout: 120_000 });

/**
 * Axe (WCAG 2.1 A/AA) on what `page` shows now: serious and critical findings fail (as in
 * admin-operations.spec.ts: a signed-in page never goes network-idle, so the caller waits).
 */
async function expectAccessible(page: Page, testInfo: TestInfo, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  await testInfo.attach(`axe: ${screen}`, {
    body: JSON.stringify(results.violations, null, 2),
    contentType: 'application/json',
  });
  const blocking = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${screen}: ${violation.id} (${violation.impact}) ${violation.help}`);
  expect(blocking, blocking.join('\n')).toEqual([]);
}

/** A new, verified member, registered and verified through the API and the outbox. */
async function newMember(request: APIRequestContext, env: E2eEnvironment, label: string) {
  const stamp = Date.now();
  const email = `e2e.appeals.${label}.${stamp}@campus.edu`;
  const name = `Appeals ${label} ${stamp % 100_000}`;
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
  expect(login.ok(), await login.text()).toBe(true);
  const { user, token: bearer } = (await login.json()) as {
    user: { id: number };
    token: string;
  };
  return { id: user.id, name, email, token: bearer };
}

/** A browser context signed in as the administrator, as the app leaves it. */
async function adminContext(browser: Browser, env: E2eEnvironment) {
  const context = await browser.newContext({ baseURL: env.shellUrl });
  const page = await context.newPage();
  const login = await signInContext(page, env, ADMIN_EMAIL, DEMO_PASSWORD);
  const { user } = (await login.json()) as { user: object };
  await context.addInitScript(
    (stored) => window.localStorage.setItem('campus.auth', stored),
    JSON.stringify({ user }),
  );
  return { context, page };
}

async function fillSignIn(page: Page, email: string) {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test('a removed post is appealed from its notification and the admin lifts the decision', async ({
  page,
  browser,
  request,
  env,
}, testInfo) => {
  const author = await newMember(request, env, 'author');
  const reporter = await newMember(request, env, 'reporter');
  const content = `Our team mascot is a goat, obviously (${Date.now()})`;
  const created = await request.post(`${env.apiUrl}/api/posts`, {
    data: { content },
    headers: { Authorization: `Bearer ${author.token}` },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const post = (await created.json()) as { id: number };
  const reported = await request.post(`${env.apiUrl}/api/reports`, {
    data: { targetType: 'post', targetId: post.id, category: 'misinformation' },
    headers: { Authorization: `Bearer ${reporter.token}` },
  });
  expect(reported.status(), await reported.text()).toBe(201);

  // The admin finds it under its category and removes it with a reason.
  const { context: adminBrowser, page: admin } = await adminContext(browser, env);
  await admin.goto('/admin/reports');
  await admin.getByLabel('Category').selectOption('misinformation');
  const row = admin.getByRole('article', { name: `Reported post by ${author.name}` });
  await expect(row.getByRole('list', { name: 'Reasons' })).toContainText('Misinformation');
  await row.getByRole('button', { name: `Remove post (post by ${author.name})` }).click();
  const remove = admin.getByRole('dialog', { name: 'Remove post?' });
  await remove.getByRole('radio', { name: 'Misinformation' }).check();
  await remove.getByLabel('Words for the member (optional)').fill('The mascot is a ram.');
  await expectAccessible(admin, testInfo, 'remove with a reason');
  await remove.getByRole('button', { name: 'Remove post' }).click();
  await expect(toast(admin)).toContainText('Removed');

  // The author reads the reason and appeals, once.
  await fillSignIn(page, author.email);
  await expect(toast(page)).toContainText('Welcome back!');
  await page.goto('/notifications');
  const notice = page.getByRole('button', { name: /Campus removed your post after reports/ });
  await expect(notice).toContainText('Reason: Misinformation. The mascot is a ram.');
  await page.getByRole('button', { name: 'Appeal', exact: true }).click();
  const appeal = page.getByRole('dialog', { name: 'Appeal the removal of your post' });
  await expect(appeal.getByLabel('Your appeal')).toBeFocused();
  await appeal.getByLabel('Your appeal').fill('It was a joke: everyone knows the mascot.');
  await expectAccessible(page, testInfo, 'appeal dialog');
  await appeal.getByRole('button', { name: 'Send appeal' }).click();
  await expect(toast(page)).toContainText('Appeal sent');
  await expect(page.getByText('Appeal sent. The Campus team will review it.')).toBeVisible();

  // The admin lifts it from the appeals queue.
  await admin
    .getByRole('navigation', { name: 'Admin pages' })
    .getByRole('link', { name: 'Appeals' })
    .click();
  const pending = admin.getByRole('article', { name: `Appeal by ${author.name}` });
  await expect(pending).toContainText('Reason given: Misinformation (The mascot is a ram.)');
  await expect(pending).toContainText('It was a joke: everyone knows the mascot.');
  await expectAccessible(admin, testInfo, 'admin appeals');
  await pending
    .getByRole('button', { name: `Lift the decision appealed by ${author.name}` })
    .click();
  const lift = admin.getByRole('dialog', { name: 'Lift the decision?' });
  await lift.getByLabel('Words for the member (optional)').fill('Fair enough, go goats.');
  await lift.getByRole('button', { name: 'Lift' }).click();
  await expect(toast(admin)).toContainText('Appeal lifted');
  await expect(admin.getByRole('article', { name: `Appeal by ${author.name}` })).toHaveCount(0);

  // The post is back, the author is told, and the audit log records it.
  await page.goto(`/post/${post.id}`);
  await expect(page.getByText(content)).toBeVisible();
  await page.goto('/notifications');
  await expect(
    page.getByRole('button', { name: /Campus restored your post after your appeal/ }),
  ).toContainText('From the Campus team: Fair enough, go goats.');
  await admin
    .getByRole('navigation', { name: 'Admin pages' })
    .getByRole('link', { name: 'Audit log' })
    .click();
  const audit = admin.getByRole('table', { name: 'Admin actions, newest first' });
  await expect(audit.getByRole('row').nth(1)).toContainText('Lifted on appeal');
  await adminBrowser.close();
});

test('a suspended member reads the reason at sign-in and appeals from there; lifted, they sign in', async ({
  page,
  browser,
  request,
  env,
}, testInfo) => {
  const member = await newMember(request, env, 'suspended');
  const { context: adminBrowser, page: admin } = await adminContext(browser, env);
  const suspended = await admin.request.post(`${env.apiUrl}/api/admin/users/${member.id}/suspend`, {
    data: { category: 'impersonation', reason: 'Posts as the dean' },
    headers: { Origin: env.shellUrl, 'X-Requested-With': 'campus' },
  });
  expect(suspended.ok(), await suspended.text()).toBe(true);

  await fillSignIn(page, member.email);
  await expect(toast(page)).toContainText('Login failed');
  const notice = page.getByRole('region', { name: 'Your account is suspended' });
  await expect(notice).toContainText('Reason: Impersonation. Posts as the dean');
  await expectAccessible(page, testInfo, 'suspended sign-in');
  await notice.getByRole('button', { name: 'Appeal this decision' }).click();
  const dialog = page.getByRole('dialog', { name: 'Appeal your suspension' });
  await dialog.getByLabel('Your appeal').fill('I am the dean’s assistant and post for her.');
  await dialog.getByRole('button', { name: 'Send appeal' }).click();
  await expect(notice).toContainText('Your appeal was sent.');

  await admin.goto('/admin/appeals');
  const pending = admin.getByRole('article', { name: `Appeal by ${member.name}` });
  await expect(pending).toContainText('Suspension');
  await pending
    .getByRole('button', { name: `Lift the decision appealed by ${member.name}` })
    .click();
  await admin
    .getByRole('dialog', { name: 'Lift the decision?' })
    .getByRole('button', { name: 'Lift' })
    .click();
  await expect(toast(admin)).toContainText('Appeal lifted');

  await fillSignIn(page, member.email);
  await expect(toast(page)).toContainText('Welcome back!');
  await adminBrowser.close();
});
