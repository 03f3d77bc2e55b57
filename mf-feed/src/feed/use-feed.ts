import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { unstable_serialize, useSWRConfig } from 'swr';
import useSWRInfinite, { unstable_serialize as serializeInfinite } from 'swr/infinite';
import { FEED_MAX_OFFSET, FEED_PAGE_SIZE, type Post } from '@campus/contracts';
import { toast } from '@campus/kit/toast';
import {
  arrivedFirstPage,
  feedFilterOf,
  feedName,
  feedPageKey,
  fetchFeedPage,
  takeFirstPage,
  type FeedFilter,
  type FeedPage,
  type FeedPageKey,
} from './feed-query';

/** A page beyond the first failed: spec §8 only logs it. */
class LoadMoreError extends Error {
  constructor(cause: unknown) {
    super('Failed to load more posts', { cause });
  }
}

/**
 * A feed page's SWR key: the kit's page key plus the showing it belongs to. Every mount of the
 * feed, and every change of tab or filter, is a new showing with keys of its own, so it always
 * starts from a freshly fetched first page (spec §4, §9): nothing a previous showing cached (its
 * pages, SWR's remembered page count, an in-flight request) can be shown or reused instead.
 */
type ShowingPageKey = readonly [
  FeedPageKey[0],
  FeedPageKey[1],
  FeedPageKey[2],
  FeedPageKey[3],
  number,
];

let showings = 0;
const nextShowing = () => (showings += 1);

async function fetchPage(key: ShowingPageKey): Promise<FeedPage> {
  const [, , name, page] = key;
  try {
    return await fetchFeedPage(feedFilterOf(name), page);
  } catch (error) {
    throw page === 0 ? error : new LoadMoreError(error);
  }
}

/** The API pages at most FEED_MAX_OFFSET posts back: page `index` would start beyond that. */
function beyondPagingBound(index: number): boolean {
  return index * FEED_PAGE_SIZE > FEED_MAX_OFFSET;
}

function uniqueVisible(pages: FeedPage[], hidden: ReadonlySet<number>): Post[] {
  const seen = new Set<number>();
  const posts: Post[] = [];
  for (const post of pages.flat()) {
    if (seen.has(post.id) || hidden.has(post.id)) continue;
    seen.add(post.id);
    posts.push(post);
  }
  return posts;
}

/**
 * The home feed's data (spec §2/§4/§7/§8), paged by SWR's infinite hook: pages of 20 through the
 * shared cache, always fetched fresh when a feed is shown, never retried; a short page is the end.
 * Another tab or filter, or coming back to one, starts again from page one.
 */
export function useFeed(filter: FeedFilter) {
  const name = feedName(filter);
  // A new showing per mount and per tab or filter (see ShowingPageKey). The first showing of a
  // mount starts from the shell's early answer for its first page when that has already arrived.
  const [showing, setShowing] = useState<{ name: string; id: number; first?: FeedPage }>(() => ({
    name,
    id: nextShowing(),
    first: arrivedFirstPage(filter) ?? undefined,
  }));
  if (showing.name !== name) setShowing({ name, id: nextShowing() });
  const pageKey = useCallback(
    (page: number): ShowingPageKey => {
      const [path, feed, name, index] = feedPageKey(showing.name, page);
      return [path, feed, name, index, showing.id];
    },
    [showing],
  );
  const { cache, mutate: globalMutate } = useSWRConfig();
  // That early first page goes into the showing's cache entries (its own keys: nothing else reads
  // or writes them) before SWR's first read of them, so the first render has the posts instead of
  // a skeleton, and SWR does not fetch the page again on mount (see revalidateOnMount below).
  // 'Load more' finds page one in the cache and fetches only the next page.
  const prefilled = showing.first !== undefined;
  if (showing.first && cache.get(unstable_serialize(pageKey(0))) === undefined) {
    cache.set(unstable_serialize(pageKey(0)), { data: showing.first });
    cache.set(serializeInfinite(pageKey), { data: [showing.first] });
  }
  // Once that render is on the page, the early answer is taken: no one is handed it again.
  useLayoutEffect(() => {
    if (showing.first) takeFirstPage(feedFilterOf(showing.name));
  }, [showing]);
  const feed = useSWRInfinite(
    (index: number, previous: FeedPage | null) =>
      (previous && previous.length < FEED_PAGE_SIZE) || beyondPagingBound(index)
        ? null
        : pageKey(index),
    fetchPage,
    {
      // Spec §9: the feed cache is always stale; an early answer just arrived is this showing's
      // fresh first page.
      revalidateOnMount: !prefilled,
      revalidateFirstPage: false, // 'Load more' fetches only the next page
      onError: (error) => {
        if (error instanceof LoadMoreError) console.error(error.message, error.cause);
        else
          toast({ title: 'Error', description: 'Failed to fetch posts', variant: 'destructive' });
      },
    },
  );
  const { data, error, size, setSize, isValidating, mutate } = feed;
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());

  // Leaving a feed (another tab, or the page unmounting) forgets its pages and its page count,
  // so that showing it again starts from a fresh first page (spec §4). The global mutate also
  // drops SWR's dedupe entry of the last request, whose answer would otherwise be reused and
  // then discarded, leaving the feed loading for good when it comes back within 2 s.
  const loadedPages = useRef(0);
  useEffect(() => {
    loadedPages.current = data?.length ?? 0;
  }, [data]);
  useEffect(
    () => () => {
      for (let page = 0; page <= loadedPages.current; page += 1) {
        cache.delete(unstable_serialize(pageKey(page)));
      }
      const feedKey = serializeInfinite(pageKey);
      cache.delete(feedKey);
      globalMutate(feedKey, undefined).catch(() => {
        // The whole data provider unmounted with its cache: there is nothing left to forget.
      });
    },
    [cache, globalMutate, pageKey],
  );

  const lastPage = data?.[data.length - 1];
  const reachedEnd =
    lastPage !== undefined &&
    (lastPage.length < FEED_PAGE_SIZE || beyondPagingBound(data?.length ?? 0));

  // `loadExtraPages` resolves once the pages asked for are shown, the end is reached or a page
  // failed (SWR's setSize resolves before the new pages are fetched).
  const pendingPages = useRef<{ want: number; done: () => void } | null>(null);
  useEffect(() => {
    const pending = pendingPages.current;
    if (!pending || !data || isValidating) return;
    if (data.length >= pending.want || reachedEnd || error) {
      pendingPages.current = null;
      pending.done();
    }
  }, [data, error, isValidating, reachedEnd]);

  /** Shows `count` pages beyond the first (the scroll restoration of spec §4). */
  const loadExtraPages = useCallback(
    (count: number) =>
      new Promise<void>((done) => {
        pendingPages.current = { want: count + 1, done };
        void setSize(count + 1);
      }),
    [setSize],
  );

  const loadingMore = data !== undefined && size > data.length && isValidating;

  /** 'Load more': the next page; after a failure the same page is asked for again. */
  const loadMore = useCallback(() => {
    if (data && !loadingMore) void setSize(data.length + 1);
  }, [data, loadingMore, setSize]);

  /** Refetches every page shown; resolves with the pages fetched. */
  const refresh = useCallback(() => mutate(), [mutate]);

  const hide = useCallback((postId: number) => {
    setHidden((ids) => new Set([...ids, postId]));
  }, []);

  return {
    /** The feed these posts belong to (it changes with them, not before). */
    name: showing.name,
    posts: data ? uniqueVisible(data, hidden) : [],
    loading: data === undefined && !error,
    error: data === undefined ? error : undefined,
    loaded: data !== undefined,
    reachedEnd,
    extraPageCount: Math.max((data?.length ?? 0) - 1, 0),
    loadingMore,
    loadMore,
    loadExtraPages,
    refresh,
    hide,
  };
}
