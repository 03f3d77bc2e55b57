const { createAppConfig } = require('../rspack.shared');
const { EarlyScriptPlugin } = require('./early-script-plugin.cjs');

const appConfig = createAppConfig({ dir: __dirname, name: 'shell', port: 3000, title: 'Campus' });

// The shell's first script (src/early.ts: the landing route's early requests), built on its own and
// run by index.html before the main script (early-script-plugin.cjs).
module.exports = (env, argv) => {
  const config = appConfig(env, argv);
  config.plugins.push(new EarlyScriptPlugin({ entry: './src/early.ts' }));
  return config;
};
