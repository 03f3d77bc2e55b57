const { createAppConfig, readExposes } = require('../rspack.shared');

module.exports = createAppConfig({
  dir: __dirname,
  name: 'mf_feed',
  port: 3001,
  title: 'Campus feed (standalone)',
  exposes: readExposes(__dirname),
});
