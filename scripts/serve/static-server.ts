// The static file server for the production builds, composed as deployed: each app on its own
// port, the security headers (Content-Security-Policy, frame protection) on every response, CORS
// for the one origin allowed to fetch a remote's files (the shell's), a history fallback for the
// shell. Files are served by sirv (a maintained static-file library): the brotli or gzip copy the
// build wrote next to each file (rspack.shared.js) when the browser accepts it, an ETag on every
// file so a revalidation is a 304 with no body, content-hashed files cached for a year as
// immutable and the files that name them (index.html, remoteEntry.js, mf-manifest.json, anything
// without a content hash) revalidated on every load (`no-cache`).
import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import path from 'node:path';
import sirv from 'sirv';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** A content-hashed file name (rspack's `[name].[contenthash:8].js`): its bytes never change. */
const HASHED = /\.[0-9a-f]{8}\.(?:js|mjs|css|svg|png|jpe?g|gif|webp|woff2?)$/;

/** The Cache-Control a file of the build is served with. */
export function cacheControlFor(pathname: string): string {
  return HASHED.test(path.posix.basename(pathname)) ? IMMUTABLE : REVALIDATE;
}

const CHARSET_TYPES = /^(?:text\/|application\/(?:json|javascript|manifest\+json))/;

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
   * Headers added to the HTML page (index.html and the history fallback), given the path asked
   * for: e.g. a `Link` header preloading the landing route's remote (serve-apps.ts).
   */
  pageHeaders?: (pathname: string) => Record<string, string>;
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

function varyOn(response: ServerResponse, ...names: string[]) {
  const current = String(response.getHeader('Vary') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) if (!current.includes(name)) current.push(name);
  if (current.length > 0) response.setHeader('Vary', current.join(', '));
}

export async function startStaticServer({
  root,
  port = 0,
  host = '127.0.0.1',
  historyFallback = false,
  overrides = {},
  headers = () => ({}),
  pageHeaders = () => ({}),
  corsOrigins = () => [],
}: StaticServerOptions): Promise<StaticServer> {
  const base = path.resolve(root);
  const overrideTags = Object.fromEntries(
    Object.entries(overrides).map(([urlPath, body]) => [
      urlPath,
      `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    ]),
  );
  // dev: looks each request up on disk rather than listing the folder once at start, so a
  // folder built into while it is served (a preview build, a redeployed remote) is seen at once.
  const files = sirv(base, {
    dev: true,
    etag: true,
    brotli: true,
    gzip: true,
    single: historyFallback,
    // Only the browser's own requests: no dotfiles, no listing, nothing outside the folder.
    dotfiles: false,
    setHeaders: (response, pathname) => {
      // sirv names the encoding it picked; the CORS answer depends on the origin too.
      varyOn(response, 'Accept-Encoding');
      const isPage = !path.posix.extname(pathname) || pathname.endsWith('.html');
      response.setHeader('Cache-Control', isPage ? REVALIDATE : cacheControlFor(pathname));
      if (isPage)
        for (const [name, value] of Object.entries(pageHeaders(pathname)))
          response.setHeader(name, value);
      const type = String(response.getHeader('Content-Type') ?? '');
      if (CHARSET_TYPES.test(type) && !type.includes('charset')) {
        response.setHeader('Content-Type', `${type}; charset=utf-8`);
      }
    },
    onNoMatch: (_request, response) => {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
    },
  });
  const server = createServer((request, response) => {
    for (const [name, value] of Object.entries(headers())) response.setHeader(name, value);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    const allowed = corsOrigins();
    const origin = request.headers.origin;
    // The answer depends on the Origin header, so caches must keep one copy per origin.
    if (allowed.length > 0) varyOn(response, 'Origin');
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
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(new URL(request.url ?? '/', 'http://local').pathname);
    } catch {
      response.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad path');
      return;
    }
    // Never a dotfile (sirv's on-disk lookup would not skip one).
    if (/(?:^|\/)\./.test(urlPath)) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    if (Object.hasOwn(overrides, urlPath)) {
      const etag = overrideTags[urlPath]!;
      response.setHeader('Cache-Control', REVALIDATE);
      response.setHeader('ETag', etag);
      if (request.headers['if-none-match'] === etag) {
        response.writeHead(304).end();
        return;
      }
      response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      response.end(request.method === 'HEAD' ? undefined : overrides[urlPath]);
      return;
    }
    files(request, response);
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
