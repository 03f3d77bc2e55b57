// What mf_feed publishes: its rspack config reads these paths (readExposes in rspack.shared.js),
// and the compiler checks each module's props against the kit's map of remote modules.
import type { RemoteExposes } from '@campus/kit/remote-modules';

export const exposes = {
  './FeedPage': () => import('./feed/feed-page'),
  './PostDetailPage': () => import('./post-detail/post-detail-page'),
  './PostComposer': () => import('./post-composer/post-composer'),
  './OpportunitiesPage': () => import('./opportunities/opportunities-page'),
  './PostSearchResults': () => import('./discovery/post-search-results'),
  './TagPage': () => import('./discovery/tag-page'),
  './BookmarksPage': () => import('./discovery/bookmarks-page'),
} satisfies RemoteExposes<'mf_feed'>;
