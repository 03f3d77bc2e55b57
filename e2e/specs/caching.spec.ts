// How the apps are served (scripts/serve/static-server.ts; the nginx images likewise): JavaScript
// compressed, content-hashed files immutable, the files that name them revalidated with an ETag,
// so a warm visit downloads no byte of JavaScript that did not change.
import type { CDPSession, Page } from '@playwright/test';
import { MEMBER_EMAIL, expect, test } from '../support/fixtures';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const HASHED_SCRIPT = /\/[\w-]+\.[0-9a-f]{8}\.js$/;

/** The scripts index.html names (the shell's entry). */
async function shellScripts(shellUrl: string, html: string): Promise<string[]> {
  return [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map(
    (match) => new URL(match[1]!, shellUrl).href,
  );
}

test('JavaScript is sent compressed by every app, brotli when the browser takes it', async ({
  request,
  env,
}) => {
  const index = await request.get(`${env.shellUrl}/`);
  const scripts = await shellScripts(env.shellUrl, await index.text());
  expect(scripts.length).toBeGreaterThan(0);
  const entries = Object.values(env.remotes).map((manifest) =>
    new URL('remoteEntry.js', manifest).toString(),
  );
  for (const url of [...scripts, ...entries]) {
    const brotli = await request.get(url, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(brotli.status(), url).toBe(200);
    expect(['br', 'gzip'], url).toContain(brotli.headers()['content-encoding']);
    expect(brotli.headers()['vary'] ?? '', url).toMatch(/Accept-Encoding/i);
    const gzip = await request.get(url, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gzip.headers()['content-encoding'], url).toBe('gzip');
    // The same script either way (the client decodes it).
    expect(await gzip.text(), url).toBe(await brotli.text());
    const identity = await request.get(url, { headers: { 'Accept-Encoding': 'identity' } });
    expect(identity.headers()['content-encoding'], url).toBeUndefined();
    expect(await identity.text(), url).toBe(await brotli.text());
  }
});

test('hashed files are immutable; index.html, env.json, manifests and remoteEntry.js revalidate', async ({
  request,
  env,
}) => {
  const index = await request.get(`${env.shellUrl}/`);
  for (const url of await shellScripts(env.shellUrl, await index.text())) {
    expect(url).toMatch(HASHED_SCRIPT);
    expect((await request.get(url)).headers()['cache-control'], url).toBe(IMMUTABLE);
  }
  const manifest = (await (await request.get(env.remotes.mf_feed)).json()) as {
    exposes: { assets: { js: { sync: string[] } } }[];
  };
  const exposed = manifest.exposes[0]!.assets.js.sync[0]!;
  const chunk = new URL(exposed, env.remotes.mf_feed).href;
  expect(chunk).toMatch(HASHED_SCRIPT);
  expect((await request.get(chunk)).headers()['cache-control'], chunk).toBe(IMMUTABLE);

  const unhashed = [
    `${env.shellUrl}/`,
    `${env.shellUrl}/profile/1`,
    `${env.shellUrl}/env.json`,
    ...Object.values(env.remotes),
    ...Object.values(env.remotes).map((url) => new URL('remoteEntry.js', url).href),
  ];
  for (const url of unhashed) {
    const first = await request.get(url);
    expect(first.status(), url).toBe(200);
    expect(first.headers()['cache-control'], url).toBe('no-cache');
    const etag = first.headers()['etag'];
    expect(etag, url).toBeTruthy();
    const again = await request.get(url, { headers: { 'If-None-Match': etag! } });
    expect(again.status(), url).toBe(304);
    expect(await again.body(), url).toHaveLength(0);
    const stale = await request.get(url, { headers: { 'If-None-Match': '"not-this-one"' } });
    expect(stale.status(), url).toBe(200);
  }
});

interface ScriptTraffic {
  /** Script responses that came over the network with a body, by URL. */
  bodies: Map<string, number>;
  /** Script requests answered 304, or from the browser's cache. */
  revalidated: string[];
  cached: string[];
}

/** Counts, per script request of the page, the body bytes that came over the network. */
async function watchScripts(session: CDPSession): Promise<() => ScriptTraffic> {
  const scripts = new Map<string, string>();
  const wire = new Map<string, number>();
  const traffic: ScriptTraffic = { bodies: new Map(), revalidated: [], cached: [] };
  const fromCache = new Set<string>();
  session.on('Network.requestWillBeSent', ({ requestId, type, request }) => {
    if (type === 'Script') scripts.set(requestId, request.url);
  });
  // A script taken from the memory cache is announced this way (and may have no response event).
  session.on('Network.requestServedFromCache', ({ requestId }) => fromCache.add(requestId));
  session.on('Network.responseReceived', ({ requestId, type, response }) => {
    if (type !== 'Script') return;
    scripts.set(requestId, response.url);
    if (response.status === 304) traffic.revalidated.push(response.url);
    if (response.fromDiskCache || response.fromPrefetchCache) fromCache.add(requestId);
  });
  session.on('Network.dataReceived', ({ requestId, encodedDataLength }) => {
    wire.set(requestId, (wire.get(requestId) ?? 0) + encodedDataLength);
  });
  await session.send('Network.enable');
  return () => {
    for (const [requestId, url] of scripts) {
      const bytes = wire.get(requestId) ?? 0;
      if (bytes > 0) traffic.bodies.set(url, bytes);
      if (fromCache.has(requestId)) traffic.cached.push(url);
    }
    return traffic;
  };
}

/** The feed shows its posts, and the scripts a page loads after its first render have come. */
async function feedShown(page: Page) {
  // Generous: on a shared 2-core machine under load a cold first visit can take a while.
  await expect(page.getByRole('article').first()).toBeVisible({ timeout: 30_000 });
  // Not networkidle: the page keeps its live stream open.
  await page.waitForLoadState('load');
  await page.waitForTimeout(1500);
}

test('a warm visit downloads no byte of unchanged JavaScript', async ({ page, signInAs }) => {
  test.setTimeout(120_000);
  const session = await page.context().newCDPSession(page);
  const cold = await watchScripts(session);
  await signInAs(MEMBER_EMAIL, '/');
  await feedShown(page);
  const first = cold();
  // The cold visit really downloaded the scripts (the counting sees bodies).
  expect(first.bodies.size).toBeGreaterThan(3);
  await session.detach();

  const warmSession = await page.context().newCDPSession(page);
  const warm = await watchScripts(warmSession);
  await page.goto('/');
  await feedShown(page);
  const second = warm();
  expect([...second.bodies.entries()], 'script bodies downloaded again').toEqual([]);
  // remoteEntry.js (no-cache) came back as a 304; the hashed chunks straight from the cache.
  expect(second.revalidated.some((url) => url.endsWith('/remoteEntry.js'))).toBe(true);
  expect(second.cached.some((url) => HASHED_SCRIPT.test(url))).toBe(true);
});
