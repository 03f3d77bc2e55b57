// The one rspack configuration factory every frontend app (the shell host and the four remotes)
// calls. Module Federation 2 with run-time composition: the host compiles in no remote URL, every
// remote publishes an mf-manifest.json, and the libraries below are shared as singletons.
const fs = require('node:fs');
const path = require('node:path');
const { rspack } = require('@rspack/core');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/rspack');

const kitPackage = require('./packages/kit/package.json');

/** The libraries whose state must exist once per page (React, the router, the SWR cache, the kit). */
const SINGLETON_PACKAGES = ['react', 'react-dom', 'react-router-dom', 'swr', 'styled-components'];

/**
 * Sub-paths imported on their own that must resolve to the same instance as their package: the
 * JSX runtime and react-dom/client share React's internals, react-router-dom re-exports
 * react-router, and swr's add-ons read the cache through swr/_internal.
 */
const SINGLETON_SUBPATHS = {
  react: ['react/jsx-runtime', 'react/jsx-dev-runtime'],
  'react-dom': ['react-dom/client'],
  'react-router-dom': ['react-router'],
  swr: ['swr/_internal', 'swr/infinite', 'swr/mutation'],
};

function installedVersion(packageName, fromDir) {
  const manifest = require.resolve(`${packageName}/package.json`, { paths: [fromDir] });
  return JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
}

/**
 * The shared-module map: every singleton with an explicit requiredVersion (the range the app
 * declares) and the version it provides. Nothing is eager: each entry starts with import('./bootstrap').
 */
function sharedModules(appDir) {
  const appPackage = require(path.join(appDir, 'package.json'));
  const declared = { ...appPackage.devDependencies, ...appPackage.dependencies };
  const shared = {};
  for (const packageName of SINGLETON_PACKAGES) {
    const version = installedVersion(packageName, appDir);
    const requiredVersion = declared[packageName] ?? `^${version}`;
    const entry = { singleton: true, requiredVersion, version, eager: false };
    shared[packageName] = entry;
    for (const subpath of SINGLETON_SUBPATHS[packageName] ?? []) {
      const owner = subpath === 'react-router' ? 'react-router' : packageName;
      const ownerVersion = owner === packageName ? version : installedVersion(owner, appDir);
      shared[subpath] = { ...entry, version: ownerVersion, requiredVersion: `^${ownerVersion}` };
    }
  }
  // The kit is shared entry point by entry point (its package.json "exports"), never as a barrel.
  const kitRange = declared['@campus/kit'] ?? `^${kitPackage.version}`;
  for (const subpath of Object.keys(kitPackage.exports)) {
    // Not run-time state: the package manifest, the dev-only standalone mount, the test helpers.
    if (['./package.json', './standalone', './testing'].includes(subpath)) continue;
    const request = path.posix.join('@campus/kit', subpath);
    shared[request] = {
      singleton: true,
      requiredVersion: kitRange,
      version: kitPackage.version,
      eager: false,
    };
  }
  return shared;
}

function resolveMode(env, argv) {
  if (argv.mode) return argv.mode;
  if (process.env.NODE_ENV === 'production' || process.env.NODE_ENV === 'development') {
    return process.env.NODE_ENV;
  }
  return env.RSPACK_SERVE ? 'development' : 'production';
}

/**
 * @param {object} app
 * @param {string} app.dir        the app's folder (__dirname of its rspack.config.js)
 * @param {string} app.name       Module Federation name: an identifier (shell, mf_feed, ...)
 * @param {number} app.port       dev-server port
 * @param {Record<string, string>} [app.exposes]  remotes only: what they publish
 * @param {string} [app.title]    the HTML page title
 */
function createAppConfig({ dir, name, port, exposes, title = 'Campus' }) {
  const isHost = !exposes;
  return (env = {}, argv = {}) => {
    const mode = resolveMode(env, argv);
    const isProduction = mode === 'production';
    const isServe = Boolean(env.RSPACK_SERVE);
    const publicDir = path.join(dir, 'public');
    const template = path.join(dir, 'index.html');

    /** @type {import('@rspack/core').Configuration} */
    const config = {
      mode,
      context: dir,
      entry: { main: './src/index.ts' },
      devtool: isProduction ? false : 'cheap-module-source-map',
      output: {
        path: path.join(dir, 'dist'),
        publicPath: isHost ? '/' : 'auto',
        uniqueName: name,
        filename: isProduction ? '[name].[contenthash:8].js' : '[name].js',
        chunkFilename: isProduction ? '[name].[contenthash:8].js' : '[name].js',
        assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
        clean: true,
      },
      resolve: { extensions: ['.ts', '.tsx', '.js', '.jsx', '.json'] },
      module: {
        rules: [
          {
            test: /\.(ts|tsx|js|jsx)$/,
            exclude: /node_modules/,
            loader: 'builtin:swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                target: 'es2022',
                transform: {
                  react: {
                    runtime: 'automatic',
                    development: !isProduction,
                    refresh: isServe && !isProduction,
                  },
                },
              },
            },
            type: 'javascript/auto',
          },
          { test: /\.(svg|png|jpe?g|gif|webp)$/i, type: 'asset/resource' },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          ...(isHost
            ? { remotes: {} }
            : { filename: 'remoteEntry.js', exposes, manifest: { fileName: 'mf-manifest.json' } }),
          shared: sharedModules(dir),
          shareStrategy: 'loaded-first',
          dts: false,
        }),
        new rspack.HtmlRspackPlugin({
          title,
          ...(fs.existsSync(template) ? { template } : {}),
          // A remote's own page is only a development harness; the host page is the product.
          filename: 'index.html',
          chunks: ['main'],
        }),
        new rspack.DefinePlugin({
          'process.env.NODE_ENV': JSON.stringify(mode),
        }),
        ...(fs.existsSync(publicDir) && !isServe
          ? [new rspack.CopyRspackPlugin({ patterns: [{ from: publicDir, to: '.' }] })]
          : []),
        ...(isServe && !isProduction ? [reactRefreshPlugin()] : []),
      ],
      optimization: {
        minimize: isProduction,
      },
      performance: { hints: false },
      lazyCompilation: false,
      devServer: {
        port,
        hot: true,
        historyApiFallback: true,
        headers: {
          'Access-Control-Allow-Origin': '*',
          'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
          'Access-Control-Allow-Headers': '*',
        },
        static: fs.existsSync(publicDir) ? { directory: publicDir } : false,
        client: { overlay: { errors: true, warnings: false } },
      },
    };
    return config;
  };
}

function reactRefreshPlugin() {
  const { ReactRefreshRspackPlugin } = require('@rspack/plugin-react-refresh');
  return new ReactRefreshRspackPlugin();
}

module.exports = { createAppConfig, sharedModules };
