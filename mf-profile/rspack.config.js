const { createAppConfig, readExposes } = require('../rspack.shared');

module.exports = createAppConfig({
  dir: __dirname,
  name: 'mf_profile',
  port: 3002,
  title: 'Campus profile (standalone)',
  exposes: readExposes(__dirname),
});
