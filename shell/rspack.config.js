const { createAppConfig } = require('../rspack.shared');

module.exports = createAppConfig({ dir: __dirname, name: 'shell', port: 3000, title: 'Campus' });
