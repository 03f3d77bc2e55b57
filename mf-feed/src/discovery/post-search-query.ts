import { callRoutes, postSearchQuerySchema, type PostPage } from '@campus/contracts';
import { readCall } from '@campus/kit/api';

/** The filters of a post search, as the URL holds them (`/search?tab=posts&q=…&jd=true`). */
export const POST_SEARCH_FILTERS = ['from', 'jd', 'images', 'since', 'until'] as const;
export type PostSearchFilter = (typeof POST_SEARCH_FILTERS)[number];
export type PostSearchFilters = Partial<Record<PostSearchFilter, string>>;

/**
 * The post search a URL asks for: its `q` and the filters the contract accepts. A filter the
 * API would refuse (a hand-edited `jd=maybe`) is left out rather than failing the search; a q the
 * API would refuse (empty, too long) gives no search at all.
 */
export function postSearchFromUrl(params: URLSearchParams): {
  q: string;
  filters: PostSearchFilters;
} | null {
  const parsedQ = postSearchQuerySchema.shape.q.safeParse(params.get('q') ?? '');
  if (!parsedQ.success) return null;
  const filters: PostSearchFilters = {};
  for (const name of POST_SEARCH_FILTERS) {
    const value = params.get(name);
    if (value === null || value === '' || (name !== 'from' && value === 'false')) continue;
    if (postSearchQuerySchema.shape[name].safeParse(value).success) filters[name] = value;
  }
  return { q: parsedQ.data, filters };
}

/** The SWR key of a search's pages, without the cursor: one list per q and filters. */
export function postSearchKey(q: string, filters: PostSearchFilters): [string, ...string[]] {
  return ['/api/search/posts', q, ...POST_SEARCH_FILTERS.map((name) => filters[name] ?? '')];
}

/** `GET /api/search/posts?q=…&<filters>&cursor=`: the page of results after `cursor`. */
export function fetchPostSearchPage(
  key: readonly string[],
  cursor: string,
): Promise<PostPage | null> {
  const [, q = '', from, jd, images, since, until] = key;
  return readCall(callRoutes.searchPosts, {
    query: {
      q,
      from: from ? Number(from) : undefined,
      jd: jd === 'true' ? 'true' : undefined,
      images: images === 'true' ? 'true' : undefined,
      since: since || undefined,
      until: until || undefined,
      cursor: cursor || undefined,
    },
  });
}
