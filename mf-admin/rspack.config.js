const { createAppConfig } = require('../rspack.shared');

module.exports = createAppConfig({
  dir: __dirname,
  name: 'mf_admin',
  port: 3004,
  title: 'Campus analytics (standalone)',
  exposes: {
    './AnalyticsPage': './src/analytics/analytics-page.tsx',
  },
});
