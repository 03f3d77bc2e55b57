/**
 * `npm run bench:web`: how fast the production build shows its pages in Chromium (Playwright, the
 * browser and launch flags of the e2e config), against the real API with the demo data, served as
 * deployed (e2e/support/serve-apps.ts: each app on its own port, compressed, cached).
 *
 * For the signed-in feed, a profile, the notifications and the admin's dashboard, and for the
 * Module Federation floor (scripts/bundle/floor.ts: the same host + remote stack and libraries,
 * rendering 20 static post-sized items): LCP, CLS, total blocking time and the time until the
 * first content is visible (the feed's first post, a profile's first post, the first
 * notification, the dashboard's heading, the floor's first item); cold cache (a fresh browser
 * context) and warm cache (the same context, loaded once before); without and with 4x CPU
 * throttling (CDP Emulation.setCPUThrottlingRate). Each cell is the median of BENCH_WEB_RUNS runs
 * (5). Absolute times on a shared machine move with its load, so each page's time is also printed
 * as a ratio to the floor's in the same run, cache and throttle. Needs built apps (npm run build);
 * builds the floor. Prints figures; never a test.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import globalSetup from '../../e2e/support/global-setup';
import { e2eEnvironment } from '../../e2e/support/environment';
import { startStaticServer } from '../../e2e/support/static-server';
import { buildFloor } from '../bundle/floor';

const DEMO_PASSWORD = 'campus-demo';
const MEMBER_EMAIL = 'ada.okafor@campus.edu';
const OTHER_MEMBER_EMAIL = 'ben.larsen@campus.edu';
const ADMIN_EMAIL = 'admin@campus.edu';
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5);
const THROTTLES = [1, 4];
const VIEWPORT = { width: 1280, height: 900 };

interface Sample {
  lcp: number;
  cls: number;
  tbt: number;
  visible: number;
}

type Bench = { __bench: Sample };

interface Target {
  label: string;
  url: string;
  /** The first content that counts as shown (the feed's first post, ...). */
  ready: string;
  auth?: string;
}

function browserExecutable(): string | undefined {
  try {
    if (existsSync(chromium.executablePath())) return undefined;
  } catch {
    // no Playwright browser registered
  }
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
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

async function newContext(browser: Browser, target: Target): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  if (target.auth) {
    await context.addInitScript(
      `window.localStorage.setItem('campus.auth', ${JSON.stringify(target.auth)});`,
    );
  }
  await context.addInitScript(observerScript(target.ready));
  return context;
}

async function load(context: BrowserContext, target: Target, throttle: number): Promise<Sample> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  try {
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
    return await page.evaluate(() => ({ ...(globalThis as unknown as Bench).__bench }));
  } finally {
    await cdp.detach().catch(() => undefined);
    await page.close();
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

async function login(apiUrl: string, email: string) {
  const response = await fetch(`${apiUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!response.ok) throw new Error(`login ${email}: ${response.status} ${await response.text()}`);
  const { token, user } = (await response.json()) as {
    token: string;
    user: { id: number; name: string; email: string; avatarUrl: string | null };
  };
  return { id: user.id, auth: JSON.stringify({ token, user }) };
}

async function main(): Promise<void> {
  console.log('Building the Module Federation floor (host + remote, 20 static items)...');
  const floor = await buildFloor();
  console.log('Starting the API and serving the production builds...');
  const stop = await globalSetup();
  const browser = await chromium.launch({
    executablePath: browserExecutable(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const servers: { close: () => Promise<void> }[] = [];
  try {
    const env = e2eEnvironment();
    let hostOrigin = '';
    const remote = await startStaticServer({
      root: floor.remoteDist,
      corsOrigins: () => [hostOrigin],
    });
    servers.push(remote);
    const host = await startStaticServer({
      root: floor.hostDist,
      historyFallback: true,
      overrides: { '/env.json': JSON.stringify({ remote: `${remote.url}/mf-manifest.json` }) },
    });
    servers.push(host);
    hostOrigin = host.url;

    const member = await login(env.apiUrl, MEMBER_EMAIL);
    const other = await login(env.apiUrl, OTHER_MEMBER_EMAIL);
    const admin = await login(env.apiUrl, ADMIN_EMAIL);
    const targets: Target[] = [
      { label: 'floor (20 items)', url: `${host.url}/`, ready: 'article' },
      { label: 'feed', url: `${env.shellUrl}/`, ready: 'main article', auth: member.auth },
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
        ready: 'main h1',
        auth: admin.auth,
      },
    ];

    const medians = new Map<string, Sample>();
    for (const throttle of THROTTLES) {
      for (const cache of ['cold', 'warm'] as const) {
        for (const target of targets) {
          const samples: Sample[] = [];
          for (let run = 0; run < RUNS; run += 1) {
            samples.push(await sample(browser, target, cache, throttle));
          }
          const cell: Sample = {
            lcp: median(samples.map((s) => s.lcp)),
            cls: median(samples.map((s) => s.cls)),
            tbt: median(samples.map((s) => s.tbt)),
            visible: median(samples.map((s) => s.visible)),
          };
          medians.set(`${target.label}|${cache}|${throttle}`, cell);
          console.log(
            `  ${target.label}, ${cache}, ${throttle}x: first content ${cell.visible.toFixed(0)} ms, LCP ${cell.lcp.toFixed(0)} ms`,
          );
        }
      }
    }

    const rows: string[][] = [];
    for (const throttle of THROTTLES) {
      for (const cache of ['cold', 'warm'] as const) {
        const floorCell = medians.get(`${targets[0]!.label}|${cache}|${throttle}`)!;
        for (const target of targets) {
          const cell = medians.get(`${target.label}|${cache}|${throttle}`)!;
          rows.push([
            target.label,
            cache,
            `${throttle}x`,
            cell.lcp.toFixed(0),
            cell.cls.toFixed(3),
            cell.tbt.toFixed(0),
            cell.visible.toFixed(0),
            `${(cell.visible / floorCell.visible).toFixed(2)}x`,
            `${(cell.lcp / floorCell.lcp).toFixed(2)}x`,
          ]);
        }
      }
    }
    console.log(
      `\nMedians of ${RUNS} runs, ${VIEWPORT.width}x${VIEWPORT.height}, times in ms from navigation start` +
        ' (first content: the first post / notification / heading / floor item painted)\n',
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
        ],
        rows,
      ),
    );
    console.log('\nTargets: first post visible <= 1.3x the floor; CLS <= 0.05 on every page.');
  } finally {
    await browser.close();
    await Promise.all(servers.map((server) => server.close()));
    await stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
