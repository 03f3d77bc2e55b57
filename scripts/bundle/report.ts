/**
 * `npm run bench:bundle`: how many gzip bytes of JavaScript and CSS the browser downloads on a
 * first visit (empty cache) to the signed-in feed, a profile, the notifications and the analytics
 * page, per app and in total; the Module Federation floor (scripts/bundle/floor.ts: a host and one
 * remote built with the same versions, shared singletons and client libraries: React, React DOM,
 * React Router, styled-components, SWR, the federation runtime) and each page's ratio to it (the
 * admin's dashboard to the floor plus the apexcharts it draws with); and the mf_admin bytes
 * a member who is not the administrator downloads, which must be 0 (the exit code says so).
 *
 * Measured with Chromium against the production builds served as deployed (each app on its own
 * port, the real API with the demo data): every script and stylesheet response is recorded and
 * gzipped at level 6, as nginx serves them in docker-compose. Builds the apps and the API when
 * their dist/ is missing.
 * `BENCH_BUNDLE_FILES=1` also lists every file each page (and the floor) downloads. The per-page
 * figures go into the bench:bundle section of BENCHMARKS.md (scripts/bench/report.ts;
 * BENCH_WRITE=0: not).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/support/browser';
import { startComposition } from '../../e2e/support/global-setup';
import { e2eEnvironment } from '../../e2e/support/environment';
import { table as markdownTable, writeSection } from '../bench/report';
import { APPS } from '../serve/serve-apps';
import { startStaticServer } from '../serve/static-server';
import { buildFloor } from './floor';

const repoRoot = path.resolve(__dirname, '..', '..');
const DEMO_PASSWORD = 'campus-demo';
const MEMBER_EMAIL = 'ada.okafor@campus.edu';
const OTHER_MEMBER_EMAIL = 'ben.larsen@campus.edu';
const ADMIN_EMAIL = 'admin@campus.edu';
const APP_NAMES = ['shell', 'mf_feed', 'mf_profile', 'mf_notifications', 'mf_admin'] as const;
type AppName = (typeof APP_NAMES)[number] | 'other';

interface Download {
  url: string;
  app: AppName;
  kind: 'js' | 'css';
  gzipBytes: number;
  /** The file carries apexcharts (the admin dashboard's charts library). */
  apexcharts: boolean;
}

/** Builds the apps whose dist/ is missing, and the API (it runs from api/dist, as deployed). */
function buildMissingApps(): Promise<void> {
  const missing = [
    ...APPS.map((app) => app.dir).filter((dir) => !existsSync(path.join(repoRoot, dir, 'dist'))),
    ...(existsSync(path.join(repoRoot, 'api', 'dist', 'main.js')) ? [] : ['api']),
  ];
  if (missing.length === 0) return Promise.resolve();
  console.log(`Building ${missing.join(', ')} for production...`);
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build', ...missing.flatMap((dir) => ['-w', dir])], {
      cwd: repoRoot,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'inherit',
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error('build failed'))));
  });
}

async function login(apiUrl: string, email: string) {
  const response = await fetch(`${apiUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!response.ok) throw new Error(`login ${email}: ${response.status} ${await response.text()}`);
  return (await response.json()) as {
    token: string;
    user: { id: number; name: string; email: string; avatarUrl: string | null };
  };
}

/** Opens `url` in a fresh context (empty cache) and records every script and stylesheet. */
async function measure(
  browser: Browser,
  url: string,
  appOf: (url: string) => AppName,
  storedAuth?: string,
  ready?: string,
): Promise<Download[]> {
  const context = await browser.newContext();
  if (storedAuth) {
    // The session the app keeps in localStorage (a string script: this workspace has no DOM types).
    await context.addInitScript(
      `window.localStorage.setItem('campus.auth', ${JSON.stringify(storedAuth)});`,
    );
  }
  const page = await context.newPage();
  const pending: Promise<Download | null>[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    const kind = type === 'script' ? 'js' : type === 'stylesheet' ? 'css' : null;
    if (!kind || response.status() !== 200) return;
    pending.push(
      response.body().then(
        (body) => ({
          url: response.url(),
          app: appOf(response.url()),
          kind,
          gzipBytes: gzipSync(body, { level: 6 }).length,
          apexcharts: body.includes('apexcharts'),
        }),
        () => null,
      ),
    );
  });
  await page.goto(url);
  if (ready) await page.waitForSelector(ready, { state: 'attached', timeout: 30_000 });
  // Not networkidle: a signed-in page keeps its live stream (/api/stream) open.
  await page.waitForLoadState('load');
  await page.waitForTimeout(2000);
  const downloads = (await Promise.all(pending)).filter((d): d is Download => d !== null);
  await context.close();
  return downloads;
}

function kb(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}

function sum(downloads: Download[], filter: (d: Download) => boolean = () => true): number {
  return downloads.filter(filter).reduce((total, d) => total + d.gzipBytes, 0);
}

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  await buildMissingApps();
  console.log('Building the Module Federation floor (a host and one remote, same libraries)...');
  const floor = await buildFloor();

  console.log('Starting the API and serving the production builds...');
  const stop = await startComposition();
  const browser = await chromium.launch(chromiumLaunchOptions());
  const servers: { close: () => Promise<void> }[] = [];
  let exitCode = 0;
  try {
    const env = e2eEnvironment();
    const origins = new Map<string, AppName>([[new URL(env.shellUrl).origin, 'shell']]);
    for (const [name, manifest] of Object.entries(env.remotes)) {
      origins.set(new URL(manifest).origin, name as AppName);
    }
    const appOf = (url: string) => origins.get(new URL(url).origin) ?? 'other';

    const member = await login(env.apiUrl, MEMBER_EMAIL);
    const other = await login(env.apiUrl, OTHER_MEMBER_EMAIL);
    const admin = await login(env.apiUrl, ADMIN_EMAIL);
    const stored = (session: { token: string; user: object }) => JSON.stringify(session);
    const pages: { label: string; path: string; auth: string; ready: string; member: boolean }[] = [
      { label: 'feed', path: '/', auth: stored(member), ready: 'main', member: true },
      {
        label: 'profile',
        path: `/profile/${other.user.id}`,
        auth: stored(member),
        ready: 'main h1',
        member: true,
      },
      {
        label: 'notifications',
        path: '/notifications',
        auth: stored(member),
        ready: 'main h1',
        member: true,
      },
      {
        label: 'analytics (admin)',
        path: '/analytics',
        auth: stored(admin),
        ready: 'main h1',
        member: false,
      },
      {
        label: '/analytics (member)',
        path: '/analytics',
        auth: stored(member),
        ready: 'main',
        member: true,
      },
    ];

    const results: { label: string; downloads: Download[]; member: boolean }[] = [];
    for (const entry of pages) {
      const downloads = await measure(
        browser,
        `${env.shellUrl}${entry.path}`,
        appOf,
        entry.auth,
        entry.ready,
      );
      results.push({ label: entry.label, downloads, member: entry.member });
    }

    let hostOrigin = '';
    const remote = await startStaticServer({
      root: floor.remoteDist,
      corsOrigins: () => [hostOrigin],
    });
    servers.push(remote);
    const host = await startStaticServer({
      root: floor.hostDist,
      overrides: { '/env.json': JSON.stringify({ remote: `${remote.url}/mf-manifest.json` }) },
    });
    servers.push(host);
    hostOrigin = host.url;
    const floorDownloads = await measure(
      browser,
      host.url,
      () => 'other',
      undefined,
      'body[data-floor="ready"]',
    );
    const floorBytes = sum(floorDownloads);

    const columns = APP_NAMES.filter((app) =>
      results.some((r) => sum(r.downloads, (d) => d.app === app) > 0),
    );
    const rows = results.map(({ label, downloads }) => [
      label,
      ...columns.map((app) => kb(sum(downloads, (d) => d.app === app))),
      kb(sum(downloads, (d) => d.kind === 'css')),
      kb(sum(downloads)),
      String(downloads.length),
    ]);
    rows.push([
      'MF floor (host + remote, same libraries)',
      ...columns.map(() => ''),
      kb(sum(floorDownloads, (d) => d.kind === 'css')),
      kb(floorBytes),
      String(floorDownloads.length),
    ]);
    console.log('\nJS + CSS downloaded on a first visit, KiB gzip (level 6)\n');
    console.log(table(['page', ...columns, 'of it CSS', 'total', 'files'], rows));

    const feed = results.find((r) => r.label === 'feed')!;
    const largest = [...feed.downloads].sort((a, b) => b.gzipBytes - a.gzipBytes).slice(0, 8);
    console.log('\nLargest files of the feed page, KiB gzip\n');
    console.log(
      table(
        ['file', 'app', 'KiB'],
        largest.map((d) => [new URL(d.url).pathname, d.app, kb(d.gzipBytes)]),
      ),
    );
    if (process.env.BENCH_BUNDLE_FILES) {
      // Every file of every page (and the floor's), to find what a page carries above the floor.
      for (const { label, downloads } of [
        ...results,
        { label: 'MF floor', downloads: floorDownloads },
      ]) {
        console.log(`\nEvery file of ${label}, KiB gzip\n`);
        console.log(
          table(
            ['file', 'app', 'KiB'],
            [...downloads]
              .sort((a, b) => b.gzipBytes - a.gzipBytes)
              .map((d) => [new URL(d.url).pathname, d.app, kb(d.gzipBytes)]),
          ),
        );
      }
    }
    console.log('\nRatio to the floor (target <= 1.10; the admin: floor + apexcharts)\n');
    const ratioRows = results
      .filter((r) => r.label !== '/analytics (member)')
      .map(({ label, downloads }) => {
        const apex = label.startsWith('analytics') ? sum(downloads, (d) => d.apexcharts) : 0;
        const ratio = sum(downloads) / (floorBytes + apex);
        return [label, kb(sum(downloads)), kb(floorBytes + apex), `${ratio.toFixed(2)}x`];
      });
    console.log(table(['page', 'KiB', 'floor KiB', 'ratio'], ratioRows));
    const adminBytes = sum(
      results.filter((r) => r.member).flatMap((r) => r.downloads),
      (d) => d.app === 'mf_admin',
    );
    console.log(
      `mf_admin bytes a member downloads (feed, profile, notifications, /analytics): ${adminBytes}`,
    );
    if (adminBytes > 0) {
      console.error('FAIL: a member downloaded mf_admin files');
      exitCode = 1;
    }
    const ratios = new Map(ratioRows.map((r) => [r[0]!, [r[2]!, r[3]!]]));
    writeSection(
      'bench:bundle',
      [
        "KiB of JS and CSS gzip (level 6) a first visit downloads (signed in, empty cache), per app, against the production builds served as deployed. The floor: a host and one remote built by the same `rspack.shared.js` with the same libraries; the admin's dashboard is compared with the floor plus the apexcharts it draws with. Target: ratio ≤ 1.10.",
        '',
        markdownTable(
          ['page', ...columns, 'of it CSS', 'total', 'files', 'floor', 'ratio'],
          rows.map((row) => [...row, ...(ratios.get(row[0]!) ?? ['', ''])]),
        ),
        '',
        `mf_admin bytes a member downloads (feed, profile, notifications, /analytics): ${adminBytes}.`,
      ].join('\n'),
    );
  } finally {
    await browser.close();
    await Promise.all(servers.map((server) => server.close()));
    await stop();
  }
  process.exit(exitCode);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
