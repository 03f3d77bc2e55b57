/**
 * `npm run bench:web`: how fast the production build shows its pages in Chromium (Playwright, the
 * browser and launch flags of the e2e config), against the real API with the demo data, served as
 * deployed (scripts/serve/serve-apps.ts: each app on its own port, compressed, cached).
 *
 * For the signed-in feed, a profile, the notifications and the admin's dashboard, and for the
 * Module Federation floor (scripts/bundle/floor.ts: the same host + remote stack and libraries,
 * rendering 20 static post-sized items): LCP, CLS, total blocking time and the time until the
 * first content is visible (the feed's first post, a profile's first post, the first
 * notification, the dashboard's first figure card, the floor's first item); cold cache (a fresh
 * browser context) and warm cache (the same context, loaded once before); without and with 4x CPU
 * throttling (CDP Emulation.setCPUThrottlingRate). Then, on the signed-in feed at 1x and 4x, the
 * time from a click on a post's like button to its count changing on screen. Each figure is the
 * median of BENCH_WEB_RUNS runs (5). Absolute times on a shared machine move with its load, so
 * each page's time is also printed as a ratio to the floor's: the runs go in rounds (the floor,
 * then each page, for one cache and throttle), and the ratio printed is the median of each
 * round's page time ÷ that round's floor time, so a page is compared with a floor loaded seconds
 * before it. Each target of issue 22 is printed as met or not. Prints figures; never a test.
 *
 * The builds: it copies the apps' dist/ folders and the floor it builds into a private folder
 * while holding the build lock (BENCH_WEB_LOCK, default /tmp/campus-e2e.lock, the lock every build
 * and e2e run takes; `none`: take no lock), then serves the copy, so the apps can be rebuilt
 * while it measures. BENCH_WEB_DIST=<dir>: keep that copy there (`<dir>/shell`, `<dir>/mf-feed`,
 * ..., `<dir>/floor/host`, `<dir>/floor/remote`), and serve it as it is if it is already complete.
 * BENCH_WEB_PAGES=feed,analytics: only those pages (and the floor); BENCH_WEB_THROTTLES=1: only
 * those CPU throttling rates (default 1,4). With the feed, first the bytes of images its first page
 * fetches on a 390 px phone at 1x, scrolled to its end (issue 39's target: 400 KB). Then issue
 * 41's boot frame: a cold start of the signed-in feed on Fast 3G (CDP
 * Network.emulateNetworkConditions with Chrome DevTools' "Fast 3G" preset: 562.5 ms latency,
 * 1.6 Mbps down and 750 kbps up times 0.9, as DevTools sends them; the cache disabled in a fresh
 * context), at 1280x900 and on a 390x844 phone (1x), CPU not throttled: from the HTML's arrival
 * (navigation timing responseEnd) to the first paint (first-paint; FCP beside it) and to the first
 * post painted, with a check that the boot frame (shell/index.html #boot-frame, the parts the
 * width shows) was in the page at that paint and not yet removed by the app; target: the frame
 * painted within 1 s of the HTML (issue 41).
 * BENCH_WEB_ONLY=image-bytes, BENCH_WEB_ONLY=fast3g (or both, comma-separated): only those
 * figures (no floor, no rounds). The figures go into the bench:web section of BENCHMARKS.md as
 * tables (report.ts), unless BENCH_WRITE=0, BENCH_WEB_ONLY, BENCH_WEB_PAGES or
 * BENCH_WEB_THROTTLES is set.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/support/browser';
import { startComposition } from '../../e2e/support/global-setup';
import { e2eEnvironment } from '../../e2e/support/environment';
import { APPS, appDist } from '../serve/serve-apps';
import { startStaticServer } from '../serve/static-server';
import { buildFloor } from '../bundle/floor';
import { fmt, table as markdownTable, writeSection } from './report';

const DEMO_PASSWORD = 'campus-demo';
const MEMBER_EMAIL = 'ada.okafor@campus.edu';
const OTHER_MEMBER_EMAIL = 'ben.larsen@campus.edu';
const ADMIN_EMAIL = 'admin@campus.edu';
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5);
const THROTTLES = (process.env.BENCH_WEB_THROTTLES ?? '1,4').split(',').map(Number);
const CACHES = ['cold', 'warm'] as const;
const VIEWPORT = { width: 1280, height: 900 };
const LOCK = process.env.BENCH_WEB_LOCK ?? '/tmp/campus-e2e.lock';
const PAGES = process.env.BENCH_WEB_PAGES?.split(',').map((name) => name.trim());
/** BENCH_WEB_ONLY: only these figures (no floor, no rounds of pages, no like clicks). */
const ONLY_FIGURES = ['image-bytes', 'fast3g'] as const;
type OnlyFigure = (typeof ONLY_FIGURES)[number];
const ONLY = process.env.BENCH_WEB_ONLY
  ? (process.env.BENCH_WEB_ONLY.split(',')
      .map((name) => name.trim())
      .filter(Boolean) as OnlyFigure[])
  : undefined;
const unknownOnly = ONLY?.filter((name) => !ONLY_FIGURES.includes(name));
if (unknownOnly?.length) {
  throw new Error(
    `BENCH_WEB_ONLY: unknown ${unknownOnly.join(', ')} (known: ${ONLY_FIGURES.join(', ')})`,
  );
}
const measures = (figure: OnlyFigure) => !ONLY || ONLY.includes(figure);

/** Issue 22's targets. */
const FIRST_CONTENT_RATIO = 1.3;
const CLS_MAX = 0.05;
const LIKE_MAX_MS = 100;

interface Sample {
  lcp: number;
  cls: number;
  tbt: number;
  visible: number;
}

type Bench = { __bench: Sample };
type LikeProbe = {
  __likeProbe: { click: number; changed: number; painted: number } | null;
  __armLikeProbe: () => void;
};

interface Target {
  label: string;
  url: string;
  /** The first content that counts as shown (the feed's first post, ...). */
  ready: string;
  /** Signs each browser context in as this member (its session cookies, its stored user). */
  auth?: Login;
  floor?: boolean;
}

/**
 * Holds the shared build lock (flock(1) on `file`) until the returned function is called: a
 * child `flock` process keeps it while its stdin is open, so the lock also goes if this process
 * dies.
 */
async function holdLock(file: string): Promise<() => Promise<void>> {
  if (spawnSync('flock', ['-n', file, 'true']).status !== 0) {
    console.log(
      `Waiting for the build lock ${file} (a build or an e2e run holds it; if this command ` +
        'itself runs under that lock, set BENCH_WEB_LOCK=none)...',
    );
  }
  const holder: ChildProcess = spawn(
    'flock',
    [
      file,
      process.execPath,
      '-e',
      "process.stdout.write('held\\n'); process.stdin.resume(); process.stdin.on('end', () => process.exit(0));",
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    holder.stdout!.once('data', () => resolve());
    holder.once('error', reject);
    holder.once('exit', (code) => reject(new Error(`flock ${file} exited (${code})`)));
  });
  return async () => {
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.stdin!.end();
    await exited;
  };
}

interface Snapshot {
  /** `<dir>/<app dir>`: the apps' builds (serve-apps.ts `distDir`). */
  dir: string;
  floor: { hostDist: string; remoteDist: string };
  /** Removes the copy (a temporary one only). */
  remove: () => Promise<void>;
}

/**
 * A private copy of the apps' builds and of the floor, made under the build lock (without the
 * floor when `withFloor` is false: BENCH_WEB_ONLY's figures need none).
 */
async function snapshot(withFloor: boolean): Promise<Snapshot> {
  const kept = process.env.BENCH_WEB_DIST;
  const dir = kept
    ? path.resolve(kept)
    : await mkdtemp(path.join(os.tmpdir(), 'campus-bench-web-'));
  const floor = {
    hostDist: path.join(dir, 'floor', 'host'),
    remoteDist: path.join(dir, 'floor', 'remote'),
  };
  const remove = kept ? async () => undefined : () => rm(dir, { recursive: true, force: true });
  const complete = () =>
    APPS.every((app) => existsSync(path.join(dir, app.dir, 'index.html'))) &&
    (!withFloor ||
      (existsSync(path.join(floor.hostDist, 'index.html')) &&
        existsSync(path.join(floor.remoteDist, 'mf-manifest.json'))));
  if (kept && complete()) {
    console.log(`Serving the builds copied earlier into ${dir}.`);
    return { dir, floor, remove };
  }
  const release = LOCK === 'none' ? async () => undefined : await holdLock(LOCK);
  const started = Date.now();
  try {
    const missing = APPS.filter((app) => !existsSync(path.join(appDist(app.dir), 'index.html')));
    if (missing.length > 0) {
      throw new Error(
        `Build the apps first (missing: ${missing.map((app) => app.dir).join(', ')}): ` +
          'npm run build -w shell -w mf-feed -w mf-profile -w mf-notifications -w mf-admin',
      );
    }
    let built: Awaited<ReturnType<typeof buildFloor>> | undefined;
    if (withFloor) {
      console.log('Building the Module Federation floor (host + remote, 20 static items)...');
      built = await buildFloor();
    }
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    for (const app of APPS)
      await cp(appDist(app.dir), path.join(dir, app.dir), { recursive: true });
    if (built) {
      await cp(built.hostDist, floor.hostDist, { recursive: true });
      await cp(built.remoteDist, floor.remoteDist, { recursive: true });
    }
  } catch (error) {
    await remove();
    throw error;
  } finally {
    await release();
  }
  console.log(
    `Copied the builds${withFloor ? ' and the floor' : ''} into ${dir} (the lock was held ${((Date.now() - started) / 1000).toFixed(0)} s).`,
  );
  return { dir, floor, remove };
}

// Runs in the page before its own scripts (a string: this workspace has no DOM types). Records
// LCP, the layout shifts without recent input, the long tasks (blocking time: what exceeds 50 ms)
// and the moment `ready` first matches and is painted.
function observerScript(ready: string): string {
  return `(() => {
  const m = (window.__bench = { lcp: 0, cls: 0, tbt: 0, visible: 0 });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) m.lcp = e.renderTime || e.loadTime || e.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) m.cls += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) m.tbt += Math.max(0, e.duration - 50);
  }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    if (m.visible || !document.querySelector(${JSON.stringify(ready)})) return false;
    requestAnimationFrame(() => setTimeout(() => { m.visible = m.visible || performance.now(); }, 0));
    return true;
  };
  const watch = new MutationObserver(() => { if (check()) watch.disconnect(); });
  document.addEventListener('DOMContentLoaded', () => {
    if (!check()) watch.observe(document.body, { childList: true, subtree: true });
  });
})();`;
}

/** The first post's like button on the feed (the kit's PostCard). */
// The first post's like button, liked or not ("Like (n likes)" / "Liked (n likes)").
const LIKE_BUTTON =
  'main article button[aria-label^="Like ("], main article button[aria-label^="Liked ("]';

// Installed with the page (an init script: the page's Content-Security-Policy refuses inline
// scripts and eval); armed before each click. Records the click's own timestamp (the event's
// timeStamp: when the browser took the input), the moment the button's count text changed (a
// MutationObserver on the button) and the next frame after it (requestAnimationFrame, then the
// task after that frame: the change is on screen).
const LIKE_PROBE_SCRIPT = `window.__armLikeProbe = () => {
  // Read afresh each time: the feed may render its cards again (fresh data after a prefetched
  // page), which replaces the button.
  const count = () => { const b = document.querySelector(${JSON.stringify(LIKE_BUTTON)}); return b && (b.querySelector('span') || b).textContent; };
  const before = count();
  const probe = (window.__likeProbe = { click: 0, changed: 0, painted: 0 });
  document.addEventListener('click', (event) => { probe.click = probe.click || event.timeStamp; }, { capture: true, once: true });
  const watch = new MutationObserver(() => {
    if (probe.changed || count() === before) return;
    probe.changed = performance.now();
    watch.disconnect();
    requestAnimationFrame(() => setTimeout(() => { probe.painted = performance.now(); }, 0));
  });
  watch.observe(document.querySelector('main'), { childList: true, subtree: true, characterData: true });
};`;

async function newContext(
  browser: Browser,
  target: Target,
  options: Parameters<Browser['newContext']>[0] = { viewport: VIEWPORT },
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  if (target.auth) {
    // A session of its own per context, as a browser that signed in has: HttpOnly cookies (one
    // shared session's refresh token, rotated by one context, would be a reuse in another).
    const { user, cookies } = await signIn(target.auth);
    await context.addCookies(cookies);
    await context.addInitScript(
      `window.localStorage.setItem('campus.auth', ${JSON.stringify(JSON.stringify({ user }))});`,
    );
  }
  await context.addInitScript(observerScript(target.ready));
  await context.addInitScript(LIKE_PROBE_SCRIPT);
  return context;
}

async function throttled(context: BrowserContext, throttle: number) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  return {
    page,
    close: async () => {
      await cdp.detach().catch(() => undefined);
      await page.close();
    },
  };
}

async function open(page: Page, target: Target): Promise<void> {
  await page.goto(target.url);
  // Functions, not strings: the page's Content-Security-Policy refuses eval. (Sent to the page
  // as source: nothing from this scope may be named inside.)
  await page.waitForFunction(
    () => (globalThis as unknown as Bench).__bench.visible > 0,
    undefined,
    {
      timeout: 60_000,
      polling: 50,
    },
  );
  // Let the last layout shifts and LCP candidates of the load arrive.
  await page.waitForTimeout(1000);
}

async function load(context: BrowserContext, target: Target, throttle: number): Promise<Sample> {
  const { page, close } = await throttled(context, throttle);
  try {
    await open(page, target);
    return await page.evaluate(() => ({ ...(globalThis as unknown as Bench).__bench }));
  } finally {
    await close();
  }
}

async function sample(
  browser: Browser,
  target: Target,
  cache: 'cold' | 'warm',
  throttle: number,
): Promise<Sample> {
  const context = await newContext(browser, target);
  try {
    if (cache === 'warm') await load(context, target, 1);
    return await load(context, target, throttle);
  } finally {
    await context.close();
  }
}

/**
 * Opens the feed (warm) and clicks the first post's like button twice (like, then unlike): the
 * milliseconds from each click to its count changing on screen.
 */
interface LikeTime {
  /** Click to the count's text changed in the DOM (the click's handler and React's render). */
  dom: number;
  /** Click to the next frame after it: the new count on screen. */
  screen: number;
}

async function likeSamples(browser: Browser, feed: Target, throttle: number): Promise<LikeTime[]> {
  const context = await newContext(browser, feed);
  try {
    await load(context, feed, 1);
    const { page, close } = await throttled(context, throttle);
    try {
      await open(page, feed);
      const times: LikeTime[] = [];
      for (let click = 0; click < 2; click += 1) {
        await page.evaluate(() => (globalThis as unknown as LikeProbe).__armLikeProbe());
        await page.locator(LIKE_BUTTON).first().click();
        const probe = await page.waitForFunction(
          () => {
            const p = (globalThis as unknown as LikeProbe).__likeProbe;
            return p && p.painted > 0 ? p : null;
          },
          undefined,
          { timeout: 30_000, polling: 20 },
        );
        const { click: clicked, changed, painted } = (await probe.jsonValue())!;
        times.push({ dom: changed - clicked, screen: painted - clicked });
        // Let the like's request answer before the next click.
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await page.waitForTimeout(500);
      }
      return times;
    } finally {
      await close();
    }
  } finally {
    await context.close();
  }
}

/** Issue 39: a feed page of 20 posts with images fetches at most this on a 390 px phone at 1x. */
const IMAGE_BYTES_MAX = 400 * 1024;
const PHONE = { width: 390, height: 844 };

interface ImageBytes {
  bytes: number;
  requests: number;
  /** Images of the page's posts (their own and those of the posts they quote). */
  images: number;
  posts: number;
}

/**
 * The bytes of images (everything fetched from the API's /media/) a signed-in member's first feed
 * page costs on a 390 px wide phone at 1x density, cold cache: the feed opened and scrolled to its
 * end (the lazy images load as they near the screen), the bytes as received (CDP
 * Network.loadingFinished's encodedDataLength: headers and body).
 */
async function imageBytes(browser: Browser, feed: Target): Promise<ImageBytes> {
  const context = await newContext(browser, feed, {
    viewport: PHONE,
    deviceScaleFactor: 1,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const media = new Set<string>();
    let bytes = 0;
    cdp.on('Network.responseReceived', ({ requestId, response }) => {
      if (new URL(response.url).pathname.startsWith('/media/')) media.add(requestId);
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      if (media.has(requestId)) bytes += encodedDataLength;
    });
    await open(page, feed);
    // Down to the end of the page, a screen at a time, letting each screen's images load.
    for (let step = 0; step < 200; step += 1) {
      const atEnd = await page.evaluate(() => {
        const w = globalThis as unknown as {
          scrollBy: (x: number, y: number) => void;
          scrollY: number;
          innerHeight: number;
          document: { documentElement: { scrollHeight: number } };
        };
        w.scrollBy(0, w.innerHeight * 0.8);
        return w.scrollY + w.innerHeight >= w.document.documentElement.scrollHeight - 2;
      });
      await page.waitForLoadState('networkidle').catch(() => undefined);
      if (atEnd) break;
    }
    await page.waitForTimeout(1000);
    const counts = await page.evaluate(() => {
      const d = (
        globalThis as unknown as {
          document: { querySelectorAll: (s: string) => { length: number } };
        }
      ).document;
      return {
        posts: d.querySelectorAll('main article').length,
        images: d.querySelectorAll('main article button[aria-label^="Open image"]').length,
      };
    });
    await cdp.detach().catch(() => undefined);
    return { bytes, requests: media.size, ...counts };
  } finally {
    await context.close();
  }
}

/**
 * Chrome DevTools' "Fast 3G" throttling preset as DevTools sends it to
 * Network.emulateNetworkConditions: 150 ms round trip × 3.75 = 562.5 ms latency, 1.6 Mbps down
 * and 750 kbps up, each × 0.9 (in bytes per second).
 */
const FAST_3G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
  connectionType: 'cellular3g',
} as const;
/** Issue 41: on Fast 3G, the app's frame painted within 1 s of the HTML. */
const FRAME_AFTER_HTML_MAX_MS = 1000;
/** The widths of the Fast 3G cold start: the sidebar's, and the phone's header and bottom bar. */
const FAST_3G_DEVICES = [
  {
    label: `desktop ${VIEWPORT.width}x${VIEWPORT.height}`,
    options: { viewport: VIEWPORT },
    // The parts of shell/index.html's #boot-frame that this width shows.
    parts: ['boot-sidebar', 'boot-main'],
  },
  {
    label: `phone ${PHONE.width}x${PHONE.height}`,
    options: { viewport: PHONE, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
    parts: ['boot-header', 'boot-bottom'],
  },
];

type BootProbe = {
  __boot: {
    /** When #boot-frame was first in the document, and when the app removed it (0: not yet). */
    frameAdded: number;
    frameRemoved: number;
    firstPaint: number;
    fcp: number;
    /** The parts of the frame laid out with a size when the first paint was reported. */
    parts: string[] | null;
  };
};

// Installed with the page (before its own scripts). A MutationObserver notes when #boot-frame
// enters the document (parsed from the HTML) and leaves it (the app removes it once it shows a
// page); its callbacks run before the next rendering, so a frame added before a paint is noted
// before it, and one removed before a paint is noted before it. The paint observer records
// first-paint and first-contentful-paint and which parts of the frame have a box at that moment.
const BOOT_PROBE_SCRIPT = `(() => {
  const p = (window.__boot = { frameAdded: 0, frameRemoved: 0, firstPaint: 0, fcp: 0, parts: null });
  const watch = new MutationObserver(() => {
    const frame = document.getElementById('boot-frame');
    if (frame && !p.frameAdded) p.frameAdded = performance.now();
    if (!frame && p.frameAdded && !p.frameRemoved) { p.frameRemoved = performance.now(); watch.disconnect(); }
  });
  watch.observe(document, { childList: true, subtree: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name === 'first-paint') {
        p.firstPaint = e.startTime;
        const frame = document.getElementById('boot-frame');
        p.parts = frame
          ? [...frame.children].filter((c) => { const r = c.getBoundingClientRect(); return r.width > 0 && r.height > 0; }).map((c) => c.className)
          : null;
      }
      if (e.name === 'first-contentful-paint') p.fcp = e.startTime;
    }
  }).observe({ type: 'paint', buffered: true });
})();`;

interface Fast3gSample {
  /** Navigation timing's responseEnd: the HTML has arrived (ms from navigation start). */
  html: number;
  firstPaint: number;
  fcp: number;
  /** The first post painted. */
  post: number;
  /** The boot frame, with this width's parts, was in the page at the first paint. */
  framed: boolean;
  /** When the app removed the boot frame (it shows its page; 0: not seen). */
  frameRemoved: number;
}

interface Fast3gFigures {
  device: string;
  runs: Fast3gSample[];
  /** Medians, ms from navigation start. */
  html: number;
  firstPaint: number;
  fcp: number;
  post: number;
  /** Medians of each run's time after its HTML. */
  frameAfterHtml: number;
  fcpAfterHtml: number;
  postAfterHtml: number;
  framedRuns: number;
  met: boolean;
}

/** One cold start of the signed-in feed on Fast 3G, in a fresh context with the cache disabled. */
async function fast3gSample(
  browser: Browser,
  feed: Target,
  device: (typeof FAST_3G_DEVICES)[number],
): Promise<Fast3gSample> {
  const context = await newContext(browser, feed, device.options);
  try {
    await context.addInitScript(BOOT_PROBE_SCRIPT);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await page.goto(feed.url, { waitUntil: 'commit', timeout: 120_000 });
    await page.waitForFunction(
      () => {
        const w = globalThis as unknown as Bench & BootProbe;
        return w.__bench.visible > 0 && w.__boot.firstPaint > 0 && w.__boot.fcp > 0;
      },
      undefined,
      { timeout: 180_000, polling: 100 },
    );
    const figures = await page.evaluate(() => {
      const w = globalThis as unknown as Bench &
        BootProbe & {
          performance: { getEntriesByType: (type: string) => Array<{ responseEnd: number }> };
        };
      return {
        html: w.performance.getEntriesByType('navigation')[0]!.responseEnd,
        boot: { ...w.__boot },
        post: w.__bench.visible,
      };
    });
    await cdp.detach().catch(() => undefined);
    const { boot } = figures;
    const framed =
      boot.frameAdded > 0 &&
      boot.frameAdded <= boot.firstPaint &&
      (boot.frameRemoved === 0 || boot.frameRemoved > boot.firstPaint) &&
      device.parts.every((part) => boot.parts?.includes(part));
    return {
      html: figures.html,
      firstPaint: boot.firstPaint,
      fcp: boot.fcp,
      post: figures.post,
      framed,
      frameRemoved: boot.frameRemoved,
    };
  } finally {
    await context.close();
  }
}

/** RUNS cold starts of the signed-in feed on Fast 3G at each width, alternating the widths. */
async function fast3g(browser: Browser, feed: Target): Promise<Fast3gFigures[]> {
  const runs = FAST_3G_DEVICES.map(() => [] as Fast3gSample[]);
  for (let run = 0; run < RUNS; run += 1) {
    for (const [i, device] of FAST_3G_DEVICES.entries()) {
      const one = await fast3gSample(browser, feed, device);
      runs[i]!.push(one);
      console.log(
        `  Fast 3G, ${device.label}, run ${run + 1}: HTML ${one.html.toFixed(0)} ms, first paint ` +
          `${one.firstPaint.toFixed(0)} (+${(one.firstPaint - one.html).toFixed(0)}), FCP ` +
          `${one.fcp.toFixed(0)}, first post ${one.post.toFixed(0)} ` +
          `(+${(one.post - one.html).toFixed(0)}); ${one.framed ? 'the boot frame painted' : 'NOT the boot frame'}` +
          (one.frameRemoved ? `, the app replaced it at ${one.frameRemoved.toFixed(0)} ms` : ''),
      );
    }
  }
  return FAST_3G_DEVICES.map((device, i) => {
    const own = runs[i]!;
    const frameAfterHtml = median(own.map((s) => s.firstPaint - s.html));
    const framedRuns = own.filter((s) => s.framed).length;
    return {
      device: device.label,
      runs: own,
      html: median(own.map((s) => s.html)),
      firstPaint: median(own.map((s) => s.firstPaint)),
      fcp: median(own.map((s) => s.fcp)),
      post: median(own.map((s) => s.post)),
      frameAfterHtml,
      fcpAfterHtml: median(own.map((s) => s.fcp - s.html)),
      postAfterHtml: median(own.map((s) => s.post - s.html)),
      framedRuns,
      met: framedRuns === own.length && frameAfterHtml <= FRAME_AFTER_HTML_MAX_MS,
    };
  });
}

const FAST_3G_TITLE =
  "Fast 3G (DevTools' preset: 562.5 ms latency, 1.6 Mbps down, 750 kbps up, each × 0.9), " +
  'cache disabled, a fresh context, CPU not throttled: a cold start of the signed-in feed';

function fast3gRows(figures: Fast3gFigures[]): string[][] {
  const ms = (n: number) => fmt(n);
  return figures.map((f) => [
    f.device,
    ms(f.html),
    `${ms(f.firstPaint)} (+${ms(f.frameAfterHtml)})`,
    `${ms(f.fcp)} (+${ms(f.fcpAfterHtml)})`,
    `${ms(f.post)} (+${ms(f.postAfterHtml)})`,
    `${f.framedRuns} of ${f.runs.length}`,
    yesNo(f.met),
  ]);
}

const FAST_3G_HEADERS = [
  'width',
  'HTML arrived',
  'first paint (after the HTML)',
  'FCP (after the HTML)',
  'first post (after the HTML)',
  'boot frame at the first paint',
  `frame ≤ ${FRAME_AFTER_HTML_MAX_MS / 1000} s after the HTML`,
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

interface Login {
  apiUrl: string;
  email: string;
}

/** Signs `email` in: the stored user and the session cookies the API set, for a browser context. */
async function signIn({ apiUrl, email }: Login) {
  const response = await fetch(`${apiUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!response.ok) throw new Error(`login ${email}: ${response.status} ${await response.text()}`);
  const { user } = (await response.json()) as {
    user: { id: number; name: string; email: string; avatarUrl: string | null };
  };
  const domain = new URL(apiUrl).hostname;
  const cookies = response.headers.getSetCookie().map((line) => {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const eq = pair!.indexOf('=');
    const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
    return {
      name: pair!.slice(0, eq),
      value: pair!.slice(eq + 1),
      domain,
      path,
      httpOnly: true,
      sameSite: 'Lax' as const,
    };
  });
  const { id, name, avatarUrl } = user;
  return { user: { id, name, email: user.email, avatarUrl }, cookies };
}

async function login(apiUrl: string, email: string) {
  const { user } = await signIn({ apiUrl, email });
  return { id: user.id, auth: { apiUrl, email } };
}

const yesNo = (met: boolean) => (met ? 'met' : 'NOT met');

/** The bench:web section of BENCHMARKS.md: a row per page and cache, 1x and 4x side by side. */
function webSection(
  targets: Target[],
  cells: Map<string, { median: Sample; ratio: { visible: number; lcp: number } }>,
  likes: Map<number, LikeTime[]>,
  misses: string[],
  pictures?: ImageBytes,
  slow?: Fast3gFigures[],
): string {
  const ms = (n: number) => fmt(n);
  const rows = targets.flatMap((target) =>
    CACHES.map((cache) => {
      const at = THROTTLES.map((throttle) => cells.get(`${target.label}|${cache}|${throttle}`)!);
      return [
        target.label,
        cache,
        ...at.flatMap(({ median: cell, ratio }) => [
          `${ms(cell.visible)} (${fmt(ratio.visible, 2)}×)`,
          `${ms(cell.lcp)} (${fmt(ratio.lcp, 2)}×)`,
          ms(cell.tbt),
        ]),
        fmt(Math.max(...at.map(({ median: cell }) => cell.cls)), 3),
      ];
    }),
  );
  const like = [...likes]
    .map(([throttle, times]) => {
      const screen = median(times.map((t) => t.screen));
      return (
        `${throttle}x ${ms(screen)} ms (max ${ms(Math.max(...times.map((t) => t.screen)))}, ` +
        `${ms(median(times.map((t) => t.dom)))} in the DOM, ${times.length} clicks)`
      );
    })
    .join(', ');
  return [
    `Playwright's Chromium, ${VIEWPORT.width}x${VIEWPORT.height}, against ${process.env.BENCH_WEB_DIST ? 'the copy of the builds in BENCH_WEB_DIST' : "the apps' production builds (dist/, copied when the run started)"} and the API with the demo data, served as deployed. Medians of ${RUNS} rounds, each round loading the floor and then each page; ms from navigation start, and in brackets the median of each round's ratio to the floor's. First content: the first post, notification, dashboard figure card or floor item painted. CLS: the higher of 1x and 4x.`,
    '',
    markdownTable(
      [
        'page',
        'cache',
        'first content, 1x',
        'LCP, 1x',
        'TBT, 1x',
        'first content, 4x',
        'LCP, 4x',
        'TBT, 4x',
        'CLS',
      ],
      rows,
    ),
    '',
    `A like click to its count on screen (median, like and unlike, warm feed): ${like || 'not measured'}.`,
    pictures
      ? `The feed's first page on a ${PHONE.width} px phone at 1x, scrolled to its end (cold): ${fmt(pictures.bytes / 1024, 1)} KB of images in ${pictures.requests} requests (${pictures.images} images in ${pictures.posts} posts).`
      : 'Feed images on a phone: not measured.',
    '',
    ...(slow
      ? [
          `${FAST_3G_TITLE} (issue 41's boot frame). Medians of ${RUNS} runs, ms from navigation start, and in brackets the median of each run's time after its HTML arrived (navigation timing responseEnd); the boot frame at the first paint: \`#boot-frame\` with this width's parts was in the page then.`,
          '',
          markdownTable(FAST_3G_HEADERS, fast3gRows(slow)),
        ]
      : ['Fast 3G cold start: not measured.']),
    '',
    `Targets (first content ≤ ${FIRST_CONTENT_RATIO}× the floor, CLS ≤ ${CLS_MAX}, the like ≤ ${LIKE_MAX_MS} ms, a feed page's images ≤ ${IMAGE_BYTES_MAX / 1024} KB on a phone, on Fast 3G the boot frame ≤ ${FRAME_AFTER_HTML_MAX_MS / 1000} s after the HTML): ${misses.length === 0 ? 'all met' : `${misses.length} not met`}.`,
  ].join('\n');
}

async function main(): Promise<void> {
  const copy = await snapshot(!ONLY);
  console.log('Starting the API and serving the copied production builds...');
  const servers: { close: () => Promise<void> }[] = [];
  let stop: (() => Promise<void>) | undefined;
  let browser: Browser | undefined;
  try {
    stop = await startComposition({ distDir: copy.dir });
    browser = await chromium.launch(chromiumLaunchOptions());
    const env = e2eEnvironment();
    // The floor (not with BENCH_WEB_ONLY: its figures are the feed's alone).
    let hostOrigin = '';
    if (!ONLY) {
      const remote = await startStaticServer({
        root: copy.floor.remoteDist,
        corsOrigins: () => [hostOrigin],
      });
      servers.push(remote);
      const host = await startStaticServer({
        root: copy.floor.hostDist,
        historyFallback: true,
        overrides: { '/env.json': JSON.stringify({ remote: `${remote.url}/mf-manifest.json` }) },
      });
      servers.push(host);
      hostOrigin = host.url;
    }

    const member = await login(env.apiUrl, MEMBER_EMAIL);
    const other = await login(env.apiUrl, OTHER_MEMBER_EMAIL);
    const admin = await login(env.apiUrl, ADMIN_EMAIL);
    const feed: Target = {
      label: 'feed',
      url: `${env.shellUrl}/`,
      ready: 'main article',
      auth: member.auth,
    };
    const targets: Target[] = [
      { label: 'floor (20 items)', url: `${hostOrigin}/`, ready: 'article', floor: true },
      feed,
      {
        label: 'profile',
        url: `${env.shellUrl}/profile/${other.id}`,
        ready: 'main article',
        auth: member.auth,
      },
      {
        label: 'notifications',
        url: `${env.shellUrl}/notifications`,
        ready: 'main li',
        auth: member.auth,
      },
      {
        label: 'analytics (admin)',
        url: `${env.shellUrl}/analytics`,
        // The dashboard's first figure card (its heading is there from the remote's first render).
        ready: 'main article[aria-label="Total Users"]',
        auth: admin.auth,
      },
    ].filter(
      (target) => target.floor || !PAGES || PAGES.some((name) => target.label.startsWith(name)),
    );

    let pictures: ImageBytes | undefined;
    if (targets.includes(feed) && measures('image-bytes')) {
      pictures = await imageBytes(browser, feed);
      console.log(
        `  feed images on a ${PHONE.width} px phone at 1x, the first page scrolled to its end, cold: ` +
          `${fmt(pictures.bytes / 1024, 1)} KB in ${pictures.requests} requests ` +
          `(${pictures.images} images in ${pictures.posts} posts; target <= ${IMAGE_BYTES_MAX / 1024} KB)`,
      );
    }
    let slow: Fast3gFigures[] | undefined;
    if (targets.includes(feed) && measures('fast3g')) {
      slow = await fast3g(browser, feed);
      console.log(
        `\n${FAST_3G_TITLE}, ${RUNS} runs at each width; medians in ms from navigation start, ` +
          "in brackets the median of each run's time after its HTML arrived (responseEnd)\n",
      );
      console.log(table(FAST_3G_HEADERS, fast3gRows(slow)));
      console.log(
        `Target (issue 41): on Fast 3G, the boot frame painted <= ${FRAME_AFTER_HTML_MAX_MS} ms after the HTML, ` +
          `at each width: ${slow.every((f) => f.met) ? 'met' : 'NOT met'}.`,
      );
    }
    if (ONLY) {
      console.log(`BENCH_WEB_ONLY=${ONLY.join(',')}: BENCHMARKS.md left as it is.`);
      return;
    }

    /**
     * Per page, cache and throttle: the medians of its samples, and the medians of its first
     * content and LCP as ratios to the floor's in the same round.
     */
    const cells = new Map<string, { median: Sample; ratio: { visible: number; lcp: number } }>();
    for (const throttle of THROTTLES) {
      for (const cache of CACHES) {
        // Rounds: the floor, then each page, RUNS times. A page is compared with the floor loaded
        // seconds before it, not minutes (the load of a shared machine drifts between them).
        const samples = targets.map(() => [] as Sample[]);
        for (let run = 0; run < RUNS; run += 1) {
          for (const [i, target] of targets.entries()) {
            samples[i]!.push(await sample(browser, target, cache, throttle));
          }
        }
        const floorSamples = samples[0]!;
        for (const [i, target] of targets.entries()) {
          const own = samples[i]!;
          const cell: Sample = {
            lcp: median(own.map((s) => s.lcp)),
            cls: median(own.map((s) => s.cls)),
            tbt: median(own.map((s) => s.tbt)),
            visible: median(own.map((s) => s.visible)),
          };
          const visibleRatios = own.map((s, run) => s.visible / floorSamples[run]!.visible);
          cells.set(`${target.label}|${cache}|${throttle}`, {
            median: cell,
            ratio: {
              visible: median(visibleRatios),
              lcp: median(own.map((s, run) => s.lcp / floorSamples[run]!.lcp)),
            },
          });
          console.log(
            `  ${target.label}, ${cache}, ${throttle}x: first content ${cell.visible.toFixed(0)} ms, ` +
              `LCP ${cell.lcp.toFixed(0)} ms, CLS ${cell.cls.toFixed(3)} ` +
              `(each round: first ${own.map((s) => s.visible.toFixed(0)).join(' ')} ms, ` +
              `÷ floor ${visibleRatios.map((r) => r.toFixed(2)).join(' ')}; ` +
              `CLS ${own.map((s) => s.cls.toFixed(3)).join(' ')})`,
          );
        }
      }
    }

    const likes = new Map<number, LikeTime[]>();
    if (targets.includes(feed)) {
      for (const throttle of THROTTLES) {
        const times: LikeTime[] = [];
        for (let run = 0; run < RUNS; run += 1) {
          try {
            times.push(...(await likeSamples(browser, feed, throttle)));
          } catch (error) {
            // A click whose count never changed on screen: said, and the run goes on.
            console.log(
              `  like, ${throttle}x, run ${run + 1}: no change seen (${String(error).split('\n')[0]})`,
            );
          }
        }
        if (times.length === 0) continue;
        likes.set(throttle, times);
        console.log(
          `  like, ${throttle}x: ${times.map((t) => t.screen.toFixed(0)).join(' ')} ms on screen, ` +
            `${times.map((t) => t.dom.toFixed(0)).join(' ')} ms in the DOM (like, unlike per run)`,
        );
      }
    }

    const rows: string[][] = [];
    const misses: string[] = [];
    for (const throttle of THROTTLES) {
      for (const cache of CACHES) {
        for (const target of targets) {
          const {
            median: cell,
            ratio: { visible: ratio, lcp: lcpRatio },
          } = cells.get(`${target.label}|${cache}|${throttle}`)!;
          const firstMet = target.floor || ratio <= FIRST_CONTENT_RATIO;
          const clsMet = cell.cls <= CLS_MAX;
          if (!firstMet)
            misses.push(
              `${target.label} ${cache} ${throttle}x: first content ${ratio.toFixed(2)}x`,
            );
          if (!clsMet)
            misses.push(`${target.label} ${cache} ${throttle}x: CLS ${cell.cls.toFixed(3)}`);
          rows.push([
            target.label,
            cache,
            `${throttle}x`,
            cell.lcp.toFixed(0),
            cell.cls.toFixed(3),
            cell.tbt.toFixed(0),
            cell.visible.toFixed(0),
            `${ratio.toFixed(2)}x`,
            `${lcpRatio.toFixed(2)}x`,
            target.floor ? '' : yesNo(firstMet),
            yesNo(clsMet),
          ]);
        }
      }
    }
    console.log(
      `\nMedians of ${RUNS} rounds, ${VIEWPORT.width}x${VIEWPORT.height}, times in ms from navigation start` +
        ' (first content: the first post / notification / dashboard figure card / floor item painted);' +
        " '/ floor': the median of each round's ratio to the floor loaded in the same round\n",
    );
    console.log(
      table(
        [
          'page',
          'cache',
          'CPU',
          'LCP',
          'CLS',
          'TBT',
          'first content',
          'first / floor',
          'LCP / floor',
          `first <= ${FIRST_CONTENT_RATIO}x`,
          `CLS <= ${CLS_MAX}`,
        ],
        rows,
      ),
    );
    if (likes.size > 0) {
      const likeRows = [...likes].map(([throttle, times]) => {
        const value = median(times.map((t) => t.screen));
        if (value > LIKE_MAX_MS) misses.push(`like ${throttle}x: ${value.toFixed(0)} ms`);
        return [
          'feed, like click -> count changed',
          `${throttle}x`,
          String(times.length),
          median(times.map((t) => t.dom)).toFixed(0),
          value.toFixed(0),
          Math.max(...times.map((t) => t.screen)).toFixed(0),
          yesNo(value <= LIKE_MAX_MS),
        ];
      });
      console.log(
        "\nFrom a click on the first post's like button (the click event's timestamp) to its count's" +
          ' text changing (in the DOM) and to the next frame after that (on screen; the target);' +
          ' medians in ms, like and unlike, warm feed\n',
      );
      console.log(
        table(
          ['', 'CPU', 'clicks', 'in the DOM', 'on screen', 'max on screen', `<= ${LIKE_MAX_MS} ms`],
          likeRows,
        ),
      );
    }
    if (pictures && pictures.bytes > IMAGE_BYTES_MAX)
      misses.push(`feed images on a phone: ${fmt(pictures.bytes / 1024, 1)} KB`);
    for (const f of slow ?? []) {
      if (!f.met)
        misses.push(
          `Fast 3G, ${f.device}: first paint ${f.frameAfterHtml.toFixed(0)} ms after the HTML, ` +
            `the boot frame in ${f.framedRuns} of ${f.runs.length} first paints`,
        );
    }
    console.log(
      `\nTargets: first content <= ${FIRST_CONTENT_RATIO}x the floor's, cold and warm, 1x and 4x; ` +
        `CLS <= ${CLS_MAX} on every page; like click to count <= ${LIKE_MAX_MS} ms; ` +
        `a feed page's images <= ${IMAGE_BYTES_MAX / 1024} KB on a ${PHONE.width} px phone at 1x; ` +
        `on Fast 3G the boot frame painted <= ${FRAME_AFTER_HTML_MAX_MS} ms after the HTML.`,
    );
    console.log(
      misses.length === 0 ? 'All met.' : `Not met (${misses.length}):\n  ${misses.join('\n  ')}`,
    );
    writeSection('bench:web', webSection(targets, cells, likes, misses, pictures, slow), {
      skip: PAGES
        ? 'BENCH_WEB_PAGES measures some pages only'
        : process.env.BENCH_WEB_THROTTLES
          ? 'BENCH_WEB_THROTTLES measures some CPU rates only'
          : undefined,
    });
    console.log(
      `Load average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
    );
  } finally {
    await browser?.close();
    await Promise.all(servers.map((server) => server.close()));
    await stop?.();
    await copy.remove();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
