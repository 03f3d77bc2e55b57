/**
 * Campus laid out as docs/deploy.md's plain machine lays it out, on loopback and in a temporary
 * directory: the embedded database as its own process (deploy/systemd/campus-db.service), the
 * production API from its compiled JavaScript (campus-api.service: NODE_ENV=production, its
 * settings in API_ENV_FILE, generated secrets, the administrator provisioned with its CLI), and
 * Debian's nginx serving the five builds and the API's gateway from the configuration
 * `npm run render:nginx` writes. For the nginx test and `npm run ops:check`.
 */
import { spawn, type ChildProcess, execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { startApiCluster, type ApiCluster } from '../../api/test/api-cluster';
import { startNginx, type RunningNginx } from './nginx';
import { renderNginx, SITES, type RenderedNginx, type SiteName } from './render-nginx';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
const LOOPBACK = '127.0.0.1';
export const ADMIN_EMAIL = 'admin@campus.example.edu';

/** What must be built first: the compiled API and every app. */
export function missingBuilds(): string[] {
  return [
    'api/dist/main.js',
    'api/dist/admin/cli.js',
    ...SITES.filter((site) => site.name !== 'gateway').map(
      (site) => `${site.name}/dist/index.html`,
    ),
  ].filter((file) => !fs.existsSync(path.join(REPO_ROOT, file)));
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface EmbeddedDatabaseProcess {
  uri: string;
  process(): ChildProcess;
  /** SIGTERM (a clean stop), then waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
}

const DB_BIN = path.join(REPO_ROOT, 'packages/embedded-mongo/bin/embedded-mongo.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const DB_NODE_ARGS = require('@campus/embedded-mongo/bin/node-args.cjs') as string[];

/** The embedded-mongo CLI with `args`, as an operator runs it: its stdout, stderr and exit code. */
export async function embeddedMongoCli(
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [DB_BIN, ...args], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** The embedded database as its own server process, as campus-db.service runs it. */
export async function startEmbeddedDatabase(
  dbPath: string | undefined,
  port?: number,
): Promise<EmbeddedDatabaseProcess> {
  const chosen = port ?? (await freePort());
  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const args = [...DB_NODE_ARGS, DB_BIN, '--host', LOOPBACK, '--port', String(chosen)];
      child = spawn(process.execPath, dbPath ? [...args, '--dbpath', dbPath] : args, {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const onExit = (code: number | null) =>
        reject(new Error(`embedded-mongo exited (${code}) before listening:\n${stderr}`));
      child.once('exit', onExit);
      readline.createInterface({ input: child.stdout! }).on('line', (line) => {
        if (!/listening on mongodb:/.test(line)) return;
        child!.off('exit', onExit);
        resolve();
      });
    });
  await start();
  return {
    uri: `mongodb://${LOOPBACK}:${chosen}`,
    process: () => child!,
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    start,
  };
}

export interface LoopbackDeployment {
  dir: string;
  db: EmbeddedDatabaseProcess;
  api: ApiCluster;
  /** The API processes' own address (what a health check asks), not the gateway's. */
  apiUrl: string;
  nginx: RunningNginx;
  rendered: RenderedNginx;
  /** Each server of nginx, as the browser reaches it. */
  urls: Record<SiteName, string>;
  /** The API's settings file (API_ENV_FILE) and the variables in it. */
  envFile: string;
  settings: Record<string, string>;
  /** Rewrites the settings file with `changes` on top (undefined removes a variable). */
  writeSettings(changes: Record<string, string | undefined>): void;
  adminPassword: string;
  stop(): Promise<void>;
}

/** Starts everything; stops what it started if a part fails. */
export async function startLoopbackDeployment(options: {
  apiProcesses: number;
  /** A line of progress (what starts). */
  progress?: (line: string) => void;
}): Promise<LoopbackDeployment> {
  const progress = options.progress ?? (() => undefined);
  const missing = missingBuilds();
  if (missing.length > 0) {
    throw new Error(`The builds are missing (${missing.join(', ')}): run \`npm run build\` first.`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-loopback-'));
  fs.chmodSync(dir, 0o755);
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports = Object.fromEntries(
      await Promise.all(SITES.map(async (site) => [site.name, await freePort()] as const)),
    ) as Record<SiteName, number>;
    const urls = Object.fromEntries(
      SITES.map((site) => [site.name, `http://${LOOPBACK}:${ports[site.name]}`]),
    ) as Record<SiteName, string>;
    const apiPort = await freePort();

    progress('the embedded database, as its own process');
    const db = await startEmbeddedDatabase(path.join(dir, 'db'));
    cleanups.push(() => db.stop());

    // The settings file of campus-api.service: secrets generated here, no demo default anywhere.
    const envFile = path.join(dir, 'api.env');
    const settings: Record<string, string> = {
      JWT_SECRET: randomBytes(48).toString('base64'),
      MONGODB_URI: `${db.uri}/campus?replicaSet=rs0`,
      // Nothing in the walk sends mail; production needs the setting all the same.
      SMTP_URL: `smtp://${LOOPBACK}:${await freePort()}`,
      MAIL_FROM: 'Campus <no-reply@campus.example.edu>',
      WEB_URL: urls.shell,
      PUBLIC_URL: urls.gateway,
      ALLOWED_ORIGINS: urls.shell,
      TRUST_PROXY_HOPS: '1',
      HOST: LOOPBACK,
      PORT: String(apiPort),
      API_PROCESSES: String(options.apiProcesses),
      DATA_DIR: path.join(dir, 'data'),
      LOG_LEVEL: 'info',
    };
    const writeSettings = (changes: Record<string, string | undefined>) => {
      for (const [name, value] of Object.entries(changes)) {
        if (value === undefined) delete settings[name];
        else settings[name] = value;
      }
      fs.writeFileSync(
        envFile,
        Object.entries(settings)
          .map(([name, value]) => `${name}=${value}\n`)
          .join(''),
        { mode: 0o600 },
      );
    };
    writeSettings({});
    // The unit's own environment: production, and where the settings are.
    const unitEnv = { NODE_ENV: 'production', API_ENV_FILE: envFile, DEMO_MODE: '' };

    progress('the administrator, provisioned with the compiled CLI');
    const adminPassword = randomBytes(18).toString('base64url');
    const provisioned = await promisify(execFile)(
      process.execPath,
      ['dist/admin/cli.js', '--email', ADMIN_EMAIL],
      {
        cwd: path.join(REPO_ROOT, 'api'),
        env: { ...process.env, ...unitEnv, ADMIN_PASSWORD: adminPassword },
      },
    );
    if (!/Administrator created/.test(provisioned.stdout)) {
      throw new Error(`create-admin: ${provisioned.stdout}${provisioned.stderr}`);
    }

    progress(`the API (node api/dist/main.js, API_PROCESSES=${options.apiProcesses})`);
    // Only the unit's environment: the settings come from the file.
    const api = await startApiCluster(
      { ...unitEnv, API_PROCESSES: undefined, PORT: undefined, LOG_LEVEL: undefined },
      { compiled: true, processes: options.apiProcesses },
    );
    cleanups.push(() => api.stop());

    progress("Debian's nginx with the configuration npm run render:nginx writes");
    const rendered = renderNginx(path.join(dir, 'nginx'), {
      API_URL: urls.gateway,
      MF_FEED_URL: `${urls['mf-feed']}/mf-manifest.json`,
      MF_PROFILE_URL: `${urls['mf-profile']}/mf-manifest.json`,
      MF_NOTIFICATIONS_URL: `${urls['mf-notifications']}/mf-manifest.json`,
      MF_ADMIN_URL: `${urls['mf-admin']}/mf-manifest.json`,
      SHELL_URL: urls.shell,
      LISTEN: LOOPBACK,
      ...Object.fromEntries(SITES.map((site) => [site.portVar, String(ports[site.name])])),
      API_HOST: LOOPBACK,
      API_PORT: String(apiPort),
    });
    const nginx = await startNginx(rendered);
    cleanups.push(() => nginx.stop());

    return {
      dir,
      db,
      api,
      apiUrl: `http://${LOOPBACK}:${apiPort}`,
      nginx,
      rendered,
      urls,
      envFile,
      settings,
      writeSettings,
      adminPassword,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
