import { useCallback, useEffect, useRef, useState } from 'react';
import useSWR from 'swr';
import { FEED_PAGE_SIZE, type Post } from '@campus/contracts';
import { keys } from '@campus/kit/data';
import { toast } from '@campus/kit/toast';
import { feedName, fetchFeedPage, type FeedFilter } from './feed-query';

/** Pages beyond the first, tagged with the feed and first-page size they were loaded for. */
interface ExtraPages {
  name: string;
  firstLength: number | undefined;
  pages: Post[][];
}

const NO_EXTRA: ExtraPages = { name: '', firstLength: undefined, pages: [] };

function uniqueVisible(pages: Post[][], hidden: ReadonlySet<number>): Post[] {
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
 * The home feed's data (spec §2/§4/§7/§8): the first page through the shared SWR cache (always
 * refetched on mount, never retried), then 'Load more' pages of 20 held here. Changing the tab,
 * the top filter or the first page's size drops the extra pages; a short page is the end.
 */
export function useFeed(filter: FeedFilter) {
  const name = feedName(filter);
  const first = useSWR<Post[]>(keys.feedPage(name, 0), () => fetchFeedPage(filter, 0), {
    revalidateOnMount: true, // spec §9: the feed cache is always stale
    onError: () =>
      toast({ title: 'Error', description: 'Failed to fetch posts', variant: 'destructive' }),
  });
  const firstLength = first.data?.length;
  const [extra, setExtra] = useState<ExtraPages>(NO_EXTRA);
  const [loadingMore, setLoadingMore] = useState(false);
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  // Spec §4: another tab or filter starts again from page one (coming back to it too).
  const [shownName, setShownName] = useState(name);
  if (shownName !== name) {
    setShownName(name);
    setExtra(NO_EXTRA);
  }

  const extraValid =
    extra.name === name && (firstLength === undefined || extra.firstLength === firstLength);
  const extraPages = extraValid ? extra.pages : [];

  // The latest values for callbacks that finish after a re-render.
  const current = useRef({ name, filter, firstLength, extraPages });
  useEffect(() => {
    current.current = { name, filter, firstLength, extraPages };
  });

  /** Loads pages 1..count of the current feed (replacing the extra pages). */
  const loadExtraPages = useCallback(async (count: number) => {
    const { name: loadingName, filter: loadingFilter } = current.current;
    const pages = await Promise.all(
      Array.from({ length: count }, (_, index) => fetchFeedPage(loadingFilter, index + 1)),
    );
    if (current.current.name !== loadingName) return false;
    // Stop at the first short page: what follows it is past the end.
    const shortAt = pages.findIndex((page) => page.length < FEED_PAGE_SIZE);
    setExtra({
      name: loadingName,
      firstLength: current.current.firstLength,
      pages: shortAt === -1 ? pages : pages.slice(0, shortAt + 1),
    });
    return true;
  }, []);

  const loadMore = useCallback(async () => {
    if (loadingMore) return;
    const { name: loadingName, filter: loadingFilter, extraPages: loaded } = current.current;
    setLoadingMore(true);
    try {
      const page = await fetchFeedPage(loadingFilter, loaded.length + 1);
      if (current.current.name !== loadingName) return;
      setExtra({
        name: loadingName,
        firstLength: current.current.firstLength,
        pages: [...loaded, page],
      });
    } catch (error) {
      // Spec §8: a load-more failure is only logged.
      console.error('Failed to load more posts', error);
    } finally {
      setLoadingMore(false);
    }
  }, [loadingMore]);

  const { mutate } = first;
  /** Refetches the first page and the extra pages already loaded. */
  const refresh = useCallback(async () => {
    const loadedExtra = current.current.extraPages.length;
    await mutate();
    if (loadedExtra > 0) {
      await loadExtraPages(loadedExtra).catch((error: unknown) =>
        console.error('Failed to refresh posts', error),
      );
    }
  }, [mutate, loadExtraPages]);

  const hide = useCallback((postId: number) => {
    setHidden((ids) => new Set([...ids, postId]));
  }, []);

  const lastPage = extraPages.length > 0 ? extraPages[extraPages.length - 1] : first.data;
  return {
    posts: first.data ? uniqueVisible([first.data, ...extraPages], hidden) : [],
    loading: first.data === undefined && !first.error,
    error: first.data === undefined ? first.error : undefined,
    loaded: first.data !== undefined,
    reachedEnd: lastPage !== undefined && lastPage.length < FEED_PAGE_SIZE,
    extraPageCount: extraPages.length,
    loadingMore,
    loadMore,
    loadExtraPages,
    refresh,
    hide,
  };
}
