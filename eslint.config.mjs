// Flat config shared by every workspace.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

const root = import.meta.dirname;
const subdirectories = (dir) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const REMOTES = subdirectories('.').filter((name) => name.startsWith('mf-'));
const API_MODULES = subdirectories('api/src/modules');

// The apps: nothing under packages/ may import them.
const APPS = ['api', 'shell', ...REMOTES, 'e2e', 'scripts'];
// Layers of the client, lowest first: contracts -> kit -> remotes -> shell. A layer imports only
// the layers below it; remotes are deployed independently, so they never import each other.
const boundaryZones = [
  {
    target: 'packages/contracts',
    from: ['packages/kit', 'packages/embedded-mongo', ...APPS],
    message: 'contracts is the bottom layer: it imports nothing of ours.',
  },
  {
    target: 'packages/kit',
    from: ['packages/embedded-mongo', ...APPS],
    message: 'The kit imports only @campus/contracts.',
  },
  {
    target: 'packages/embedded-mongo',
    from: APPS,
    message: 'Packages never import apps.',
  },
  ...REMOTES.map((remote) => ({
    target: remote,
    from: [
      'api',
      'shell',
      'packages/embedded-mongo',
      'e2e',
      'scripts',
      ...REMOTES.filter((r) => r !== remote),
    ],
    message:
      'A remote imports only @campus/kit and @campus/contracts: never the shell, another remote or the API.',
  })),
  {
    target: 'shell',
    from: ['api', 'packages/embedded-mongo', 'e2e', 'scripts', ...REMOTES],
    message:
      'The shell imports only @campus/kit and @campus/contracts; remotes are loaded at run time, never from their source.',
  },
  {
    target: 'api',
    from: ['packages/kit', 'shell', ...REMOTES, 'e2e', 'scripts'],
    message: 'The API imports only @campus/contracts and @campus/embedded-mongo of ours.',
  },
  {
    target: ['scripts/start.ts', 'scripts/serve', 'scripts/ops/render-nginx.ts'],
    from: ['e2e', 'api/test', 'scripts/bench', 'scripts/bundle', 'scripts/compose'],
    message:
      'What `npm start` runs (scripts/start.ts, scripts/serve) and what an operator runs (scripts/ops/render-nginx.ts) is production code: it never imports test support or benchmarks.',
  },
  {
    target: 'api/src/platform',
    from: 'api/src/modules',
    message: 'api/src/platform is below the modules: it never imports one.',
  },
  // A module reaches another module's data through that module's service, never its model. Test
  // files are exempt: an integration test may read any collection to assert what was stored.
  ...API_MODULES.map((name) => ({
    target: `api/src/modules/${name}/**/!(*.test).ts`,
    from: ['api/src/modules/*/model.ts', 'api/src/modules/*/model/**'],
    except: [path.join(root, `api/src/modules/${name}/**`)],
    message: `The ${name} module may call another module's functions, never read its model.`,
  })),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.data/**',
      '**/coverage/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '.tsbuild/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.{ts,tsx,js,cjs,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      // Resolves @campus/* through the workspaces' package exports to their source files, so the
      // zones below see real paths.
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: path.join(root, 'tsconfig.json'),
          alwaysTryTypes: true,
        }),
      ],
    },
    rules: {
      // Type-only imports are erased at run time, so they do not count as cycles.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
    },
  },
  {
    // A module reads its own collections through its model's accessor (posts/model.ts `postsOf`),
    // which no other module may import (the zones above): `ctx.models` itself is off limits.
    files: ['api/src/modules/**/*.ts'],
    ignores: ['api/src/modules/*/model.ts', 'api/src/modules/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='models']",
          message:
            "Read this module's collections through its model.ts accessor (e.g. postsOf(ctx)), never ctx.models: another module's data stays behind that module's functions.",
        },
      ],
    },
  },
  {
    files: ['**/*.tsx', 'packages/kit/**/*.ts', 'shell/**/*.ts', 'mf-*/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.cjs', '**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
