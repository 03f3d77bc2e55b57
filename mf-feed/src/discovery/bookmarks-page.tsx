import styled from 'styled-components';
import { callRoutes, type PostPage } from '@campus/contracts';
import { readCall } from '@campus/kit/api';
import { PostPageList } from './post-page-list';
import { usePostPages } from './post-pages';

const Header = styled.header`
  padding: ${({ theme }) => theme.space(4)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};

  h1 {
    margin: 0;
    font-size: 1.5rem;
  }
  p {
    margin: ${({ theme }) => theme.space(1)} 0 0;
    font-size: 0.875rem;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const BOOKMARKS_KEY: [string] = ['/api/bookmarks'];

/** `GET /api/bookmarks?cursor=`: the caller's bookmarks after `cursor`, newest bookmark first. */
export function fetchBookmarksPage(
  _key: readonly string[],
  cursor: string,
): Promise<PostPage | null> {
  return readCall(callRoutes.bookmarks, { query: { cursor: cursor || undefined } });
}

/**
 * `/bookmarks` (issue 40): the posts the member kept, newest bookmark first, paged by the API's
 * cursor. Private: only the member sees it, and nothing counts bookmarks. A post whose bookmark
 * is removed here leaves the list once the API confirms it (a failed removal keeps it).
 */
export default function BookmarksPage() {
  const list = usePostPages(BOOKMARKS_KEY, fetchBookmarksPage);
  return (
    <section aria-labelledby="bookmarks-title">
      <Header>
        <h1 id="bookmarks-title">Bookmarks</h1>
        <p>Only you can see your bookmarks.</p>
      </Header>
      <PostPageList
        list={list}
        label="Bookmarked posts"
        failed="Failed to fetch bookmarks"
        empty="No bookmarks yet. Bookmark a post to find it here later."
        onBookmarkChange={(post, result) => {
          if (!result.bookmarked) list.hide(post.id);
        }}
      />
    </section>
  );
}
