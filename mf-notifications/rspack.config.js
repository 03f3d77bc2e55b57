const { createAppConfig } = require('../rspack.shared');

module.exports = createAppConfig({
  dir: __dirname,
  name: 'mf_notifications',
  port: 3003,
  title: 'Campus notifications (standalone)',
  exposes: {
    './NotificationsPage': './src/notifications/notifications-page.tsx',
  },
});
