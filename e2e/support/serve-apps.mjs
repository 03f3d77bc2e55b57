// Serves the five production builds, each on its own port, and writes the shell's runtime config
// (env.json) for those ports. Used by the e2e fixture; also usable on its own:
//   node e2e/support/serve-apps.mjs            (ports 3000-3004, API at http://localhost:4000)
//   API_URL=... SHELL_PORT=... node e2e/support/serve-apps.mjs
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from './static-server.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const APPS = [
  { name: 'shell', dir: 'shell', defaultPort: 3000 },
  { name: 'mf_feed', dir: 'mf-feed', defaultPort: 3001 },
  { name: 'mf_profile', dir: 'mf-profile', defaultPort: 3002 },
  { name: 'mf_notifications', dir: 'mf-notifications', defaultPort: 3003 },
  { name: 'mf_admin', dir: 'mf-admin', defaultPort: 3004 },
];

/**
 * @param {object} options
 * @param {string} options.apiUrl
 * @param {Record<string, number>} [options.ports]  app name -> port (0 or absent: a free port)
 * @param {Record<string, string>} [options.remoteUrls]  override a remote's manifest URL (e.g. a dead port)
 * @param {number} [options.adminUserId]
 * @param {string} [options.host]
 */
export async function serveApps({ apiUrl, ports = {}, remoteUrls = {}, adminUserId = 107, host }) {
  const remotes = {};
  const servers = [];
  try {
    for (const app of APPS.filter((candidate) => candidate.name !== 'shell')) {
      const server = await startStaticServer({
        root: path.join(repoRoot, app.dir, 'dist'),
        port: ports[app.name] ?? 0,
        host,
      });
      servers.push(server);
      remotes[app.name] = remoteUrls[app.name] ?? `${server.url}/mf-manifest.json`;
    }
    const env = { apiUrl, adminUserId, remotes };
    const shell = await startStaticServer({
      root: path.join(repoRoot, 'shell', 'dist'),
      port: ports.shell ?? 0,
      host,
      historyFallback: true,
      overrides: { '/env.json': JSON.stringify(env) },
    });
    servers.push(shell);
    return {
      shellUrl: shell.url,
      env,
      close: () => Promise.all(servers.map((server) => server.close())),
    };
  } catch (error) {
    await Promise.all(servers.map((server) => server.close()));
    throw error;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = (name, fallback) => Number(process.env[name] ?? fallback);
  const apps = await serveApps({
    apiUrl: process.env.API_URL ?? 'http://localhost:4000',
    host: process.env.HOST ?? 'localhost',
    adminUserId: Number(process.env.ADMIN_USER_ID ?? 107),
    ports: {
      shell: port('SHELL_PORT', 3000),
      mf_feed: port('MF_FEED_PORT', 3001),
      mf_profile: port('MF_PROFILE_PORT', 3002),
      mf_notifications: port('MF_NOTIFICATIONS_PORT', 3003),
      mf_admin: port('MF_ADMIN_PORT', 3004),
    },
  });
  console.log(`Campus is being served at ${apps.shellUrl}`);
  const stop = () => void apps.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
