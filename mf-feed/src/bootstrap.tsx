import { mountStandalone } from '@campus/kit/standalone';
import FeedPage from './feed/feed-page';
import OpportunitiesPage from './opportunities/opportunities-page';
import PostDetailPage from './post-detail/post-detail-page';

// Only for running this remote alone (`npm run dev -w mf-feed`); the shell mounts the exposed modules.
mountStandalone([
  { path: '/', element: <FeedPage /> },
  { path: '/opportunities', element: <OpportunitiesPage /> },
  { path: '/post/:id', element: <PostDetailPage /> },
]);
