import { DEFAULT_FEED_TAB, FEED_PAGE_SIZE, FEED_TABS, callRoutes } from '@campus/contracts';
import {
  AUTH_STORAGE_KEY,
  callTarget,
  clearStoredAuth,
  configureApi,
  storeAuth,
} from '@campus/kit/api';
import {
  arrivedPrefetch,
  forgetPrefetched,
  hasPrefetched,
  prefetchKey,
  takePrefetched,
  withPrefetch,
} from '@campus/kit/prefetch';
import {
  EARLY_DEFAULT_FEED_TAB,
  EARLY_FEED_PAGE_SIZE,
  EARLY_FEED_TABS,
  adminLandingRequests,
  landingRequests,
  startEarlyRequests,
  storedLogin,
  takeEarlyRuntimeConfig,
} from './early-requests';
import { fetchRuntimeConfig } from './runtime-config-loader';

const ada = { id: 21, name: 'Ada', email: 'ada@campus.edu', avatarUrl: null };
const NOW = 1_800_000_000_000;
const env = {
  apiUrl: 'http://api.test/',
  remotes: {
    mf_feed: 'http://feed.test/mf-manifest.json',
    mf_profile: 'http://profile.test/mf-manifest.json',
    mf_notifications: 'http://notifications.test/mf-manifest.json',
    mf_admin: 'http://admin.test/mf-manifest.json',
  },
};

/** A session storage holding `items`. */
const storage = (items: Record<string, string> = {}) => ({
  getItem: (key: string) => items[key] ?? null,
});

/** An answer as fetch resolves it (jsdom has no Response). */
const reply = (status: number, body: unknown) =>
  ({
    ok: status >= 200 && status < 300,
    status,
    statusText: '',
    text: async () => JSON.stringify(body),
    json: async () => body,
  }) as Response;

const feed = (query: string) => `/api/posts?${query}&limit=${FEED_PAGE_SIZE}&offset=0&_=${NOW}`;

describe('the copies the first script keeps (it imports no module at run time)', () => {
  it('agree with @campus/contracts', () => {
    expect(EARLY_FEED_TABS).toEqual(FEED_TABS);
    expect(EARLY_DEFAULT_FEED_TAB).toBe(DEFAULT_FEED_TAB);
    expect(EARLY_FEED_PAGE_SIZE).toBe(FEED_PAGE_SIZE);
  });
});

describe('landingRequests', () => {
  it('asks for calls of the table, as the kit writes them (callTarget)', () => {
    expect(landingRequests('/profile/7', 21, storage(), NOW)).toEqual([
      callTarget(callRoutes.me),
      callTarget(callRoutes.profile, { params: { id: 7 } }),
    ]);
    expect(landingRequests('/notifications', 21, storage(), NOW)[1]).toBe(
      callTarget(callRoutes.notificationGroups),
    );
    expect(adminLandingRequests('/analytics')).toEqual([callTarget(callRoutes.analyticsOverview)]);
    const feedPage = landingRequests('/', 21, storage({ 'campus.feed.tab': 'jd' }), NOW)[1]!;
    expect(prefetchKey(feedPage)).toBe(
      prefetchKey(
        callTarget(callRoutes.feed, {
          query: { tab: 'jd', userId: 21, limit: FEED_PAGE_SIZE, offset: 0 },
        }),
      ),
    );
  });

  it.each([
    ['/', ['/api/auth/me', feed('userId=21')]],
    ['/profile', ['/api/auth/me', '/api/users/21']],
    ['/profile/7/', ['/api/auth/me', '/api/users/7']],
    ['/notifications', ['/api/auth/me', '/api/notifications?grouped=true']],
    // routes without early data (yet): the session check only
    ['/profile/abc', ['/api/auth/me']],
    ['/profile/7/edit', ['/api/auth/me']],
    ['/post/3', ['/api/auth/me']],
    ['/analytics', ['/api/auth/me']],
  ])('%s starts %j', (path, requests) => {
    expect(landingRequests(path, 21, storage(), NOW)).toEqual(requests);
  });

  it('asks for the tab the feed will show: the remembered one, or a saved position', () => {
    expect(landingRequests('/', 21, storage({ 'campus.feed.tab': 'following' }), NOW)[1]).toBe(
      feed('tab=following&userId=21'),
    );
    expect(landingRequests('/', 21, storage({ 'campus.feed.tab': 'nonsense' }), NOW)[1]).toBe(
      feed('userId=21'),
    );
    // coming back from a post within 30 minutes: the saved tab and filter win
    const saved = (position: object) =>
      storage({
        'campus.feed.tab': 'jd',
        'campus.feed.scroll': JSON.stringify({ scrollY: 900, extraPages: 1, ...position }),
      });
    expect(
      landingRequests('/', 21, saved({ tab: 'for-you', top: true, savedAt: NOW - 60_000 }), NOW)[1],
    ).toBe(feed('userId=21&topFilter=true'));
    // an old position is not restored: the remembered tab
    expect(
      landingRequests(
        '/',
        21,
        saved({ tab: 'following', top: false, savedAt: NOW - 31 * 60_000 }),
        NOW,
      )[1],
    ).toBe(feed('tab=jd&userId=21'));
  });
});

describe('storedLogin', () => {
  afterEach(() => clearStoredAuth());

  it('reads the login the kit stores, and nothing the kit would refuse', () => {
    storeAuth({ user: ada });
    expect(storedLogin(window.localStorage)).toEqual({ userId: 21 });
    expect(storedLogin(storage({ [AUTH_STORAGE_KEY]: '{"user":{"id":1}}' }))).toBeNull();
    expect(storedLogin(storage({ [AUTH_STORAGE_KEY]: 'not json' }))).toBeNull();
    expect(storedLogin(storage())).toBeNull();
  });
});

describe('startEarlyRequests', () => {
  const fetchMock = jest.fn();
  beforeEach(() => {
    forgetPrefetched();
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (url: string) => {
      const { pathname } = new URL(url, 'http://shell.test');
      const body = pathname === '/env.json' ? env : { answered: pathname };
      return reply(200, body);
    });
    global.fetch = fetchMock as unknown as typeof fetch;
    configureApi({ baseUrl: env.apiUrl });
  });
  afterEach(() => clearStoredAuth());

  it('starts the session check and the route data at once; the kit hands them out', async () => {
    storeAuth({ user: ada });
    startEarlyRequests({ pathname: '/profile/7', session: storage() });
    expect(hasPrefetched('/api/auth/me')).toBe(true);
    expect(hasPrefetched('/api/users/7')).toBe(true);
    // env.json is read once: bootstrap takes the entry script's answer
    await expect(fetchRuntimeConfig()).resolves.toMatchObject({ apiUrl: env.apiUrl });
    expect(takeEarlyRuntimeConfig()).toBeNull();
    const load = jest.fn(async () => ({ answered: 'by the remote' }));
    await expect(withPrefetch('/api/users/7', load)).resolves.toEqual({
      answered: '/api/users/7',
    });
    expect(load).not.toHaveBeenCalled();
    // The session cookie goes with them (credentials), no token: the page has none.
    expect(fetchMock.mock.calls.slice(1).map(([, init]) => init?.credentials)).toEqual([
      'include',
      'include',
    ]);
    const calls = fetchMock.mock.calls.map(([url, init]) => [url, init?.headers]);
    expect(calls).toEqual([
      ['/env.json', undefined],
      ['http://api.test/api/auth/me', { Accept: 'application/json', 'X-Requested-With': 'campus' }],
      ['http://api.test/api/users/7', { Accept: 'application/json', 'X-Requested-With': 'campus' }],
    ]);
  });

  it('leaves the feed page the remote will ask for, whatever its timestamp', async () => {
    storeAuth({ user: ada });
    startEarlyRequests({ pathname: '/', session: storage({ 'campus.feed.tab': 'following' }) });
    const page = takePrefetched('/api/posts?tab=following&userId=21&limit=20&offset=0&_=123', 21);
    await expect(page).resolves.toEqual({ answered: '/api/posts' });
    takeEarlyRuntimeConfig();
  });

  it('keeps each answer as it arrives, for a page mounting after it', async () => {
    storeAuth({ user: ada });
    startEarlyRequests({ pathname: '/', session: storage() });
    const path = '/api/posts?userId=21&limit=20&offset=0&_=5';
    expect(arrivedPrefetch(path, 21)).toBeNull(); // not arrived yet
    await takeEarlyRuntimeConfig();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(arrivedPrefetch(path, 21)).toEqual({ value: { answered: '/api/posts' } });
    expect(hasPrefetched(path)).toBe(true);
  });

  it("asks for the dashboard's first figures once the session check says admin", async () => {
    expect(adminLandingRequests('/analytics/')).toEqual(['/api/analytics/overview']);
    expect(adminLandingRequests('/')).toEqual([]);
    fetchMock.mockImplementation(async (url: string) => {
      const { pathname } = new URL(url, 'http://shell.test');
      if (pathname === '/env.json') return reply(200, env);
      if (pathname === '/api/auth/me') return reply(200, { user: ada, roles: ['member', 'admin'] });
      return reply(200, { answered: pathname });
    });
    storeAuth({ user: ada });
    startEarlyRequests({ pathname: '/analytics', session: storage() });
    const load = jest.fn(async () => 'own answer');
    await expect(withPrefetch('/api/analytics/overview', load)).resolves.toEqual({
      answered: '/api/analytics/overview',
    });
    expect(load).not.toHaveBeenCalled();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      '/env.json',
      'http://api.test/api/auth/me',
      'http://api.test/api/analytics/overview',
    ]);
    takeEarlyRuntimeConfig();
  });

  it('sends a member landing on /analytics no dashboard request', async () => {
    fetchMock.mockImplementation(async (url: string) => {
      const { pathname } = new URL(url, 'http://shell.test');
      if (pathname === '/env.json') return reply(200, env);
      return reply(200, { user: ada, roles: ['member'] });
    });
    storeAuth({ user: ada });
    startEarlyRequests({ pathname: '/analytics', session: storage() });
    const load = jest.fn(async () => 'own answer');
    await expect(withPrefetch('/api/analytics/overview', load)).resolves.toBe('own answer');
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      '/env.json',
      'http://api.test/api/auth/me',
    ]);
    takeEarlyRuntimeConfig();
  });

  it('leaves env.json in a global slot: the main script, a bundle of its own, takes it once', async () => {
    startEarlyRequests({ pathname: '/', session: storage() });
    const early = (globalThis as Record<symbol, unknown>)[Symbol.for('campus.early-config')];
    expect(early).toBeInstanceOf(Promise);
    expect(takeEarlyRuntimeConfig()).toBe(early);
    expect(takeEarlyRuntimeConfig()).toBeNull();
    await expect(early).resolves.toEqual(env);
  });

  it('asks the API nothing when signed out (env.json only)', async () => {
    startEarlyRequests({ pathname: '/', session: storage() });
    await takeEarlyRuntimeConfig();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/env.json']);
    expect(hasPrefetched('/api/auth/me')).toBe(false);
  });

  it('a failed early request is no answer: the fetcher asks itself', async () => {
    fetchMock.mockImplementation(async (url: string) =>
      url === '/env.json' ? reply(200, env) : reply(503, { message: 'down' }),
    );
    storeAuth({ user: ada });
    startEarlyRequests({ pathname: '/notifications', session: storage() });
    const load = jest.fn(async () => 'own answer');
    await expect(withPrefetch('/api/notifications?grouped=true', load)).resolves.toBe('own answer');
    takeEarlyRuntimeConfig();
  });
});
