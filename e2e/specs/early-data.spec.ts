// Issue 22, no waterfall: on a signed-in landing the shell's entry script asks for the session
// check and the route's first data while its own scripts are still arriving (shell
// composition/early-requests.ts), and the route's remote takes those answers
// (@campus/kit/prefetch) instead of asking again. The live stream opens after them.
import type { Page, Request } from '@playwright/test';
import { MEMBER_EMAIL, expect, test } from '../support/fixtures';

const BEN = 'ben.larsen@campus.edu';

/** Every request the page makes from now on, in the order they start. */
function recordRequests(page: Page) {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return {
    requests,
    /** The API calls to `pathname` (query ignored). */
    api: (pathname: string) =>
      requests.filter((request) => new URL(request.url()).pathname === pathname),
    /** The remote's chunk holding `exposed` (`__federation_expose_FeedPage.<hash>.js`). */
    exposeChunk: (exposed: string) =>
      requests.find((request) => request.url().includes(`__federation_expose_${exposed}.`)),
  };
}

/** When a request started and when its answer had fully arrived (ms, the page's clock). */
async function startAndEnd(request: Request) {
  await request.response();
  const timing = request.timing();
  return { start: timing.startTime, end: timing.startTime + timing.responseEnd };
}

const firstPageOf = (request: Request) => new URL(request.url()).searchParams.get('offset') === '0';

test('the feed asks for its first page once, before its remote has arrived and before the stream', async ({
  page,
  signInAs,
}) => {
  const seen = recordRequests(page);
  // The live stream opens after the page's first data: its request says the load has settled.
  const streamOpened = page.waitForRequest((request) => request.url().includes('/api/stream'));
  await signInAs(MEMBER_EMAIL, '/');
  await expect(page.getByRole('main').getByRole('article').first()).toBeVisible();
  await streamOpened;

  const posts = seen.api('/api/posts').filter(firstPageOf);
  expect(posts, 'one request for the first page: the feed took the early answer').toHaveLength(1);
  expect(seen.api('/api/auth/me'), 'one session check').toHaveLength(1);
  const [page0] = posts;
  const expose = seen.exposeChunk('FeedPage');
  expect(expose, 'the feed remote was loaded').toBeDefined();
  const early = await startAndEnd(page0!);
  const feedCode = await startAndEnd(expose!);
  // Asked while the feed's code was still on its way, not after it mounted.
  expect(early.start).toBeLessThan(feedCode.end);
  // And the live stream did not start before the first page was asked for: the order in which
  // the page sent them (a stream still open has no timing yet: its startTime can read 0).
  const stream = seen.api('/api/stream')[0]!;
  expect(seen.requests.indexOf(page0!)).toBeLessThan(seen.requests.indexOf(stream));
});

test('the early first page is the tab the feed shows (remembered for the session)', async ({
  page,
  signInAs,
}) => {
  await signInAs(MEMBER_EMAIL, '/');
  const feedTabs = page.getByRole('tablist', { name: 'Feed' });
  await feedTabs.getByRole('tab', { name: 'Following' }).click();
  await expect(feedTabs.getByRole('tab', { name: 'Following' })).toHaveAttribute(
    'aria-selected',
    'true',
  );

  const seen = recordRequests(page);
  const streamOpened = page.waitForRequest((request) => request.url().includes('/api/stream'));
  await page.reload();
  await expect(feedTabs.getByRole('tab', { name: 'Following' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('main').getByRole('article').first()).toBeVisible();
  await streamOpened;
  const firstPages = seen.api('/api/posts').filter(firstPageOf);
  expect(firstPages.map((request) => new URL(request.url()).searchParams.get('tab'))).toEqual([
    'following',
  ]);
});

test('a failed early request is only a lost head start: the feed asks again and shows its posts', async ({
  page,
  signInAs,
}) => {
  let refused = 0;
  await page.route('**/api/posts?*', async (route) => {
    if (refused === 0 && firstPageOf(route.request())) {
      refused += 1;
      await route.fulfill({ status: 503, body: '{"message":"down"}' });
    } else await route.continue();
  });
  const seen = recordRequests(page);
  await signInAs(MEMBER_EMAIL, '/');
  await expect(page.getByRole('main').getByRole('article').first()).toBeVisible();
  expect(refused).toBe(1);
  expect(seen.api('/api/posts').filter(firstPageOf)).toHaveLength(2);
  await expect(page.getByText('Failed to fetch posts')).toHaveCount(0);
});

test('a profile and the notifications are asked for once, while their remote loads', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const { user } = await apiAs(BEN);

  let seen = recordRequests(page);
  await signInAs(MEMBER_EMAIL, `/profile/${user.id}`);
  await expect(page.getByRole('heading', { level: 1, name: user.name })).toBeVisible();
  const profiles = seen.api(`/api/users/${user.id}`);
  expect(profiles).toHaveLength(1);
  const expose = seen.exposeChunk('ProfilePage');
  expect(expose).toBeDefined();
  expect((await startAndEnd(profiles[0]!)).start).toBeLessThan((await startAndEnd(expose!)).end);

  seen = recordRequests(page);
  await page.goto('/notifications');
  await expect(page.getByRole('main').getByRole('listitem').first()).toBeVisible();
  const lists = seen
    .api('/api/notifications')
    .filter((request) => new URL(request.url()).searchParams.get('grouped') === 'true');
  expect(lists).toHaveLength(1);
});

test('an early answer serves one showing only: coming back to the page fetches afresh', async ({
  page,
  signInAs,
  apiAs,
}) => {
  const { user } = await apiAs(BEN);
  const seen = recordRequests(page);
  await signInAs(MEMBER_EMAIL, `/profile/${user.id}`);
  const name = page.getByRole('heading', { level: 1, name: user.name });
  await expect(name).toBeVisible();
  expect(seen.api(`/api/users/${user.id}`)).toHaveLength(1);
  await page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('link', { name: 'Home', exact: true })
    .click();
  // The feed, not the profile's posts still on screen: its tabs, then one of its posts.
  await expect(page.getByRole('tablist', { name: 'Feed' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('article').first()).toBeVisible();
  // The feed was not the landing page: its first page is its own request, made once.
  await expect.poll(() => seen.api('/api/posts').filter(firstPageOf).length).toBe(1);
  await page.goBack();
  await expect(name).toBeVisible();
  await expect.poll(() => seen.api(`/api/users/${user.id}`).length).toBe(2);
});
