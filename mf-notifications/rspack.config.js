const { createAppConfig, readExposes } = require('../rspack.shared');

module.exports = createAppConfig({
  dir: __dirname,
  name: 'mf_notifications',
  port: 3003,
  title: 'Campus notifications (standalone)',
  exposes: readExposes(__dirname),
});
