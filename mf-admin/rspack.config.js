const { createAppConfig, readExposes } = require('../rspack.shared');

module.exports = createAppConfig({
  dir: __dirname,
  name: 'mf_admin',
  port: 3004,
  title: 'Campus analytics (standalone)',
  exposes: readExposes(__dirname),
});
