// A small static file server for the production builds, composed as deployed: each app on its
// own port, the security headers (Content-Security-Policy, frame protection) on every response,
// CORS for the one origin allowed to fetch a remote's files (the shell's), a history fallback for
// the shell, long caching for content-hashed files and none for the files that name them.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
};

/** Names that point at other files: they must never be cached, so a redeploy shows at once. */
const UNHASHED = new Set(['index.html', 'env.json', 'mf-manifest.json', 'remoteEntry.js']);

async function fileAt(root: string, urlPath: string): Promise<string | null> {
  const resolved = path.resolve(root, `.${decodeURIComponent(urlPath)}`);
  if (resolved !== root && !resolved.startsWith(`${root}${path.sep}`)) return null;
  try {
    const info = await stat(resolved);
    return info.isFile() ? resolved : null;
  } catch {
    return null;
  }
}

export interface StaticServerOptions {
  /** The folder to serve (an app's dist/). */
  root: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Unknown paths without an extension get index.html (the shell's client-side routes). */
  historyFallback?: boolean;
  /** URL path -> JSON body served instead of a file (the shell's env.json). */
  overrides?: Record<string, string>;
  /**
   * Headers sent with every response (security-headers.ts). Read on each request, so a
   * composition can name servers it starts after this one.
   */
  headers?: () => Record<string, string>;
  /**
   * Origins whose pages may read this server's files from script (a remote's: the shell's
   * origin). Read on each request. Absent or empty: no CORS header, same-origin reads only.
   */
  corsOrigins?: () => readonly string[];
}

export interface StaticServer {
  url: string;
  port: number;
  close: () => Promise<void>;
}

export async function startStaticServer({
  root,
  port = 0,
  host = '127.0.0.1',
  historyFallback = false,
  overrides = {},
  headers = () => ({}),
  corsOrigins = () => [],
}: StaticServerOptions): Promise<StaticServer> {
  const base = path.resolve(root);
  const server = createServer(async (request, response) => {
    for (const [name, value] of Object.entries(headers())) response.setHeader(name, value);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    const allowed = corsOrigins();
    const origin = request.headers.origin;
    // The answer depends on the Origin header, so caches must keep one copy per origin.
    if (allowed.length > 0) response.setHeader('Vary', 'Origin');
    const corsAllowed = origin !== undefined && allowed.includes(origin);
    if (corsAllowed) response.setHeader('Access-Control-Allow-Origin', origin);
    if (request.method === 'OPTIONS') {
      if (corsAllowed) {
        response.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
        response.setHeader('Access-Control-Allow-Headers', '*');
      }
      response.writeHead(204).end();
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405).end();
      return;
    }
    const urlPath = new URL(request.url ?? '/', 'http://local').pathname;
    if (Object.hasOwn(overrides, urlPath)) {
      response.writeHead(200, { 'Content-Type': TYPES['.json'], 'Cache-Control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : overrides[urlPath]);
      return;
    }
    let file = await fileAt(base, urlPath === '/' ? '/index.html' : urlPath);
    if (!file && historyFallback && !path.extname(urlPath))
      file = await fileAt(base, '/index.html');
    if (!file) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    const name = path.basename(file);
    response.writeHead(200, {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Cache-Control': UNHASHED.has(name) ? 'no-cache' : 'public, max-age=31536000, immutable',
    });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${boundPort}`,
    port: boundPort,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
