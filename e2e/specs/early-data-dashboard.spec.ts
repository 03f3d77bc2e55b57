// Issue 22, no waterfall on the admin's dashboard: the stored login does not say who is an admin,
// so the shell's entry script asks for the dashboard's first figures (`/api/analytics/overview`)
// as soon as its early session check answers with the admin role (shell
// composition/early-requests.ts), while the admin remote is still loading; the dashboard takes
// that answer (@campus/kit/prefetch) instead of asking again. A member is never sent it
// (analytics.spec.ts: a member on /analytics requests nothing under /api/analytics/).
import type { Request } from '@playwright/test';
import { ADMIN_EMAIL, expect, test } from '../support/fixtures';

test("the dashboard's first figures are asked for once, before the admin remote has arrived", async ({
  page,
  signInAs,
}) => {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  await signInAs(ADMIN_EMAIL, '/analytics');
  await expect(page.getByRole('article', { name: 'Total Users', exact: true })).toContainText(
    '% verified',
  );

  const path = (request: Request) => new URL(request.url()).pathname;
  const overview = requests.filter((request) => path(request) === '/api/analytics/overview');
  expect(overview, 'one request: the dashboard took the early answer').toHaveLength(1);
  const me = requests.filter((request) => path(request) === '/api/auth/me');
  expect(me, 'one session check').toHaveLength(1);
  const expose = requests.find((request) => request.url().includes('__federation_expose_'));
  expect(expose, 'the admin remote was loaded').toBeDefined();
  // Asked after the session check (it needs the role) and before the remote's code had arrived.
  expect(requests.indexOf(me[0]!)).toBeLessThan(requests.indexOf(overview[0]!));
  await overview[0]!.response();
  await expose!.response();
  const early = overview[0]!.timing();
  const code = expose!.timing();
  expect(early.startTime).toBeLessThan(code.startTime + code.responseEnd);
});
