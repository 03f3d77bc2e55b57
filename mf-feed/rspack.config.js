const { createAppConfig } = require('../rspack.shared');

module.exports = createAppConfig({
  dir: __dirname,
  name: 'mf_feed',
  port: 3001,
  title: 'Campus feed (standalone)',
  exposes: {
    './FeedPage': './src/feed/feed-page.tsx',
    './PostDetailPage': './src/post-detail/post-detail-page.tsx',
    './PostComposer': './src/post-composer/post-composer.tsx',
    './OpportunitiesPage': './src/opportunities/opportunities-page.tsx',
  },
});
