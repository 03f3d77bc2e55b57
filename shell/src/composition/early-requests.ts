// Runs in the shell's first script (src/early.ts, built on its own by early-script-plugin.cjs and
// run by index.html before the shell's main script has arrived): nothing here may import a module
// at run time (types only), so that script stays a few kilobytes with no chunk and no shared
// module. The constants it needs are copies, checked against their sources in the test; the
// paths of the calls it starts are typed by the call table (@campus/contracts' callRoutes), so a
// route that moves there fails the type check here.
import type { CallQuery, CallResponse, CallRoutes, FeedTab } from '@campus/contracts';
import type { PrefetchEntry, PrefetchSlot } from '@campus/kit/prefetch';

/** The kit's PREFETCH_SLOT (@campus/kit/prefetch; early-requests.test.ts checks they agree). */
const PREFETCH_SLOT = Symbol.for('campus.prefetch');
/** The kit's AUTH_STORAGE_KEY (@campus/kit/api; checked in the test too). */
const AUTH_STORAGE_KEY = 'campus.auth';
/** mf-feed's remembered tab and saved scroll position (its feed/scroll-restoration.ts). */
const FEED_TAB_KEY = 'campus.feed.tab';
const FEED_POSITION_KEY = 'campus.feed.scroll';
/** Spec §9: a saved feed position is restored for 30 minutes. */
const FEED_POSITION_MS = 30 * 60_000;
/** @campus/contracts' FEED_TABS, DEFAULT_FEED_TAB and FEED_PAGE_SIZE (checked in the test). */
export const EARLY_FEED_TABS: readonly FeedTab[] = ['for-you', 'following', 'jd'];
export const EARLY_DEFAULT_FEED_TAB: FeedTab = 'for-you';
export const EARLY_FEED_PAGE_SIZE = 20;
/**
 * Where the first script leaves its env.json request for the main script's bootstrap (a global:
 * the two scripts are separate bundles and share no module).
 */
const EARLY_CONFIG_SLOT = Symbol.for('campus.early-config');

/** The router path of a call of the table, as the type says it is. */
type PathOf<N extends keyof CallRoutes> = CallRoutes[N]['path'];
const ME: PathOf<'me'> = '/api/auth/me';
const FEED: PathOf<'feed'> = '/api/posts';
const PROFILE: PathOf<'profile'> = '/api/users/:id';
const NOTIFICATION_GROUPS: PathOf<'notificationGroups'> = '/api/notifications';
const GROUPED: CallRoutes['notificationGroups']['discriminator'] = { grouped: 'true' };
const ANALYTICS_OVERVIEW: PathOf<'analyticsOverview'> = '/api/analytics/overview';

/** A call's path and query as the kit's callTarget writes it (values left out when absent). */
function target(path: string, query: Readonly<Record<string, string | number | undefined>>) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) search.set(name, String(value));
  }
  return `${path}?${search.toString()}`;
}

/**
 * The stored login's user id, read as the kit reads it (null: signed out). The session itself is
 * the HttpOnly cookie the requests carry: nothing here can read it.
 */
export function storedLogin(storage: Pick<Storage, 'getItem'>): { userId: number } | null {
  try {
    const parsed = JSON.parse(storage.getItem(AUTH_STORAGE_KEY) ?? 'null') as {
      user?: { id?: unknown; name?: unknown; email?: unknown } | null;
    } | null;
    const { user } = parsed ?? {};
    if (typeof user !== 'object' || !user) return null;
    if (typeof user.id !== 'number' || typeof user.name !== 'string') return null;
    if (typeof user.email !== 'string') return null;
    return { userId: user.id };
  } catch {
    return null;
  }
}

/**
 * The feed the home page will show first (mf-feed's FeedPage): the tab and filter of a position
 * saved within 30 minutes (coming back from a post), else the tab remembered for the session.
 */
function feedToShow(
  session: Pick<Storage, 'getItem'>,
  now: number,
): { tab: FeedTab; top: boolean } {
  const known = (value: unknown) => EARLY_FEED_TABS.find((tab) => tab === value);
  try {
    const saved = JSON.parse(session.getItem(FEED_POSITION_KEY) ?? 'null') as {
      tab?: unknown;
      top?: unknown;
      savedAt?: unknown;
    } | null;
    if (saved && typeof saved.savedAt === 'number' && now - saved.savedAt < FEED_POSITION_MS) {
      const tab = known(saved.tab);
      if (!tab) return { tab: EARLY_DEFAULT_FEED_TAB, top: false }; // unreadable: leave it to the feed
      return { tab, top: tab === 'for-you' && saved.top === true };
    }
    return { tab: known(session.getItem(FEED_TAB_KEY)) ?? EARLY_DEFAULT_FEED_TAB, top: false };
  } catch {
    return { tab: EARLY_DEFAULT_FEED_TAB, top: false };
  }
}

/** mf-feed's first page of a feed (spec §7 `GET /api/posts`, its feed/feed-query.ts). */
function feedFirstPage({ tab, top }: { tab: FeedTab; top: boolean }, userId: number, now: number) {
  const query: CallQuery<CallRoutes['feed']> = {
    tab: tab !== 'for-you' ? tab : undefined,
    userId,
    topFilter: tab === 'for-you' && top ? 'true' : undefined,
    limit: EARLY_FEED_PAGE_SIZE,
    offset: 0,
  };
  // `_`: the feed's cache-busting timestamp (not a field of the call: the API ignores it).
  return target(FEED, { ...query, _: now });
}

/**
 * The API calls a signed-in landing on `pathname` starts with: the session check, then the
 * route's first data (the feed's first page of the tab it will show, a profile with its posts,
 * the first page of notifications). Every other route: the session check only.
 */
export function landingRequests(
  pathname: string,
  userId: number,
  session: Pick<Storage, 'getItem'>,
  now = Date.now(),
): string[] {
  const path = pathname.replace(/\/+$/, '') || '/';
  const requests: string[] = [ME];
  if (path === '/') requests.push(feedFirstPage(feedToShow(session, now), userId, now));
  const profile = /^\/profile(?:\/([^/]+))?$/.exec(path);
  if (profile) {
    const id = profile[1] === undefined ? userId : Number(profile[1]);
    if (Number.isInteger(id) && id > 0) requests.push(PROFILE.replace(':id', String(id)));
  }
  if (path === '/notifications') requests.push(target(NOTIFICATION_GROUPS, GROUPED));
  return requests;
}

/**
 * The API calls a signed-in landing on `pathname` starts once the session check has said the
 * member is an admin (the stored login does not say it): the dashboard's first figures
 * (`/api/analytics/overview`, what its first cards show) on /analytics. Every other route: none.
 */
export function adminLandingRequests(pathname: string): string[] {
  const path = pathname.replace(/\/+$/, '') || '/';
  return path === '/analytics' ? [ANALYTICS_OVERVIEW] : [];
}

/** Whether a `GET /api/auth/me` answer names the admin role. */
function answersAdmin(me: unknown): boolean {
  // Read defensively: nothing here parses the answer.
  const roles: unknown = (me as Partial<CallResponse<CallRoutes['me']>> | null)?.roles;
  return Array.isArray(roles) && roles.includes('admin');
}

/**
 * A GET as the kit's api client sends it (the session cookie, the kit's X-Requested-With); the
 * parsed JSON of a 2xx answer, else a rejection. A 401 (an access cookie that ran out) is left to
 * the kit, which renews the session and asks again itself.
 */
async function getJson(apiUrl: string, path: string): Promise<unknown> {
  const response = await fetch(`${apiUrl.replace(/\/+$/, '')}${path}`, {
    headers: { Accept: 'application/json', 'X-Requested-With': 'campus' },
    credentials: 'include',
  });
  if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
  const text = await response.text();
  return text ? (JSON.parse(text) as unknown) : null;
}

/** Reads a JSON file next to the shell (env.json). */
export async function readJsonFile(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
  return (await response.json()) as unknown;
}

type ConfigHolder = { [EARLY_CONFIG_SLOT]?: Promise<unknown> | null };

/** The env.json the first script started reading (once; null when it did not). */
export function takeEarlyRuntimeConfig(): Promise<unknown> | null {
  const holder = globalThis as ConfigHolder;
  const early = holder[EARLY_CONFIG_SLOT] ?? null;
  holder[EARLY_CONFIG_SLOT] = null;
  return early;
}

/**
 * No waterfall (issue 22): started by the shell's first script (src/early.ts) as soon as the page
 * has been parsed, while the main script and its chunks are still arriving. Reads env.json (the
 * request index.html preloads; bootstrap takes it) and, for a stored login, starts the landing
 * route's API calls at once and leaves their answers in the kit's prefetch slot, where the session
 * check and the route's remote take them (@campus/kit/prefetch). The API calls go to env.json's
 * apiUrl only, with the session cookie; a signed-out visitor sends none.
 */
export function startEarlyRequests({
  pathname = window.location.pathname,
  local = window.localStorage,
  session = window.sessionStorage,
}: {
  pathname?: string;
  local?: Pick<Storage, 'getItem'>;
  session?: Pick<Storage, 'getItem'>;
} = {}): void {
  const config = readJsonFile('/env.json');
  (globalThis as ConfigHolder)[EARLY_CONFIG_SLOT] = config;
  let login: ReturnType<typeof storedLogin>;
  try {
    login = storedLogin(local);
  } catch {
    login = null; // storage blocked: signed out
  }
  if (!login) return;
  const { userId } = login;
  const holder = globalThis as { [PREFETCH_SLOT]?: PrefetchSlot };
  const slot = (holder[PREFETCH_SLOT] ??= new Map());
  const startedAt = Date.now();
  const apiUrl = config.then((value) => {
    const url = (value as { apiUrl?: unknown } | null)?.apiUrl;
    if (typeof url !== 'string') throw new Error('env.json names no apiUrl');
    return url;
  });
  let requests: string[];
  try {
    requests = landingRequests(pathname, userId, session, startedAt);
  } catch {
    requests = [ME];
  }
  const keep = (path: string, response: Promise<unknown>) => {
    const entry: PrefetchEntry = { userId, startedAt, response };
    // The answer is also kept as it arrives, for a page that mounts after it (takeArrivedPrefetch).
    // Nobody may ever take it: its failure is not an unhandled rejection.
    response.then(
      (value) => {
        entry.answer = { value };
      },
      () => undefined,
    );
    slot.set(path, entry);
  };
  let me: Promise<unknown> | undefined;
  for (const path of requests) {
    const response = apiUrl.then((url) => getJson(url, path));
    keep(path, response);
    if (path === ME) me = response;
  }
  // An admin's landing data follows the session check (the API refuses it to anyone else, and a
  // member is never sent it): still long before the admin remote has arrived and asked.
  const sessionCheck = me;
  if (!sessionCheck) return;
  for (const path of adminLandingRequests(pathname)) {
    keep(
      path,
      sessionCheck.then(async (answer) => {
        if (!answersAdmin(answer)) throw new Error('not an admin');
        return getJson(await apiUrl, path);
      }),
    );
  }
}
