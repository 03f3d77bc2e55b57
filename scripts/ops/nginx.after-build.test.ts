/**
 * The plain machine of docs/deploy.md on loopback: Debian's nginx, with the configuration
 * `npm run render:nginx` renders from the images' templates, serves the five production builds
 * and the gateway to the production API (compiled, two processes, the embedded database as its
 * own process). The app is loaded through it as a browser loads it: the shell's page and every
 * script it names, its env.json, each remote's manifest and what the manifest names, from the
 * shell's origin; and the API through the gateway, signed in.
 *
 * Needs the builds (`npm run build`) and nginx (`.ci/run` installs it): skipped, saying so, only
 * where nginx is not installed outside CI.
 */
import { findNginx } from './nginx';
import { ADMIN_EMAIL, startLoopbackDeployment, type LoopbackDeployment } from './loopback';

const nginxInstalled = findNginx() !== undefined;
if (!nginxInstalled && process.env.CI) {
  throw new Error('nginx is not installed, and CI must run this test: .ci/run installs it');
}
if (!nginxInstalled) {
  process.stderr.write(
    "SKIPPED scripts/ops/nginx.after-build.test.ts: Debian's nginx is not installed " +
      '(apt-get install -y nginx; CI installs it in .ci/run)\n',
  );
}
const describeWithNginx = nginxInstalled ? describe : describe.skip;

let campus: LoopbackDeployment;

beforeAll(async () => {
  if (!nginxInstalled) return;
  campus = await startLoopbackDeployment({ apiProcesses: 2 });
});

afterAll(async () => {
  await campus?.stop();
});

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

/** The scripts a page names, as absolute URLs. */
function scriptsOf(html: string, base: string): string[] {
  return [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => new URL(m[1]!, base).href);
}

interface Manifest {
  metaData: { remoteEntry: { name: string; path: string } };
  shared: { assets: { js: { sync: string[]; async: string[] } } }[];
  exposes: { assets: { js: { sync: string[]; async: string[] } } }[];
}

describeWithNginx("Debian's nginx with the rendered configuration", () => {
  test('when the shell’s page is loaded, then it, every script it names and its env.json come with the images’ headers and caching', async () => {
    const page = await get(`${campus.urls.shell}/`, { 'Accept-Encoding': 'gzip' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const policy = page.headers.get('content-security-policy')!;
    // The policy names this deployment: the API's gateway and the remotes.
    expect(policy).toContain(`connect-src 'self' ${campus.urls.gateway}`);
    expect(policy).toContain(`script-src 'self' ${campus.urls['mf-feed']}`);
    expect(policy).toContain("frame-ancestors 'none'");
    // The feed remote is preloaded with the shell's own scripts.
    expect(page.headers.get('link')).toContain(`<${campus.urls['mf-feed']}/mf-manifest.json>`);

    const html = await page.text();
    const scripts = scriptsOf(html, campus.urls.shell);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const res = await get(script, { 'Accept-Encoding': 'gzip' });
      expect({ script, status: res.status }).toEqual({ script, status: 200 });
      expect(res.headers.get('content-type')).toMatch(/javascript/);
      // The .gz copy the build wrote, sent as it is (gzip_static), cached for a year.
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      await res.arrayBuffer();
    }

    const envJson = await get(`${campus.urls.shell}/env.json`);
    expect(envJson.status).toBe(200);
    expect(envJson.headers.get('cache-control')).toBe('no-cache');
    const etag = envJson.headers.get('etag')!;
    expect(await envJson.json()).toEqual({
      apiUrl: campus.urls.gateway,
      remotes: {
        mf_feed: `${campus.urls['mf-feed']}/mf-manifest.json`,
        mf_profile: `${campus.urls['mf-profile']}/mf-manifest.json`,
        mf_notifications: `${campus.urls['mf-notifications']}/mf-manifest.json`,
        mf_admin: `${campus.urls['mf-admin']}/mf-manifest.json`,
      },
      overrideOrigins: [],
    });
    expect((await get(`${campus.urls.shell}/env.json`, { 'If-None-Match': etag })).status).toBe(
      304,
    );
    // A client-side route is the shell's page.
    const route = await get(`${campus.urls.shell}/profile/107`);
    expect(route.status).toBe(200);
    expect(await route.text()).toBe(html);
  });

  test('when the shell loads each remote, then its manifest, remoteEntry.js and every file they name are served to the shell’s origin only', async () => {
    const origin = campus.urls.shell;
    for (const remote of ['mf-feed', 'mf-profile', 'mf-notifications', 'mf-admin'] as const) {
      const base = campus.urls[remote];
      const res = await get(`${base}/mf-manifest.json`, { Origin: origin });
      expect({ remote, status: res.status }).toEqual({ remote, status: 200 });
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const manifest = (await res.json()) as Manifest;
      const { path, name } = manifest.metaData.remoteEntry;
      const files = [
        new URL(`${path}${name}`, `${base}/`).href,
        ...[...manifest.shared, ...manifest.exposes].flatMap((item) =>
          [...item.assets.js.sync, ...item.assets.js.async].map((file) => `${base}/${file}`),
        ),
      ];
      for (const file of new Set(files)) {
        const served = await get(file, { Origin: origin });
        expect({ file, status: served.status }).toEqual({ file, status: 200 });
        expect(served.headers.get('access-control-allow-origin')).toBe(origin);
        await served.arrayBuffer();
      }
      // A page of another origin may not read it.
      const foreign = await get(`${base}/mf-manifest.json`, { Origin: 'http://evil.example' });
      expect(foreign.headers.get('access-control-allow-origin')).toBe(origin);
    }
  });

  test('when the shell calls the API through the gateway, then it signs in and is answered by the production API', async () => {
    const gateway = campus.urls.gateway;
    expect((await get(`${gateway}/healthz`)).status).toBe(200);
    expect((await get(`${gateway}/`)).status).toBe(404);
    const settings = await get(`${gateway}/api/settings`, { Origin: campus.urls.shell });
    expect(settings.status).toBe(200);
    expect(settings.headers.get('access-control-allow-origin')).toBe(campus.urls.shell);

    const login = await fetch(`${gateway}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: campus.urls.shell },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: campus.adminPassword }),
    });
    expect(login.status).toBe(200);
    const { user, token } = (await login.json()) as { user: { id: number }; token: string };
    expect(user.id).toBe(107);
    const me = await get(`${gateway}/api/auth/me`, { Authorization: `Bearer ${token}` });
    expect(me.status).toBe(200);
    // An avatar-sized body gets through the gateway to the API's own answer (not nginx's 413).
    const big = await fetch(`${gateway}/api/upload/avatar`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array(2 * 1024 * 1024),
    });
    expect(big.status).not.toBe(413);
    expect(big.headers.get('content-type')).toMatch(/application\/json/);
  });
});
