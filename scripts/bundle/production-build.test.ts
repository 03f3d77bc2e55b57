// What a production build of a remote ships (rspack.shared.js): its remoteEntry.js, manifest and
// chunks, a static index.html that loads no script, and no development page or loopback address.
// Every production build checks its own output (NoLoopbackAddressPlugin), so `npm run build`
// fails on a loopback address; these tests show that the check bites and that a real remote's
// output is clean. The builds run the rspack CLI as `npm run build` does (@rspack/core is an ES
// module, which Jest's CommonJS runtime cannot load).
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..');
const RSPACK = path.join(repoRoot, 'node_modules', '.bin', 'rspack');
/** Inside the repository so the apps' packages resolve (as scripts/bundle/floor.ts does). */
const SCRATCH = path.join(
  repoRoot,
  'node_modules',
  '.cache',
  `campus-production-build-${process.pid}`,
);
const REMOTES = ['mf-feed', 'mf-profile', 'mf-notifications', 'mf-admin'];
/** Any loopback address with a port: what no production page may name. */
const LOOPBACK = /\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):\d+/;

function run(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
}

beforeAll(async () => {
  await rm(SCRATCH, { recursive: true, force: true });
  await mkdir(SCRATCH, { recursive: true });
});
afterAll(async () => {
  await rm(SCRATCH, { recursive: true, force: true });
});

test('when a remote is configured for production, then it has no page entry and checks its output; in development it keeps its standalone page', async () => {
  // The four remotes' configurations, as rspack reads them, in one node process.
  const script = `
    const path = require('node:path');
    const out = {};
    for (const dir of ${JSON.stringify(REMOTES)}) {
      const config = require(path.join(${JSON.stringify(repoRoot)}, dir, 'rspack.config.js'));
      const describe = (mode) => {
        const built = config({}, { mode });
        return { entry: built.entry, plugins: built.plugins.map((p) => p && p.constructor.name) };
      };
      out[dir] = { production: describe('production'), development: describe('development') };
    }
    process.stdout.write(JSON.stringify(out));
  `;
  const { code, output } = await run(process.execPath, ['-e', script], repoRoot);
  expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
  const configs = JSON.parse(output) as Record<
    string,
    Record<'production' | 'development', { entry: unknown; plugins: string[] }>
  >;
  for (const dir of REMOTES) {
    const { production, development } = configs[dir]!;
    expect({ dir, entry: production.entry }).toEqual({ dir, entry: {} });
    expect(production.plugins).toEqual(
      expect.arrayContaining(['RemoteIndexPlugin', 'NoLoopbackAddressPlugin']),
    );
    expect(production.plugins).not.toContain('HtmlRspackPlugin');
    expect({ dir, entry: development.entry }).toEqual({
      dir,
      entry: { main: './src/index.ts' },
    });
    expect(development.plugins).toContain('HtmlRspackPlugin');
  }
});

test('when a production build names a loopback address with a port, then it fails naming the file; a bare URL base and env.json pass', async () => {
  const dir = path.join(SCRATCH, 'planted');
  await writeFiles(dir, {
    'package.json': JSON.stringify({ name: 'planted-remote', version: '1.0.0', private: true }),
    'rspack.config.js': [
      `const { createAppConfig } = require(${JSON.stringify(path.join(repoRoot, 'rspack.shared.js'))});`,
      `module.exports = createAppConfig({ dir: __dirname, name: 'planted', port: 0, exposes: { './Page': './src/page.js' } });`,
    ].join('\n'),
    'src/index.ts': "import('./page');\n",
    // A URL parsing base without a port, as React Router's, is no address the page calls.
    'src/page.js': [
      'export const base = new URL(location.pathname, "http://localhost").pathname;',
      'export default function load() { return fetch("http://localhost:4000/api/settings"); }',
      '',
    ].join('\n'),
    // The shell's runtime config, replaced at deploy: its local defaults are allowed.
    'public/env.json': '{"apiUrl":"http://localhost:4000"}\n',
  });
  const { code, output } = await run(RSPACK, ['build', '-c', 'rspack.config.js'], dir);
  expect(code).not.toBe(0);
  const named = [...output.matchAll(/(\S+) names (\S+): a production build/g)].map(
    ([, file, address]) => ({ file, address }),
  );
  expect(named).toEqual([
    {
      file: expect.stringMatching(/^__federation_expose_Page\.[0-9a-f]{8}\.js$/),
      address: 'localhost:4000',
    },
  ]);
});

test('when mf-notifications is built for production, then it ships no development page, no loopback address and a static index that loads no script', async () => {
  const outDir = path.join(SCRATCH, 'mf-notifications');
  const { code, output } = await run(
    RSPACK,
    ['build', '-c', 'rspack.config.js', '--output-path', outDir],
    path.join(repoRoot, 'mf-notifications'),
  );
  expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });

  const files = (await readdir(outDir, { recursive: true })).map(String);
  expect(files).toEqual(
    expect.arrayContaining(['remoteEntry.js', 'mf-manifest.json', 'index.html']),
  );
  expect(files.filter((file) => /^(?:main|standalone)\./.test(file))).toEqual([]);
  for (const file of files.filter((name) => /\.(?:js|html|json)$/.test(name))) {
    const text = await readFile(path.join(outDir, file), 'utf8');
    expect({ file, loopback: LOOPBACK.exec(text)?.[0] }).toEqual({ file, loopback: undefined });
    expect({ file, devPage: text.includes('Standalone development page') }).toEqual({
      file,
      devPage: false,
    });
  }
  const index = await readFile(path.join(outDir, 'index.html'), 'utf8');
  expect(index).not.toMatch(/<script/i);
  expect(index).toContain('<code>mf_notifications</code>');
  expect(index).toContain('href="mf-manifest.json"');
  expect(index).toContain('href="remoteEntry.js"');
});
