// Deploying one remote on its own, as a feature team does: rebuild it (here with a visible
// change) into a fresh folder and serve that build at the remote's URL, the shell untouched.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { e2eEnvironment } from './environment';
import { startStaticServer } from '../../scripts/serve/static-server';

const repoRoot = path.resolve(__dirname, '..', '..');

/** True when the suite runs against services it did not start (playwright.compose.config.ts). */
export function runsAgainstExternalServices(): boolean {
  return process.env.CAMPUS_E2E_EXTERNAL === '1';
}

export interface RemoteBuild {
  dist: string;
  remove: () => Promise<void>;
}

export interface Release {
  /** Replaces `search` with `replacement` in the sources: a visible change. */
  change: { search: string; replacement: string };
  /**
   * Builds as if against this version of @campus/kit (CAMPUS_KIT_VERSION_OVERRIDE, read by
   * rspack.shared.js): what the remote requires and what it offers to share.
   */
  kitVersion?: string;
  /** Builds into this folder (served by someone else) instead of a fresh temporary one. */
  into?: string;
}

/**
 * Builds `appDir` (e.g. 'mf-feed') for production with its own rspack config into a temporary
 * folder, with a visible change: a new release with new content hashes and a new
 * mf-manifest.json, possibly made against another kit version.
 */
export async function rebuildRemote(
  appDir: string,
  { change, kitVersion, into }: Release,
): Promise<RemoteBuild> {
  const folder = await mkdtemp(path.join(os.tmpdir(), `campus-${appDir}-release-`));
  const dist = into ?? path.join(folder, 'dist');
  const appPath = path.join(repoRoot, appDir);
  const config = path.join(folder, 'rspack.config.js');
  await writeFile(
    config,
    `const base = require(${JSON.stringify(path.join(appPath, 'rspack.config.js'))});
module.exports = (env, argv) => {
  const config = base(env, argv);
  config.output.path = ${JSON.stringify(dist)};
  config.module.rules.push({
    test: /\\.(ts|tsx)$/,
    include: ${JSON.stringify(path.join(appPath, 'src'))},
    enforce: 'pre',
    loader: ${JSON.stringify(path.join(__dirname, 'replace-text-loader.cjs'))},
    options: ${JSON.stringify(change)},
  });
  return config;
};
`,
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const child = spawn(
      path.join(repoRoot, 'node_modules', '.bin', 'rspack'),
      ['build', '-c', config],
      {
        cwd: appPath,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          ...(kitVersion ? { CAMPUS_KIT_VERSION_OVERRIDE: kitVersion } : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`rebuilding ${appDir} failed:\n${output}`)),
    );
  });
  return { dist, remove: () => rm(folder, { recursive: true, force: true }) };
}

/**
 * Serves `dist` at `origin` for this page from now on: the remote's URL stays the same (the
 * shell's env.json is untouched), the build behind it is the new one, as after a redeploy.
 */
export async function deployAt(page: Page, origin: string, dist: string) {
  // Like the deployed remotes, it lets only the shell's pages read its files.
  const server = await startStaticServer({
    root: dist,
    corsOrigins: () => [e2eEnvironment().shellUrl],
  });
  await page.route(`${origin}/**`, async (route) => {
    const url = new URL(route.request().url());
    const target = `${server.url}${url.pathname}${url.search}`;
    let response;
    try {
      response = await route.fetch({ url: target });
    } catch (error) {
      // A kept-alive connection the server closed just as it was reused: a browser sends such a
      // GET again on a new connection, and so does this proxy (once).
      if (!/ECONNRESET/.test(String(error))) throw error;
      response = await route.fetch({ url: target });
    }
    await route.fulfill({ response });
  });
  return {
    close: async () => {
      await page.unroute(`${origin}/**`);
      await server.close();
    },
  };
}

/** Takes a remote's server down for this page: every request to it is refused. */
export async function takeDown(page: Page, origin: string): Promise<void> {
  await page.route(`${origin}/**`, (route) => route.abort('connectionrefused'));
}

/** The kit version the apps in this repository are built with, and the next minor and major. */
export async function kitVersions() {
  const kit = JSON.parse(
    await readFile(path.join(repoRoot, 'packages', 'kit', 'package.json'), 'utf8'),
  ) as { version: string };
  const [major = 0, minor = 0] = kit.version.split('.').map(Number);
  return {
    current: kit.version,
    nextMinor: `${major}.${minor + 1}.0`,
    nextMajor: `${major + 1}.0.0`,
  };
}
