// Serves the five production builds, each on its own port, and gives the shell a runtime config
// (env.json) naming those ports. Every app sends the security headers computed from that config
// (Content-Security-Policy, frame protection), and the remotes allow CORS from the shell's origin
// only. Used by `npm start` (scripts/start.ts), the e2e global setup and `cli.ts`.
import path from 'node:path';
import { securityHeaders } from './security-headers';
import { startStaticServer, type StaticServer } from './static-server';

const repoRoot = path.resolve(__dirname, '..', '..');

export const APPS: { name: 'shell' | RemoteName; dir: string; defaultPort: number }[] = [
  { name: 'shell', dir: 'shell', defaultPort: 3000 },
  { name: 'mf_feed', dir: 'mf-feed', defaultPort: 3001 },
  { name: 'mf_profile', dir: 'mf-profile', defaultPort: 3002 },
  { name: 'mf_notifications', dir: 'mf-notifications', defaultPort: 3003 },
  { name: 'mf_admin', dir: 'mf-admin', defaultPort: 3004 },
];

export type RemoteName = 'mf_feed' | 'mf_profile' | 'mf_notifications' | 'mf_admin';

export interface ServeAppsOptions {
  apiUrl: string;
  /** App name -> port (0 or absent: a free port). */
  ports?: Partial<Record<'shell' | RemoteName, number>>;
  /** Replaces a remote's manifest URL in env.json (e.g. to point it at a dead server). */
  remoteUrls?: Partial<Record<RemoteName, string>>;
  /** Origins a remote's manifest may be overridden from (env.json `overrideOrigins`). */
  overrideOrigins?: string[];
  host?: string;
  /**
   * Where the builds are read from: `<distDir>/<app dir>` (e.g. `<distDir>/mf-feed`) instead of
   * each app's own `dist/` in the repository. A benchmark serves a private copy this way, so the
   * apps can be rebuilt while it runs (scripts/bench/web.ts).
   */
  distDir?: string;
}

/** The folder an app's production build is served from. */
export function appDist(dir: string, distDir?: string): string {
  return distDir ? path.join(distDir, dir) : path.join(repoRoot, dir, 'dist');
}

export interface ServedApps {
  shellUrl: string;
  env: {
    apiUrl: string;
    remotes: Record<RemoteName, string>;
    overrideOrigins: string[];
  };
  close: () => Promise<unknown>;
}

/**
 * The `Link` header of the shell's home page (`/`, the feed): the browser starts fetching the
 * feed remote's manifest and remoteEntry.js with the shell's own scripts, before the shell has
 * read env.json (the same preload an index.html could name, but the remote's URL is known only
 * at deploy time). The shell's own preload (composition/route-preload.ts) then finds them ready.
 */
export function landingPreload(feedManifest: string): Record<string, string> {
  let entry: string;
  try {
    entry = new URL('remoteEntry.js', feedManifest).href;
  } catch {
    return {};
  }
  return {
    Link: [
      `<${feedManifest}>; rel=preload; as=fetch; crossorigin=anonymous`,
      `<${entry}>; rel=preload; as=script`,
    ].join(', '),
  };
}

export async function serveApps({
  apiUrl,
  ports = {},
  remoteUrls = {},
  overrideOrigins = [],
  host,
  distDir,
}: ServeAppsOptions): Promise<ServedApps> {
  const remotes = {} as Record<RemoteName, string>;
  const servers: StaticServer[] = [];
  // Known once every server listens; the servers read them per request, and none is asked
  // anything before this function returns.
  let headers: Record<string, string> = {};
  let shellOrigins: string[] = [];
  try {
    for (const app of APPS) {
      if (app.name === 'shell') continue;
      const server = await startStaticServer({
        root: appDist(app.dir, distDir),
        port: ports[app.name] ?? 0,
        host,
        headers: () => headers,
        corsOrigins: () => shellOrigins,
      });
      servers.push(server);
      remotes[app.name] = remoteUrls[app.name] ?? `${server.url}/mf-manifest.json`;
    }
    const env = { apiUrl, remotes, overrideOrigins };
    const shell = await startStaticServer({
      root: appDist('shell', distDir),
      port: ports.shell ?? 0,
      host,
      historyFallback: true,
      overrides: { '/env.json': JSON.stringify(env) },
      headers: () => headers,
      pageHeaders: (pathname) => (pathname === '/' ? landingPreload(remotes.mf_feed) : {}),
    });
    servers.push(shell);
    headers = securityHeaders(env);
    shellOrigins = [shell.url];
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
