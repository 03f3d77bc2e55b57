// The one rspack configuration factory every frontend app (the shell host and the four remotes)
// calls. Module Federation 2 with run-time composition: the host compiles in no remote URL, every
// remote publishes an mf-manifest.json, and the libraries below are shared as singletons.
const fs = require('node:fs');
const path = require('node:path');
const { rspack } = require('@rspack/core');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/rspack');

const kitPackage = require('./packages/kit/package.json');

const KIT_DIR = path.join(__dirname, 'packages', 'kit');
const CONTRACTS_SRC = path.join(__dirname, 'packages', 'contracts', 'src');
/** The call table's zod-free routes, which the kit's api client and keys read. */
const CALL_ROUTES = path.join(CONTRACTS_SRC, 'call-routes.ts');

/**
 * Kit entry points that are not shared at run time: the package manifest, the development-only
 * standalone mount, the test helpers and the compile-time map of remote modules (types only).
 */
const KIT_UNSHARED_SUBPATHS = ['./package.json', './standalone', './testing', './remote-modules'];

/**
 * The kit version this build is made with: the kit's own, unless CAMPUS_KIT_VERSION_OVERRIDE
 * names another one. Only the e2e suite sets it, to build a remote as if it had been made
 * against a newer kit (docs/feature-teams.md).
 */
function kitBuildVersion() {
  const override = process.env.CAMPUS_KIT_VERSION_OVERRIDE;
  if (!override) return kitPackage.version;
  if (!/^\d+\.\d+\.\d+$/.test(override)) {
    throw new Error(`CAMPUS_KIT_VERSION_OVERRIDE must be a version like 1.2.0, not "${override}"`);
  }
  return override;
}

/** Every kit entry point shared at run time ('./api', './post-card', ...), from its exports map. */
function sharedKitSubpaths() {
  return Object.keys(kitPackage.exports).filter(
    (subpath) => !KIT_UNSHARED_SUBPATHS.includes(subpath),
  );
}

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

/** The export conditions rspack resolves a browser production build's `import` with. */
const BROWSER_CONDITIONS = new Set([
  'import',
  'module',
  'webpack',
  'production',
  'browser',
  'default',
]);

/**
 * The file a browser build gets for `request` ('swr/infinite', 'react-dom/client'), read from its
 * package's "exports" as rspack reads them, as a path relative to the app's folder.
 */
function browserEntry(packageName, request, appDir, isProduction = false) {
  const manifest = require.resolve(`${packageName}/package.json`, { paths: [appDir] });
  const { exports } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  const subpath = `.${request.slice(packageName.length)}`;
  let target = exports?.[subpath];
  while (target && typeof target === 'object') {
    const condition = Object.keys(target).find((name) => BROWSER_CONDITIONS.has(name));
    target = condition ? target[condition] : undefined;
  }
  if (typeof target !== 'string') throw new Error(`${request}: no browser entry in ${manifest}`);
  const file = productionBuildOf(path.join(path.dirname(manifest), target), isProduction);
  return `./${path.relative(appDir, file).split(path.sep).join('/')}`;
}

/**
 * React Router 7 ships a development build (its dev warnings on) and a production build side by
 * side, but its package "exports" give every bundler the development one, whatever the mode. A
 * production build takes `dist/production/` instead: the same files with `ENABLE_DEV_WARNINGS`
 * false, so the minifier drops the warnings. Every app and the floor (scripts/bundle/floor.ts,
 * built by this file) get it alike.
 */
const DEVELOPMENT_BUILDS = [
  `${path.sep}react-router${path.sep}dist${path.sep}development${path.sep}`,
];

function productionBuildOf(file, isProduction) {
  if (!isProduction) return file;
  for (const marker of DEVELOPMENT_BUILDS) {
    if (!file.includes(marker)) continue;
    const production = file.replace(marker, marker.replace('development', 'production'));
    if (fs.existsSync(production)) return production;
  }
  return file;
}

/** `resolve.alias` of a production build: React Router's own requests to its production build. */
function productionAliases(appDir) {
  const alias = {};
  for (const request of ['react-router', 'react-router/dom']) {
    const file = path.join(appDir, browserEntry('react-router', request, appDir, true));
    alias[`${request}$`] = file;
  }
  return alias;
}

const KIT_SRC = path.join(KIT_DIR, 'src');

/** React's production JSX runtime: `react/jsx-runtime` and the file it loads. */
const JSX_RUNTIME =
  /[\\/]node_modules[\\/]react[\\/](?:jsx-runtime\.js|cjs[\\/]react-jsx-runtime\.production\.js)$/;

/**
 * The kit's entry points a post needs (the card, its '⋯' menu with Mute and Block and the report
 * dialog, the collapsed muted-word row, the text with links and the member rows beside it, with
 * their follow buttons, the composer's images), grouped apart from the rest so a page without posts or members
 * (notifications, the admin's pages) does not download them.
 */
const KIT_POST_ENTRIES = [
  'post-card',
  'media',
  'own-words',
  'safety',
  'report',
  'text',
  'user-row',
  'follow-button',
];

/**
 * The kit's files that it loads itself with `import('./...')` (the report dialog, linkify): they
 * stay in chunks of their own, fetched when needed, outside the kit's grouped chunks.
 */
function kitLazyFiles() {
  const lazy = new Set();
  const files = fs.readdirSync(KIT_SRC, { recursive: true, withFileTypes: true });
  for (const entry of files) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name))
      continue;
    const file = path.join(entry.parentPath, entry.name);
    for (const [, request] of fs
      .readFileSync(file, 'utf8')
      .matchAll(/import\(\s*'(\.[^']+)'\s*\)/g)) {
      const base = path.resolve(path.dirname(file), request);
      const found = ['.ts', '.tsx', '/index.ts', '/index.tsx']
        .map((extension) => base + extension)
        .find((candidate) => fs.existsSync(candidate));
      if (found) lazy.add(found);
    }
  }
  return lazy;
}

/**
 * Kit entry points that stay out of both grouped chunks, in a chunk of their own fetched with the
 * first module that imports them: the @mention field (issue 40) comes with the writing surfaces
 * (the composer, the comment box, the quote box), never with the posts a page first shows.
 */
const KIT_ON_DEMAND_ENTRIES = ['mentions'];

/**
 * The host's chunks of the kit: every kit entry point is its own shared module, and each used to
 * be its own file (15 on the feed, ~22 KiB gzip, ~17 KiB once gzipped together). Grouped in two
 * chunks, `kit` (session, api, data, ui, toast, stream, ...) and `kit-posts`, a page downloads
 * the kit in one or two files (a remote's copy: remoteKitCacheGroups).
 *
 * The host's own start-up code (the modules of the chunk that holds `src/bootstrap.tsx`: the
 * app, its routes and layout, the federation runtime's re-exports; not the pages and parts it
 * loads with `import()`, nor the shared libraries, which have chunks of their own) goes in the `kit`
 * chunk too: every page downloads both before its first paint, and gzip compresses them better
 * together (the same JSX and styled-components vocabulary): one file instead of two, ~1 KiB less.
 * No loading cycle: the shell's `@campus/kit/*` imports are consume modules, which stay in the
 * bootstrap's own chunk, and the `kit` chunk itself consumes nothing of the kit.
 */
function kitCacheGroups(appDir) {
  const lazy = kitLazyFiles();
  const bootstrapFile = path.join(appDir, 'src', 'bootstrap.tsx');
  const isStartupModule = (module, chunkGraph) =>
    Boolean(module.resource) &&
    chunkGraph
      .getModuleChunks(module)
      .some((chunk) =>
        chunkGraph.getChunkModules(chunk).some((other) => other.resource === bootstrapFile),
      );
  const postDirs = KIT_POST_ENTRIES.map((entry) => path.join(KIT_SRC, entry) + path.sep);
  const onDemandDirs = KIT_ON_DEMAND_ENTRIES.map((entry) => path.join(KIT_SRC, entry) + path.sep);
  const inKit = (module) => {
    const file = module.resource?.split('?')[0];
    return Boolean(
      file &&
      file.startsWith(KIT_SRC + path.sep) &&
      !lazy.has(file) &&
      !onDemandDirs.some((dir) => file.startsWith(dir)),
    );
  };
  const isPostModule = (module) => postDirs.some((dir) => module.resource.startsWith(dir));
  // React's JSX runtime (0.3 KiB gzip) was a file of its own that every page fetched with the
  // kit: the kit, the shell and every remote call it. Its page needs nothing else from it.
  const isJsxRuntime = (module) => JSX_RUNTIME.test(module.resource ?? '');
  return {
    kitPosts: {
      test: (module) => inKit(module) && isPostModule(module),
      name: 'kit-posts',
      chunks: 'async',
      enforce: true,
      priority: 20,
    },
    kit: {
      // With the contracts' literal constants the kit reads (scripts/bundle/pure-contracts-loader.cjs)
      // and the call table's routes (once here, rather than a copy in each chunk that uses them).
      test: (module, { chunkGraph }) =>
        (inKit(module) && !isPostModule(module)) ||
        Boolean(module.resource?.endsWith('?contracts-literals')) ||
        module.resource === CALL_ROUTES ||
        isJsxRuntime(module) ||
        isStartupModule(module, chunkGraph),
      name: 'kit',
      chunks: 'async',
      enforce: true,
      priority: 20,
    },
  };
}

/**
 * A remote's chunk of the kit: its own copy of every kit entry point, a fallback that loads only
 * when the shell provides no version of that entry point (docs/feature-teams.md: a remote built
 * against the shell's kit, an older or a newer minor runs on the shell's). In one chunk rather
 * than one per entry point, the chunk map and share table every page reads from the remote's
 * remoteEntry.js are shorter (~0.4 KiB gzip); a fallback, when one is needed, downloads the
 * whole copy (~16 KiB gzip) and still runs only the entry points it was asked for.
 */
function remoteKitCacheGroups() {
  const lazy = kitLazyFiles();
  return {
    kitFallback: {
      test: (module) => {
        const file = module.resource?.split('?')[0];
        return Boolean(file && file.startsWith(KIT_SRC + path.sep) && !lazy.has(file));
      },
      name: 'kit',
      chunks: 'async',
      enforce: true,
      priority: 20,
    },
  };
}

function installedVersion(packageName, fromDir) {
  const manifest = require.resolve(`${packageName}/package.json`, { paths: [fromDir] });
  return JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
}

/**
 * The shared-module map: every singleton with an explicit requiredVersion and the version it
 * provides. Nothing is eager: each entry starts with import('./bootstrap').
 *
 * The kit is shared entry point by entry point (its package.json "exports"), never as a barrel,
 * and each app requires `^<the kit version it was built with>`: what it was compiled and tested
 * against, not a hand-written range. The host provides EVERY shared kit entry point, including
 * the ones it never imports itself (the post card, the follow button, ...): a module is provided
 * only when it is part of the build, and an `import` given as a path makes it part of the build.
 * So a remote built against an older compatible kit always runs on the shell's copy and never
 * falls back to its own. The same holds for the singletons' sub-paths (swr/infinite, ...).
 */
function sharedModules(appDir, { isHost = false, isProduction = false } = {}) {
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
      shared[subpath] = {
        ...entry,
        version: ownerVersion,
        requiredVersion: `^${ownerVersion}`,
        // The host provides every sub-path, also those only a remote imports (swr/infinite): a
        // remote's own copy would bring its own copy of the package's internals (swr/infinite
        // imports SWR's cache and config context by relative paths, not through 'swr').
        ...(isHost ? { import: browserEntry(owner, subpath, appDir, isProduction) } : {}),
      };
    }
  }
  const kitVersion = kitBuildVersion();
  for (const subpath of sharedKitSubpaths()) {
    const request = path.posix.join('@campus/kit', subpath);
    const source = path.join(KIT_DIR, kitPackage.exports[subpath]);
    shared[request] = {
      singleton: true,
      requiredVersion: `^${kitVersion}`,
      version: kitVersion,
      eager: false,
      // Relative to the app's folder, so no machine's absolute path ends up in the bundle.
      ...(isHost ? { import: `./${path.relative(appDir, source).split(path.sep).join('/')}` } : {}),
    };
  }
  return shared;
}

/**
 * A remote's exposes, read from its src/exposes.ts: the one list the compiler checks against the
 * kit's map of remote modules (`'./FeedPage': () => import('./feed/feed-page')`). Parsed with the
 * TypeScript parser, never evaluated; anything else in that object fails the build.
 */
function readExposes(appDir) {
  const ts = require('typescript');
  const file = path.join(appDir, 'src', 'exposes.ts');
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const exposes = {};
  const fail = (node, why) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    throw new Error(`${file}:${line + 1}: ${why}`);
  };
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === 'exposes') {
      let value = node.initializer;
      while (value && (ts.isSatisfiesExpression(value) || ts.isAsExpression(value))) {
        value = value.expression;
      }
      if (!value || !ts.isObjectLiteralExpression(value)) fail(node, 'exposes must be an object');
      for (const property of value.properties) {
        const name = ts.isPropertyAssignment(property) && property.name;
        const load = ts.isPropertyAssignment(property) && property.initializer;
        const call = load && ts.isArrowFunction(load) && load.body;
        const isImport =
          call && ts.isCallExpression(call) && call.expression.kind === ts.SyntaxKind.ImportKeyword;
        const specifier = isImport && call.arguments[0];
        if (
          !name ||
          !ts.isStringLiteral(name) ||
          !name.text.startsWith('./') ||
          !specifier ||
          !ts.isStringLiteral(specifier)
        ) {
          fail(property, "each exposed module must read `'./Name': () => import('./path')`");
        }
        exposes[property.name.text] = `./${path.posix.join('src', specifier.text)}`;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (Object.keys(exposes).length === 0) throw new Error(`${file} exposes nothing`);
  return exposes;
}

// The chunk name every remote gives its standalone harness, with a webpackChunkName comment on
// its `import('./bootstrap')` (src/index.ts).
const STANDALONE_CHUNK = 'standalone';

/** What the servers may send compressed: text files, at least this big to be worth it. */
const PRECOMPRESSED = /\.(?:js|mjs|css|html|json|svg|txt)$/;
const PRECOMPRESS_MIN_BYTES = 1024;
/** Written when the shell's container starts (docker/shell/): a build-time copy would be stale. */
const NEVER_PRECOMPRESSED = new Set(['env.json']);

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy next to every text file of
 * a production build, once it is on disk (the Module Federation manifest included), so the
 * servers send the smallest form the browser accepts without compressing on each request:
 * scripts/serve/static-server.ts (sirv) picks `.br` or `.gz`, nginx's gzip_static the `.gz`
 * (docker/nginx/). A copy that would not be smaller is not written.
 */
class PrecompressPlugin {
  apply(compiler) {
    compiler.hooks.done.tapPromise('PrecompressPlugin', async (stats) => {
      if (stats.hasErrors()) return;
      const zlib = require('node:zlib');
      const { promisify } = require('node:util');
      const brotli = promisify(zlib.brotliCompress);
      const gzip = promisify(zlib.gzip);
      const outputDir = compiler.options.output.path;
      const entries = await fs.promises.readdir(outputDir, {
        recursive: true,
        withFileTypes: true,
      });
      await Promise.all(
        entries
          .filter((entry) => entry.isFile() && PRECOMPRESSED.test(entry.name))
          .filter((entry) => !NEVER_PRECOMPRESSED.has(entry.name))
          .map(async (entry) => {
            const file = path.join(entry.parentPath, entry.name);
            const body = await fs.promises.readFile(file);
            if (body.length < PRECOMPRESS_MIN_BYTES) return;
            const [br, gz] = await Promise.all([
              brotli(body, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
                },
              }),
              gzip(body, { level: 9 }),
            ]);
            if (br.length < body.length) await fs.promises.writeFile(`${file}.br`, br);
            if (gz.length < body.length) await fs.promises.writeFile(`${file}.gz`, gz);
          }),
      );
    });
  }
}

/**
 * A remote's production build carries no page of its own: its `/` answers with this static page,
 * which says which remote the server holds and links to the files the shell loads, and loads no
 * script (the standalone development page, src/bootstrap.tsx, exists only in development builds
 * and `npm run dev`).
 */
function remoteIndexHtml({ name, packageName, version, title }) {
  const escape = (text) => String(text).replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escape(title)}</title>`,
    '</head>',
    '<body>',
    '<main>',
    `<h1>${escape(title)}</h1>`,
    `<p>This server holds <code>${escape(name)}</code>, the Module Federation remote ` +
      `<code>${escape(packageName)}</code>${version ? ` ${escape(version)}` : ''} of Campus. Its pages run inside the ` +
      'Campus shell, which loads them through its manifest; there is nothing to use here on its own.</p>',
    '<ul>',
    '<li><a href="mf-manifest.json">mf-manifest.json</a>: the manifest the shell reads</li>',
    '<li><a href="remoteEntry.js">remoteEntry.js</a>: the remote\'s entry script</li>',
    '</ul>',
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

class RemoteIndexPlugin {
  constructor(page) {
    this.html = remoteIndexHtml(page);
  }

  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('RemoteIndexPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'RemoteIndexPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => compilation.emitAsset('index.html', new sources.RawSource(this.html)),
      );
    });
  }
}

/**
 * A loopback address with a port (`localhost:4000`, `127.0.0.1:3001`, `[::1]:4000`): a server on
 * the developer's machine, which no production page may name. A bare `http://localhost` without a
 * port is left alone: libraries use it as a base to parse relative URLs with (React Router's
 * `new URL(path, "http://localhost")`) and never fetch it, and linkify knows `localhost` as a
 * host name.
 */
const LOOPBACK_ADDRESS = /\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):\d+/;

/**
 * The files of a production build that may name a loopback address: the shell's env.json, its
 * local defaults, which the deployment replaces (docker/shell/40-write-env-json.sh; npm start and
 * the e2e runs serve their own).
 */
const RUNTIME_CONFIG_FILES = new Set(['env.json']);

/** The text files of `assets` ({ name, source }) that name a loopback address, with the match. */
function loopbackAddressesIn(assets) {
  const found = [];
  for (const { name, source } of assets) {
    if (!PRECOMPRESSED.test(name) || RUNTIME_CONFIG_FILES.has(path.posix.basename(name))) continue;
    const match = LOOPBACK_ADDRESS.exec(source);
    if (match) found.push({ name, address: match[0] });
  }
  return found;
}

/**
 * Fails a production build whose output names a loopback address (LOOPBACK_ADDRESS): such a
 * build would call a developer's machine from a member's browser (the remotes' standalone page
 * once shipped `http://localhost:4000`).
 */
class NoLoopbackAddressPlugin {
  apply(compiler) {
    const { Compilation, WebpackError } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('NoLoopbackAddressPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'NoLoopbackAddressPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT },
        (assets) => {
          const files = Object.keys(assets).map((name) => ({
            name,
            source: String(assets[name].source()),
          }));
          for (const { name, address } of loopbackAddressesIn(files)) {
            compilation.errors.push(
              new WebpackError(
                `${name} names ${address}: a production build must not call a development ` +
                  'address (rspack.shared.js, NoLoopbackAddressPlugin)',
              ),
            );
          }
        },
      );
    });
  }
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
 * @param {string} [app.title]    the HTML page title (a remote's: its development page's)
 */
function createAppConfig({ dir, name, port, exposes, title = 'Campus' }) {
  const isHost = !exposes;
  return (env = {}, argv = {}) => {
    const mode = resolveMode(env, argv);
    const isProduction = mode === 'production';
    const isServe = Boolean(env.RSPACK_SERVE);
    const publicDir = path.join(dir, 'public');
    const template = path.join(dir, 'index.html');
    // A remote's own page (src/index.ts -> src/bootstrap.tsx, mountStandalone) is a development
    // harness: a production remote is only its remoteEntry.js, its manifest and their chunks.
    const hasPage = isHost || !isProduction;
    const appPackage = require(path.join(dir, 'package.json'));

    /** @type {import('@rspack/core').Configuration} */
    const config = {
      mode,
      context: dir,
      entry: hasPage ? { main: './src/index.ts' } : {},
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
      resolve: {
        extensions: ['.ts', '.tsx', '.js', '.jsx', '.json'],
        ...(isProduction ? { alias: productionAliases(dir) } : {}),
      },
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
          // @campus/contracts builds its zod schemas at module level: only the ones a page
          // imports may reach it (scripts/bundle/pure-contracts-loader.cjs).
          ...(isProduction
            ? [
                {
                  test: /\.ts$/,
                  include: CONTRACTS_SRC,
                  enforce: 'pre',
                  sideEffects: false,
                  loader: path.join(__dirname, 'scripts', 'bundle', 'pure-contracts-loader.cjs'),
                },
              ]
            : []),
          { test: /\.(svg|png|jpe?g|gif|webp)$/i, type: 'asset/resource' },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          ...(isHost
            ? { remotes: {} }
            : { filename: 'remoteEntry.js', exposes, manifest: { fileName: 'mf-manifest.json' } }),
          shared: sharedModules(dir, { isHost, isProduction }),
          shareStrategy: 'loaded-first',
          dts: false,
          // The federation runtime ships once per page, in the shell: a production remote's
          // remoteEntry.js uses the shell's (_FEDERATION_RUNTIME_CORE) instead of carrying its
          // own copy. Development builds keep their own, so a remote still runs standalone.
          ...(isProduction && !isServe
            ? { experiments: isHost ? { provideExternalRuntime: true } : { externalRuntime: true } }
            : {}),
        }),
        hasPage
          ? new rspack.HtmlRspackPlugin({
              title,
              ...(fs.existsSync(template) ? { template } : {}),
              filename: 'index.html',
              chunks: ['main'],
            })
          : new RemoteIndexPlugin({
              name,
              packageName: appPackage.name,
              version: appPackage.version,
              title: `Campus: the ${appPackage.name} remote`,
            }),
        new rspack.DefinePlugin({
          'process.env.NODE_ENV': JSON.stringify(mode),
        }),
        ...(fs.existsSync(publicDir) && !isServe
          ? [new rspack.CopyRspackPlugin({ patterns: [{ from: publicDir, to: '.' }] })]
          : []),
        ...(isServe && !isProduction ? [reactRefreshPlugin()] : []),
        ...(isProduction && !isServe ? [new PrecompressPlugin()] : []),
        ...(isProduction ? [new NoLoopbackAddressPlugin()] : []),
      ],
      optimization: {
        minimize: isProduction,
        splitChunks: {
          // A remote's standalone harness (src/bootstrap.tsx, in development builds only: run on
          // the remote's own port) imports every page, so the modules a page shares with it used to be split into a
          // chunk of their own: the feed page downloaded its hooks and who-to-follow as a second
          // file. Left out of the split, each exposed page keeps its own code in its one file.
          ...(isHost
            ? {}
            : { chunks: (chunk) => !chunk.canBeInitial() && chunk.name !== STANDALONE_CHUNK }),
          cacheGroups: {
            // SWR's internals (its cache, config context and hooks) in one chunk, as they were
            // before the host provided swr/infinite and swr/mutation: those import the same
            // internals by relative paths, and a chunk per combination would split them in three.
            // dequal too: SWR, swr/infinite and swr/mutation each import it, and it was in a chunk
            // of its own beside swr's and again inside swr/infinite's (scope hoisting).
            swr: {
              test: /[\\/]node_modules[\\/](?:swr[\\/]dist[\\/](?!infinite[\\/]|mutation[\\/])|use-sync-external-store[\\/]|dequal[\\/])/,
              name: 'swr',
              chunks: 'async',
              enforce: true,
            },
            ...(isHost ? kitCacheGroups(dir) : remoteKitCacheGroups()),
          },
        },
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

module.exports = {
  createAppConfig,
  readExposes,
  sharedModules,
  loopbackAddressesIn,
  NoLoopbackAddressPlugin,
};
