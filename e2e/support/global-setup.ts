import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { E2E_ENV_KEY, type E2eEnvironment } from './environment';
import { APPS, appDist, serveApps } from '../../scripts/serve/serve-apps';
import { startStaticServer } from '../../scripts/serve/static-server';

const repoRoot = path.resolve(__dirname, '..', '..');
const HOST = '127.0.0.1';
/** The API as production runs it (`npm start`): its compiled JavaScript, with plain node. */
const API_BUILD = path.join(repoRoot, 'api', 'dist', 'main.js');

/** A path inside the repository relative to its root, any other as it is. */
function shownPath(file: string): string {
  return file.startsWith(repoRoot + path.sep) ? path.relative(repoRoot, file) : file;
}

/**
 * The ports the kernel hands out for port 0 (Linux's default range where it cannot be read): a
 * port chosen below them cannot be taken by a server or connection that asked for any free port,
 * such as another worker's database, in the seconds before the API listens on it.
 */
async function ephemeralPortsStart(): Promise<number> {
  try {
    const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
    return Number(range.trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    // Where the API listens: every interface (koa's app.listen(port)).
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** A port for the API, free now and outside the range the kernel picks free ports from. */
async function freeApiPort(): Promise<number> {
  const below = await ephemeralPortsStart();
  const lowest = Math.max(1024, below - 12_000);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = lowest + Math.floor(Math.random() * (below - lowest));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port for the API between ${lowest} and ${below - 1}`);
}

async function waitForApi(url: string, api: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (api.exitCode !== null) throw new Error(`The API exited (${api.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${url}/api/settings`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The API did not start within 180 s:\n${output()}`);
}

/** Throws, naming what is missing, unless the API and every app are built. */
function checkBuilds(distDir?: string): void {
  const missing = [
    ...APPS.map((app) => path.join(appDist(app.dir, distDir), 'index.html')),
    API_BUILD,
  ].filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(
      `The e2e suite runs against the production builds, and some are missing ` +
        `(${missing.map(shownPath).join(', ')}): run \`npm run build\` ` +
        'first (the API alone: `npm run build -w api`).',
    );
  }
}

export interface ComposeOptions {
  /** Serve the builds from `<distDir>/<app dir>` instead of each app's dist/ (serve-apps.ts). */
  distDir?: string;
}

/**
 * Starts the composed production build as deployed, for the Playwright worker (or benchmark)
 * that calls it: every app's dist/ on its own free port
 * (the shell with a runtime env.json for those ports) and the real API from its build
 * (api/dist/main.js, what `npm start` runs) with the embedded database in a throw-away data
 * folder. Playwright's global setup (the default export) serves the apps' own dist/ folders; a
 * benchmark may pass a copy of them (`distDir`).
 */
export async function startComposition({ distDir }: ComposeOptions = {}) {
  checkBuilds(distDir);

  const apiPort = await freeApiPort();
  const apiUrl = `http://${HOST}:${apiPort}`;
  // Where a spec serves a feature team's preview build of a remote: the one origin the shell
  // accepts manifest overrides from (specs/remote-override.spec.ts).
  // It listens from now on (a port merely reserved could be taken by the time a spec needs it),
  // serving whatever a spec builds into previewDir, to the shell's pages only.
  const previewDir = await mkdtemp(path.join(os.tmpdir(), 'campus-e2e-preview-'));
  let shellOrigins: string[] = [];
  const preview = await startStaticServer({
    root: previewDir,
    host: HOST,
    corsOrigins: () => shellOrigins,
  });
  const previewOrigin = preview.url;
  const apps = await serveApps({
    apiUrl,
    host: HOST,
    overrideOrigins: [previewOrigin],
    distDir,
  }).catch(async (error: unknown) => {
    await preview.close();
    throw error;
  });
  shellOrigins = [apps.shellUrl];
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'campus-e2e-'));

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(apiPort),
    DATA_DIR: dataDir,
    PUBLIC_URL: apiUrl,
    WEB_URL: apps.shellUrl,
    ALLOWED_ORIGINS: apps.shellUrl,
    BCRYPT_ROUNDS: '4',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_LOGIN_MAX: '10000',
    // No sign-in delays: the specs mistype passwords on purpose, from one address.
    RATE_LIMIT_LOGIN_MAX_DELAY_MS: '0',
    RATE_LIMIT_VERIFY_TOKEN_MAX: '10000',
    RATE_LIMIT_APPLICATION_CONTACT_MAX: '10000',
    RATE_LIMIT_FEEDBACK_IP_MAX: '10000',
    RATE_LIMIT_REGISTER_MAX: '10000',
    RATE_LIMIT_VERIFY_MAX: '10000',
    RATE_LIMIT_APPLICATION_MAX: '10000',
    RATE_LIMIT_FEEDBACK_MAX: '10000',
    RATE_LIMIT_PASSWORD_RESET_MAX: '10000',
    RATE_LIMIT_VERIFICATION_RESEND_MAX: '10000',
    RATE_LIMIT_ACCOUNT_EMAILS_MAX: '10000',
    RATE_LIMIT_PASSWORD_CHECK_MAX: '10000',
    // The specs act fast as a few members; the limits themselves are tested in the API's suite.
    ...Object.fromEntries(
      ['POSTS', 'COMMENTS', 'REPOSTS', 'LIKES', 'FOLLOWS', 'AVATARS', 'SEARCHES'].flatMap(
        (action) => [
          [`RATE_LIMIT_${action}_PER_MINUTE`, '0'],
          [`RATE_LIMIT_${action}_PER_DAY`, '0'],
        ],
      ),
    ),
    // The specs sign in with the demo accounts: demo mode seeds them into the empty database
    // (under NODE_ENV=test above: production refuses demo mode).
    DEMO_MODE: '1',
  };
  delete env.MONGODB_URI;
  let output = '';
  const spawnApi = (extra: NodeJS.ProcessEnv = {}) => {
    const child = spawn(process.execPath, [API_BUILD], {
      cwd: repoRoot,
      env: { ...env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return child;
  };
  let api = spawnApi();
  const stopApi = async () => {
    if (api.exitCode !== null) return;
    const exited = new Promise((resolve) => api.once('exit', resolve));
    api.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (api.exitCode === null) {
      const killed = new Promise((resolve) => api.once('exit', resolve));
      api.kill('SIGKILL');
      await killed;
    }
  };
  // The same API on the same data and port, started again with other variables (a key rotation).
  restartApi = async (extra) => {
    await stopApi();
    output = '';
    api = spawnApi(extra);
    await waitForApi(apiUrl, api, () => output);
  };

  const stop = async () => {
    restartApi = undefined;
    await stopApi();
    await apps.close();
    await preview.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(previewDir, { recursive: true, force: true });
  };

  try {
    await waitForApi(apiUrl, api, () => output);
  } catch (error) {
    await stop();
    throw error;
  }

  const environment: E2eEnvironment = {
    shellUrl: apps.shellUrl,
    apiUrl,
    dataDir,
    remotes: apps.env.remotes,
    previewOrigin,
    previewDir,
  };
  process.env[E2E_ENV_KEY] = JSON.stringify(environment);
  return stop;
}

let restartApi: ((extra: NodeJS.ProcessEnv) => Promise<void>) | undefined;

/**
 * Restarts this worker's API (the composition `startComposition` started in this process) on
 * the same database and port with `extra` added to its environment, as an operator restarts it
 * with new settings; `{}` restores the original settings. Undefined against services someone
 * else started (`E2E_BASE_URL`): a spec skips then.
 */
export function apiRestarter(): ((extra: NodeJS.ProcessEnv) => Promise<void>) | undefined {
  return restartApi;
}

/**
 * Playwright's global setup: stops the run at once, before any worker starts, when a build is
 * missing. Each worker then starts a composition of its own (support/fixtures.ts), so the specs
 * of one worker never see another's members, posts or notifications.
 */
export default function globalSetup(): void {
  checkBuilds();
}
