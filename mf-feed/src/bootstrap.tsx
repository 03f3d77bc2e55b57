import { mountStandalone } from '@campus/kit/standalone';
import BookmarksPage from './discovery/bookmarks-page';
import PostSearchResults from './discovery/post-search-results';
import TagPage from './discovery/tag-page';
import FeedPage from './feed/feed-page';
import OpportunitiesPage from './opportunities/opportunities-page';
import PostDetailPage from './post-detail/post-detail-page';

// Only for running this remote alone (`npm run dev -w mf-feed`); the shell mounts the exposed modules.
mountStandalone([
  { path: '/', element: <FeedPage /> },
  { path: '/opportunities', element: <OpportunitiesPage /> },
  { path: '/post/:id', element: <PostDetailPage /> },
  { path: '/search', element: <PostSearchResults /> },
  { path: '/tags/:tag', element: <TagPage /> },
  { path: '/bookmarks', element: <BookmarksPage /> },
]);
