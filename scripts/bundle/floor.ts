// The bare Module Federation floor: a host and one empty remote built by rspack.shared.js with the
// shell's versions and shared singletons, so the report can say how far a real page is above the
// least any page of this architecture must download (the MF runtime, React and React DOM).
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..');
/** Inside the repository so the apps' node_modules resolve; npm and git leave it alone. */
export const FLOOR_DIR = path.join(repoRoot, 'node_modules', '.cache', 'campus-bundle-floor');

// Plain JavaScript: rspack.shared.js compiles only sources outside node_modules with SWC.
const HOST_ENTRY = `import('./bootstrap');\n`;
const HOST_BOOTSTRAP = `
import { createElement, lazy, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';

fetch('/env.json').then((response) => response.json()).then(({ remote }) => {
  registerRemotes([{ name: 'floor_remote', entry: remote }]);
  const Empty = lazy(() => loadRemote('floor_remote/Empty').then((module) => {
    document.body.dataset.floor = 'ready';
    return module;
  }));
  createRoot(document.getElementById('root')).render(
    createElement(Suspense, { fallback: null }, createElement(Empty)),
  );
});
`;
const REMOTE_ENTRY = `import('./bootstrap');\n`;
const REMOTE_BOOTSTRAP = `export {};\n`;
const REMOTE_EMPTY = `export default function Empty() {\n  return null;\n}\n`;

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
      'rspack.config.js': appConfig('floor_remote', { './Empty': './src/empty.js' }),
      'src/index.ts': REMOTE_ENTRY,
      'src/bootstrap.js': REMOTE_BOOTSTRAP,
      'src/empty.js': REMOTE_EMPTY,
    },
    { name: 'floor-remote', ...pkg },
  );
  const rspack = path.join(repoRoot, 'node_modules', '.bin', 'rspack');
  for (const dir of [host, remote]) await run(rspack, ['build', '-c', 'rspack.config.js'], dir);
  return { hostDist: path.join(host, 'dist'), remoteDist: path.join(remote, 'dist') };
}
