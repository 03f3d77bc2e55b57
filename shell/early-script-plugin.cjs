// The shell's first script (issue 22: no waterfall). src/early.ts starts env.json, the session
// check and the landing route's first data; it must run as soon as the page is parsed, not once
// the shell's main script (the federation runtime, ~136 KB, ~1 s of evaluation at 4x CPU) has
// arrived and run. An entry of the app's own build cannot do that: Module Federation adds its
// runtime to every entry of the compilation. So this plugin builds src/early.ts in a compilation
// of its own (plain rspack, no federation, no chunks: one small self-contained file), emits it as
// `early.<hash>.js` with the app's files and puts `<script defer src=".../early.<hash>.js">` before
// the main script in index.html. Deferred scripts run in document order, so it always runs
// first; the page's Content-Security-Policy allows it (a file from the page's own origin, no
// inline script).
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const PLUGIN = 'EarlyScriptPlugin';

class EarlyScriptPlugin {
  /** @param {{ entry: string }} options  the script's source, relative to the app's folder */
  constructor({ entry }) {
    this.entry = entry;
  }

  /** Builds the entry alone; resolves to its minified source. */
  async build(compiler) {
    const { rspack } = require('@rspack/core');
    const production = compiler.options.mode === 'production';
    const outputDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'campus-early-script-'));
    try {
      const early = rspack({
        mode: production ? 'production' : 'development',
        context: compiler.options.context,
        entry: { early: this.entry },
        target: 'web',
        devtool: false,
        output: { path: outputDir, filename: 'early.js', iife: true, clean: false },
        resolve: { extensions: ['.ts', '.js'] },
        module: {
          rules: [
            {
              test: /\.ts$/,
              exclude: /node_modules/,
              loader: 'builtin:swc-loader',
              options: { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } },
              type: 'javascript/auto',
            },
          ],
        },
        optimization: { minimize: production },
        performance: { hints: false },
      });
      const stats = await new Promise((resolve, reject) =>
        early.run((error, result) => {
          early.close(() => undefined);
          if (error) reject(error);
          else resolve(result);
        }),
      );
      if (stats.hasErrors()) {
        throw new Error(`${this.entry}:\n${stats.toString({ all: false, errors: true })}`);
      }
      const files = await fs.promises.readdir(outputDir);
      if (files.length !== 1) {
        throw new Error(
          `${this.entry} must build to one file (no import()), not ${files.join(', ')}`,
        );
      }
      return {
        source: await fs.promises.readFile(path.join(outputDir, 'early.js'), 'utf8'),
        dependencies: [...stats.compilation.fileDependencies],
      };
    } finally {
      await fs.promises.rm(outputDir, { recursive: true, force: true });
    }
  }

  apply(compiler) {
    const { HtmlRspackPlugin, sources, Compilation } = require('@rspack/core');
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      let fileName;
      compilation.hooks.processAssets.tapPromise(
        { name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        async () => {
          const { source, dependencies } = await this.build(compiler);
          const hash = crypto.createHash('sha256').update(source).digest('hex').slice(0, 8);
          fileName = compiler.options.mode === 'production' ? `early.${hash}.js` : 'early.js';
          compilation.emitAsset(fileName, new sources.RawSource(source), {
            immutable: compiler.options.mode === 'production',
          });
          // A change to the script rebuilds it in watch mode (rspack serve).
          for (const file of dependencies) compilation.fileDependencies.add(file);
        },
      );
      HtmlRspackPlugin.getCompilationHooks(compilation).alterAssetTags.tapPromise(
        PLUGIN,
        async (data) => {
          if (!fileName) return data;
          const publicPath = data.publicPath ?? compilation.outputOptions.publicPath ?? '';
          data.assetTags.scripts.unshift({
            tagName: 'script',
            voidTag: false,
            attributes: { defer: true, src: `${publicPath}${fileName}` },
          });
          return data;
        },
      );
    });
  }
}

module.exports = { EarlyScriptPlugin };
