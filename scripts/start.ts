/**
 * `npm start`: builds every app and the API for production, starts the API from its compiled
 * JavaScript as the demo (NODE_ENV=development, DEMO_MODE=1: embedded database unless
 * MONGODB_URI is set, demo data seeded into an empty database) and serves each app on
 * its own port with the security headers of a deployment (scripts/serve/security-headers.ts):
 *   shell http://localhost:3000, mf-feed 3001, mf-profile 3002, mf-notifications 3003,
 *   mf-admin 3004, api 4000 (API_PROCESSES=<n>: n API processes on that port).
 * `npm start -- --no-build` serves the existing builds. `npm run dev` runs the rspack dev servers
 * (hot reload) and the API from its TypeScript sources instead. Ctrl+C stops everything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { APPS, serveApps } from './serve/serve-apps';

const repoRoot = path.resolve(__dirname, '..');
const { values } = parseArgs({
  options: {
    build: { type: 'boolean', default: true },
    'no-build': { type: 'boolean', default: false },
    dev: { type: 'boolean', default: false },
  },
});

const API_PORT = Number(process.env.PORT ?? 4000);
const API_URL = process.env.PUBLIC_URL ?? `http://localhost:${API_PORT}`;
const children: ChildProcess[] = [];

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: 'inherit' });
  children.push(child);
  return child;
}

function exited(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

async function waitForApi(api: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (api.exitCode !== null) throw new Error(`the API exited with code ${api.exitCode}`);
    try {
      if ((await fetch(`${API_URL}/api/settings`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('the API did not answer within 120 s');
}

function stopAll(code: number): never {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exit(code);
}

async function main(): Promise<void> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const workspaces = ['api', ...APPS.map((app) => app.dir)].flatMap((dir) => ['-w', dir]);
  const apiBuild = path.join(repoRoot, 'api', 'dist', 'main.js');
  if (!values.dev && values.build && !values['no-build']) {
    console.log('Building the API, the shell and the four remotes for production...');
    const code = await exited(
      run(npm, ['run', 'build', ...workspaces], { ...process.env, NODE_ENV: 'production' }),
    );
    if (code !== 0) stopAll(code);
  } else if (!values.dev && !existsSync(apiBuild)) {
    console.error('No API build (api/dist/main.js): run `npm start` once without --no-build.');
    stopAll(1);
  }

  // API_PROCESSES (default 1) API processes share the port (node's cluster, in api/src/main.ts);
  // the embedded database stays one process.
  const apiProcesses = process.env.API_PROCESSES ?? '1';
  console.log(
    `Starting the API on ${API_URL}${apiProcesses === '1' ? '' : ` (${apiProcesses} processes)`}...`,
  );
  // Production runs the compiled JavaScript with plain node; only `npm run dev` uses tsx.
  const apiCommand = values.dev
    ? [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'api/src/main.ts']
    : [apiBuild];
  // A local run is a demo: the demo accounts are seeded into an empty database (DEMO_MODE), and
  // the API runs as development (the apps are still production builds, served with a
  // deployment's security headers). Production is not the demo: NODE_ENV=production with demo
  // mode is refused by the API (api/src/platform/production.ts), with a line saying so.
  const api = run(process.execPath, apiCommand, {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    PORT: String(API_PORT),
    API_PROCESSES: apiProcesses,
    DEMO_MODE: process.env.DEMO_MODE ?? '1',
  });
  void exited(api).then((code) => {
    console.error(`The API stopped (exit code ${code}).`);
    stopAll(code || 1);
  });
  await waitForApi(api);

  if (values.dev) {
    for (const app of APPS) run(npm, ['run', 'dev', '-w', app.dir]);
    console.log('\nDev servers with hot reload: http://localhost:3000 (remotes on 3001-3004)');
    return;
  }
  const apps = await serveApps({
    apiUrl: API_URL,
    ports: Object.fromEntries(APPS.map((app) => [app.name, app.defaultPort])),
    // The API's default CORS allow-list names http://localhost:3000.
    host: 'localhost',
  });
  console.log(`\nCampus is running: ${apps.shellUrl}`);
  for (const [name, url] of Object.entries(apps.env.remotes))
    console.log(`  ${name.padEnd(17)} ${url}`);
  console.log(`  api               ${API_URL}`);
  console.log('Sign in with a demo account listed above (Ctrl+C stops everything).');
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  stopAll(1);
});
