// The Module Federation floor: a host and one remote built by rspack.shared.js with the shell's
// versions and shared singletons, using the same client libraries as every Campus page (React,
// React DOM, React Router, styled-components, SWR and the federation runtime), so the reports can
// say how far a real page is above the least any page of this stack must download and run. The
// remote renders 20 static post-sized items (<article>, as the feed's posts), so `bench:web` can
// compare "first post visible" with the floor's first paint of its items.
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..');
/** Inside the repository so the apps' node_modules resolve; npm and git leave it alone. */
export const FLOOR_DIR = path.join(repoRoot, 'node_modules', '.cache', 'campus-bundle-floor');

// Plain JavaScript: rspack.shared.js compiles only sources outside node_modules with SWC.
const HOST_ENTRY = `import('./bootstrap');\n`;
const HOST_BOOTSTRAP = `
import { createElement as h, lazy, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import styled from 'styled-components';
import { SWRConfig } from 'swr';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';

const Layout = styled.main\`max-width: 680px; margin: 0 auto; font-family: system-ui, sans-serif;\`;
// The same size as what replaces it, as the app's skeletons: no layout shift.
const Skeleton = styled.div\`min-height: 100vh;\`;

fetch('/env.json').then((response) => response.json()).then(({ remote }) => {
  registerRemotes([{ name: 'floor_remote', entry: remote }]);
  const Items = lazy(() => loadRemote('floor_remote/Items'));
  createRoot(document.getElementById('root')).render(
    h(SWRConfig, { value: { revalidateOnFocus: false } },
      h(BrowserRouter, null,
        h(Layout, null,
          h(Suspense, { fallback: h(Skeleton) },
            h(Routes, null, h(Route, { path: '*', element: h(Items) })))))),
  );
});
`;
const REMOTE_ENTRY = `import('./bootstrap');\n`;
const REMOTE_BOOTSTRAP = `export {};\n`;
const REMOTE_ITEMS = `
import { createElement as h, useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import styled from 'styled-components';
import useSWR from 'swr';

const Item = styled.article\`padding: 16px; border-bottom: 1px solid #e2e8f0; line-height: 1.5;\`;
const TEXT = 'A post-sized item: about as long as a member writes on the feed, two or three lines ' +
  'of text with a name, a time and a few counters under it, rendered from static data. ';

function items() {
  return Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: 'Member ' + (i + 1), text: TEXT }));
}

export default function Items() {
  useLocation();
  const { data } = useSWR('floor-items', items, { suspense: false, fallbackData: items() });
  useEffect(() => {
    document.body.dataset.floor = 'ready';
  }, []);
  return h('section', { 'aria-label': 'Items' }, data.map((item) =>
    h(Item, { key: item.id },
      h('strong', null, item.name), h('p', null, item.text),
      h('small', null, '3 likes · 1 comment · 0 reposts'))));
}
`;

function appConfig(name: string, exposes?: Record<string, string>): string {
  const exposed = exposes ? `, exposes: ${JSON.stringify(exposes)}` : '';
  return [
    `const { createAppConfig } = require(${JSON.stringify(path.join(repoRoot, 'rspack.shared.js'))});`,
    `module.exports = createAppConfig({ dir: __dirname, name: '${name}', port: 0${exposed} });`,
    '',
  ].join('\n');
}

function run(command: string, args: string[], cwd: string): Promise<void> {
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
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')}:\n${output}`)),
    );
  });
}

async function writeApp(dir: string, files: Record<string, string>, pkg: object): Promise<void> {
  await mkdir(path.join(dir, 'src'), { recursive: true });
  await writeFile(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
}

/** Builds the floor host and remote; returns their dist folders. */
export async function buildFloor(): Promise<{ hostDist: string; remoteDist: string }> {
  const shellPackage = JSON.parse(
    await readFile(path.join(repoRoot, 'shell/package.json'), 'utf8'),
  );
  // The shell's declared ranges, so requiredVersion and the provided versions are the real ones.
  const pkg = { private: true, dependencies: shellPackage.dependencies };
  await rm(FLOOR_DIR, { recursive: true, force: true });
  const host = path.join(FLOOR_DIR, 'host');
  const remote = path.join(FLOOR_DIR, 'remote');
  await writeApp(
    host,
    {
      'rspack.config.js': appConfig('floor_host'),
      'index.html': '<!doctype html>\n<html lang="en"><body><div id="root"></div></body></html>\n',
      'src/index.ts': HOST_ENTRY,
      'src/bootstrap.js': HOST_BOOTSTRAP,
    },
    { name: 'floor-host', ...pkg },
  );
  await writeApp(
    remote,
    {
      'rspack.config.js': appConfig('floor_remote', { './Items': './src/items.js' }),
      'src/index.ts': REMOTE_ENTRY,
      'src/bootstrap.js': REMOTE_BOOTSTRAP,
      'src/items.js': REMOTE_ITEMS,
    },
    { name: 'floor-remote', ...pkg },
  );
  const rspack = path.join(repoRoot, 'node_modules', '.bin', 'rspack');
  for (const dir of [host, remote]) await run(rspack, ['build', '-c', 'rspack.config.js'], dir);
  return { hostDist: path.join(host, 'dist'), remoteDist: path.join(remote, 'dist') };
}
