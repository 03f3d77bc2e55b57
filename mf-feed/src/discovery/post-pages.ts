import { useState } from 'react';
import useSWRInfinite from 'swr/infinite';
import type { Post, PostPage } from '@campus/contracts';
import { useAppEvent } from '@campus/kit/events';

/**
 * A cursor-paged list of posts (search results, a tag's posts, bookmarks), as SWR's infinite
 * hook pages it: `base` names the list (its SWR key is `[...base, cursor]`), `fetchPage` reads
 * one page after a cursor ('' for the first). A null `base` keeps the hook idle. The list is
 * read afresh when shown, and again when a post is deleted or a member hidden (issue 38).
 */
export function usePostPages<Page extends PostPage>(
  base: readonly [string, ...string[]] | null,
  fetchPage: (base: readonly string[], cursor: string) => Promise<Page | null>,
) {
  const pages = useSWRInfinite<Page | null, Error>(
    (index, previous: Page | null) => {
      if (!base) return null;
      if (index === 0) return [...base, ''];
      return previous?.nextCursor ? [...base, previous.nextCursor] : null;
    },
    (key: string[]) => fetchPage(key.slice(0, -1), key.at(-1) ?? ''),
    { revalidateOnMount: true, revalidateFirstPage: false, keepPreviousData: false },
  );
  const { data, error, size, setSize, isLoading, isValidating, mutate } = pages;
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());

  useAppEvent('postDeleted', ({ postId }) => {
    setHidden((ids) => new Set(ids).add(postId));
    void mutate();
  });
  useAppEvent('memberHidden', () => void mutate());

  const loaded = (data ?? []).filter((page): page is Page => page !== null);
  const seen = new Set<number>();
  const posts: Post[] = [];
  for (const post of loaded.flatMap((page) => page.posts)) {
    if (seen.has(post.id) || hidden.has(post.id)) continue;
    seen.add(post.id);
    posts.push(post);
  }
  const last = loaded.at(-1);
  const loadingMore = size > loaded.length && !error && isValidating;
  return {
    /** The first page as answered (a tag page's count and follow state ride on it). */
    first: loaded[0] ?? null,
    posts,
    loading: Boolean(base) && isLoading && loaded.length === 0,
    /** The first page failed (a later page's failure is `loadMoreFailed`). */
    error: loaded.length === 0 ? error : undefined,
    loadMoreFailed: loaded.length > 0 && Boolean(error),
    hasMore: Boolean(last?.nextCursor),
    loadingMore,
    /** Leaves a post out of the list as shown (one un-bookmarked on the Bookmarks page). */
    hide: (postId: number) => setHidden((ids) => new Set(ids).add(postId)),
    /** The next page; after a failed page, that page again. */
    loadMore: () => void (error ? mutate() : setSize(loaded.length + 1)),
    refresh: () => void mutate(),
  };
}
