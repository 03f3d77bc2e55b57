import {
  DEFAULT_FEED_TAB,
  FEED_PAGE_SIZE,
  FEED_TABS,
  callRoutes,
  type CallResponse,
  type FeedTab,
} from '@campus/contracts';
import { callTarget, readCall, readStoredAuth, type CallTargetOptions } from '@campus/kit/api';
import { keys } from '@campus/kit/data';
import { arrivedPrefetch, takePrefetched, withPrefetch } from '@campus/kit/prefetch';

/** One page of a feed, as `GET /api/posts` answers it. */
export type FeedPage = CallResponse<typeof callRoutes.feed>;

export interface FeedFilter {
  /** One of contracts' FEED_TABS. */
  tab: FeedTab;
  /** The trending-today filter; only on For You. */
  top: boolean;
}

/** The SWR key part naming a feed (tab and filter). */
export function feedName({ tab, top }: FeedFilter): string {
  return tab === 'for-you' && top ? 'for-you-top' : tab;
}

/** The feed a key part names (the inverse of `feedName`). */
export function feedFilterOf(name: string): FeedFilter {
  if (name === 'for-you-top') return { tab: 'for-you', top: true };
  const tab = FEED_TABS.find((known) => known === name) ?? DEFAULT_FEED_TAB;
  return { tab, top: false };
}

export type FeedPageKey = ReturnType<typeof keys.feedPage>;

/** The SWR key of one page of a feed (page 0 is the first). */
export const feedPageKey = (name: string, page: number): FeedPageKey => keys.feedPage(name, page);

/**
 * Spec §7 `GET /api/posts`: tab omitted for For You, userId when signed in, topFilter=true only
 * for For You with the top filter, limit 20, offset a multiple of 20, and a cache-busting
 * timestamp on the first page.
 */
function feedTarget(
  { tab, top }: FeedFilter,
  userId: number | undefined,
  page: number,
  now = Date.now(),
): CallTargetOptions<typeof callRoutes.feed> {
  return {
    query: {
      tab: tab !== 'for-you' ? tab : undefined,
      userId,
      topFilter: tab === 'for-you' && top ? 'true' : undefined,
      limit: FEED_PAGE_SIZE,
      offset: page * FEED_PAGE_SIZE,
    },
    cacheBust: page === 0 ? now : undefined,
  };
}

/** The path and query of one page (the early request the shell left for it is found by it). */
export function feedPath(
  filter: FeedFilter,
  userId: number | undefined,
  page: number,
  now = Date.now(),
): string {
  return callTarget(callRoutes.feed, feedTarget(filter, userId, page, now));
}

/**
 * One page of the feed, as the signed-in user (the stored login the request is sent with); a
 * 401/403 (the session is gone) reads as an empty page. The first page is taken from the shell's
 * early request for it when there is a usable one (@campus/kit/prefetch: the shell asks for the
 * landing feed's first page before this remote has even arrived), else requested here.
 */
export async function fetchFeedPage(filter: FeedFilter, page: number): Promise<FeedPage> {
  const userId = readStoredAuth()?.user.id;
  const target = feedTarget(filter, userId, page);
  const load = () => readCall(callRoutes.feed, target);
  return (
    (await (page === 0 ? withPrefetch(callTarget(callRoutes.feed, target), load) : load())) ?? []
  );
}

/**
 * The first page of `filter` when the shell's early request for it has already been answered,
 * else null; read while rendering, so it does not take the answer (takeFirstPage does, once the
 * feed that drew it is on the page). The feed draws it in its first render, with no skeleton.
 */
export function arrivedFirstPage(filter: FeedFilter): FeedPage | null {
  const userId = readStoredAuth()?.user.id;
  if (userId === undefined) return null;
  const arrived = arrivedPrefetch<FeedPage | null>(feedPath(filter, userId, 0));
  return arrived && Array.isArray(arrived.value) ? arrived.value : null;
}

/** Takes the early first page the feed drew (it is not handed to anyone again). */
export function takeFirstPage(filter: FeedFilter): void {
  const auth = readStoredAuth();
  if (auth) void takePrefetched(feedPath(filter, auth.user.id, 0), auth.user.id)?.catch(() => null);
}
