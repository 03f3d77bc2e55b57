/**
 * `npx tsx scripts/bench/feed-trace.ts`: where the signed-in feed's main thread goes while it
 * loads, from a Chrome trace (CDP Tracing through Playwright, the browser and flags of bench:web).
 * Serves the production builds as bench:web does (BENCH_WEB_DIST=<dir>: a copy of them, see
 * web.ts), opens the feed once per run (TRACE_RUNS, 3; TRACE_CACHE=cold|warm; TRACE_CPU=1) and
 * prints, per run, the long tasks of the renderer's main thread (≥ 50 ms) with what they spent
 * their time on (style, layout and how many forced layouts, script, image decoding, ...), and the
 * JavaScript lines that forced a layout. TRACE_OUT=<file>: keep the last run's trace (open it in
 * DevTools' Performance panel). Prints figures; never a test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/support/browser';
import { startComposition } from '../../e2e/support/global-setup';
import { e2eEnvironment } from '../../e2e/support/environment';

const RUNS = Number(process.env.TRACE_RUNS ?? 3);
const CACHE = process.env.TRACE_CACHE ?? 'cold';
const CPU = Number(process.env.TRACE_CPU ?? 1);
const VIEWPORT = { width: 1280, height: 900 };

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- trace arguments, read loosely
  args?: Record<string, any>;
}

type Observed = { __bench: { visible: number; tbt: number; cls: number; long: string[] } };

async function signIn(apiUrl: string, email: string) {
  const response = await fetch(`${apiUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'campus-demo' }),
  });
  if (!response.ok) throw new Error(`login: ${response.status}`);
  const { user } = (await response.json()) as { user: Record<string, unknown> };
  const domain = new URL(apiUrl).hostname;
  const cookies = response.headers.getSetCookie().map((line) => {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const eq = pair!.indexOf('=');
    const p = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
    return { name: pair!.slice(0, eq), value: pair!.slice(eq + 1), domain, path: p };
  });
  return { user, cookies };
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.stack',
  'blink.user_timing',
  'v8.execute',
  'loading',
  'toplevel',
].join(',');

async function traceOnce(context: BrowserContext, url: string): Promise<TraceEvent[]> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) =>
    events.push(...(value as unknown as TraceEvent[])),
  );
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  await page.goto(url);
  await page.locator('main article').first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(3000);
  await cdp.send('Tracing.end');
  await done;
  await cdp.detach();
  await page.close();
  return events;
}

function analyse(events: TraceEvent[]) {
  const threadNames = new Map<string, string>();
  for (const e of events)
    if (e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name);
  // The feed's renderer: the main thread that ran the page's scripts.
  const counts = new Map<string, number>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (threadNames.get(key) === 'CrRendererMain' && e.name === 'FunctionCall')
      counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  const own = events
    .filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const navStart =
    events.find((e) => e.name === 'navigationStart' && `${e.pid}:${e.tid}` === main)?.ts ??
    own[0]!.ts;
  // Top-level tasks only (a RunTask may hold a ThreadControllerImpl::RunTask).
  const allTasks = own.filter(
    (e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask',
  );
  let taskEnd = 0;
  const topTasks = allTasks.filter((e) => {
    if (e.ts < taskEnd) return false;
    taskEnd = e.ts + e.dur!;
    return true;
  });
  const tasks = topTasks.filter((e) => e.dur! >= 50_000);
  const reports: string[] = [];
  const forcedStacks = new Map<string, { count: number; ms: number }>();
  for (const task of tasks) {
    const end = task.ts + task.dur!;
    const inside = own.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= end);
    // Self time by name: each event's duration less its children's.
    const self = new Map<string, number>();
    const stack: TraceEvent[] = [];
    const childTime = new Map<TraceEvent, number>();
    for (const e of inside) {
      while (stack.length && stack.at(-1)!.ts + stack.at(-1)!.dur! <= e.ts) stack.pop();
      const parent = stack.at(-1);
      if (parent) childTime.set(parent, (childTime.get(parent) ?? 0) + e.dur!);
      stack.push(e);
    }
    for (const e of inside) {
      const ms = (e.dur! - (childTime.get(e) ?? 0)) / 1000;
      self.set(e.name, (self.get(e.name) ?? 0) + ms);
    }
    const layouts = inside.filter((e) => e.name === 'Layout');
    const styles = inside.filter((e) => e.name === 'UpdateLayoutTree');
    for (const e of [...layouts, ...styles]) {
      const frames = (e.args?.beginData?.stackTrace ?? e.args?.data?.stackTrace) as
        | { functionName: string; url: string; lineNumber: number; columnNumber: number }[]
        | undefined;
      if (!frames?.length) continue;
      const top = frames
        .slice(0, 3)
        .map(
          (f) =>
            `${f.functionName || '(anon)'}@${f.url.split('/').pop()}:${f.lineNumber}:${f.columnNumber}`,
        )
        .join(' < ');
      const key = `${e.name} ${top}`;
      const entry = forcedStacks.get(key) ?? { count: 0, ms: 0 };
      entry.count += 1;
      entry.ms += e.dur! / 1000;
      forcedStacks.set(key, entry);
    }
    const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 12);
    const layoutMs = layouts.reduce((sum, e) => sum + e.dur!, 0) / 1000;
    const styleMs = styles.reduce((sum, e) => sum + e.dur!, 0) / 1000;
    const elements = styles.map((e) => e.args?.elementCount ?? e.args?.data?.elementCount ?? 0);
    reports.push(
      `  task at ${((task.ts - navStart) / 1000).toFixed(0)} ms, ${(task.dur! / 1000).toFixed(0)} ms: ` +
        `${layouts.length} layouts ${layoutMs.toFixed(0)} ms (largest ${Math.max(0, ...layouts.map((e) => e.dur! / 1000)).toFixed(0)}), ` +
        `${styles.length} style recalcs ${styleMs.toFixed(0)} ms (elements ${elements.slice(0, 8).join(',')}${elements.length > 8 ? ',…' : ''})\n` +
        top.map(([name, ms]) => `      ${ms.toFixed(1).padStart(7)} ms  ${name}`).join('\n'),
    );
  }
  const visible = events.find(
    (e) => e.name === 'firstContentfulPaint' && `${e.pid}:${e.tid}` === main,
  );
  return {
    reports,
    forcedStacks,
    fcp: visible ? (visible.ts - navStart) / 1000 : NaN,
    totalLong: tasks.reduce((sum, t) => sum + t.dur! / 1000, 0),
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

/** TRACE_PROFILE=1: a CPU profile of the load instead: self and total ms by function. */
async function profileOnce(context: BrowserContext, url: string) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await page.goto(url);
  await page.locator('main article').first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(3000);
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  await cdp.detach();
  await page.close();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(id)!;
    self.set(key(node), (self.get(key(node)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = key(byId.get(at)!);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + ms);
    }
  });
  const show = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => `      ${ms.toFixed(1).padStart(7)} ms  ${k}`)
      .join('\n');
  console.log(`    self:\n${show(self, 30)}\n    total:\n${show(total, 40)}`);
}

// The bench:web observer (web.ts): first post painted, long tasks beyond 50 ms, layout shifts.
const OBSERVER = `(() => {
  const m = (window.__bench = { cls: 0, tbt: 0, visible: 0, long: [] });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) m.cls += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) { m.tbt += Math.max(0, e.duration - 50); m.long.push(Math.round(e.startTime) + '+' + Math.round(e.duration)); }
  }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    if (m.visible || !document.querySelector('main article')) return false;
    requestAnimationFrame(() => setTimeout(() => { m.visible = m.visible || performance.now(); }, 0));
    return true;
  };
  const watch = new MutationObserver(() => { if (check()) watch.disconnect(); });
  document.addEventListener('DOMContentLoaded', () => {
    if (!check()) watch.observe(document.body, { childList: true, subtree: true });
  });
})();`;

/** Drops every `images` field of a JSON answer (the posts as they were before issue 39). */
function stripImages(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripImages);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'images')
        .map(([key, v]) => [key, stripImages(v)]),
    );
  return value;
}

/**
 * CPU ms (user + system, /proc) of this process's descendants, by kind: the API (api/dist/main.js)
 * and the browser (every Chromium process).
 */
function descendantsCpu(): { api: number; browser: number; kinds: Record<string, number> } {
  const tick = 1000 / 100; // USER_HZ
  const procs = new Map<number, { ppid: number; cpu: number; cmd: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      procs.set(Number(name), {
        ppid: Number(fields[1]),
        cpu: (Number(fields[11]) + Number(fields[12])) * tick,
        cmd,
      });
    } catch {
      // gone
    }
  }
  const mine = (pid: number) => {
    for (let at = procs.get(pid); at; at = procs.get(at.ppid))
      if (at.ppid === process.pid) return true;
    return false;
  };
  let api = 0;
  let browser = 0;
  const kinds: Record<string, number> = {};
  for (const [pid, p] of procs) {
    if (!mine(pid)) continue;
    if (p.cmd.includes('main.js')) api += p.cpu;
    else if (p.cmd.includes('chrom')) {
      browser += p.cpu;
      const kind = /--type=([a-z-]+)/.exec(p.cmd)?.[1] ?? 'browser';
      const sub = /--utility-sub-type=([a-zA-Z.]+)/.exec(p.cmd)?.[1];
      const key = sub ? `${kind}:${sub.split('.').pop()}` : kind;
      kinds[key] = (kinds[key] ?? 0) + p.cpu;
    }
  }
  return { api, browser, kinds };
}

interface Measured {
  visible: number;
  tbt: number;
  long: string[];
  /** Thread CPU of the renderer's main thread from navigation to the first post visible. */
  cpuToVisible: number;
  /** Thread CPU of the main thread during the whole trace. */
  taskCpu: number;
  /** Thread CPU of every thread of the renderer during the trace. */
  rendererCpu: number;
  /** CPU of the API process and of all the browser's processes during the load (/proc). */
  apiCpu: number;
  browserCpu: number;
  kinds: Record<string, number>;
}

/**
 * Thread CPU (the trace's thread clock, `tdur`: the time the thread ran, not waited for a core,
 * so it moves little with the machine's load) of the renderer's top-level tasks.
 */
function threadCpu(events: TraceEvent[], visible: number) {
  const threadNames = new Map<string, string>();
  for (const e of events)
    if (e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name);
  const counts = new Map<string, number>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (threadNames.get(key) === 'CrRendererMain' && e.name === 'FunctionCall')
      counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
  const pid = main.split(':')[0];
  const navStart =
    events.find((e) => e.name === 'navigationStart' && `${e.pid}:${e.tid}` === main)?.ts ?? 0;
  const tops = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (String(e.pid) !== pid || e.ph !== 'X' || e.tdur === undefined) continue;
    if (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask') continue;
    const key = `${e.pid}:${e.tid}`;
    tops.set(key, [...(tops.get(key) ?? []), e]);
  }
  const topLevel = (list: TraceEvent[]) => {
    let end = 0;
    return list
      .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!)
      .filter((e) => {
        if (e.ts < end) return false;
        end = e.ts + e.dur!;
        return true;
      });
  };
  const mainTasks = topLevel(tops.get(main) ?? []);
  const until = navStart + visible * 1000;
  const cpuToVisible =
    mainTasks.filter((e) => e.ts >= navStart && e.ts < until).reduce((s, e) => s + e.tdur!, 0) /
    1000;
  const taskCpu = mainTasks.reduce((s, e) => s + e.tdur!, 0) / 1000;
  let rendererCpu = 0;
  for (const list of tops.values())
    rendererCpu += topLevel(list).reduce((s, e) => s + e.tdur!, 0) / 1000;
  return { cpuToVisible, taskCpu, rendererCpu };
}

/** Every image's ThumbHash emptied (no placeholder is drawn). */
function noPlaceholders(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(noPlaceholders);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [
        key,
        key === 'placeholder' ? '' : noPlaceholders(v),
      ]),
    );
  return value;
}

/**
 * TRACE_AB=normal,strip,block: the feed loaded as it is, with the posts' images taken out of the
 * API's answers (strip), and with the images in the posts but their bytes never answered
 * (block: the requests to /media/ hang), in interleaved rounds: first post visible and TBT.
 */
async function ab(browser: Browser, shellUrl: string, apiUrl: string) {
  const variants = process.env.TRACE_AB!.split(',');
  const results = new Map(variants.map((v) => [v, [] as Measured[]]));
  for (let run = 0; run < RUNS; run += 1) {
    for (const variant of variants) {
      const { user, cookies } = await signIn(apiUrl, 'ada.okafor@campus.edu');
      const context = await browser.newContext({ viewport: VIEWPORT });
      await context.addCookies(cookies);
      await context.addInitScript(
        `window.localStorage.setItem('campus.auth', ${JSON.stringify(JSON.stringify({ user }))});`,
      );
      await context.addInitScript(OBSERVER);
      // Every variant goes through the same interception, so each pays the same for it.
      await context.route(/\/api\/posts/, async (route) => {
        const response = await route.fetch();
        const type = response.headers()['content-type'] ?? '';
        if ((variant !== 'strip' && variant !== 'noph') || !type.includes('json'))
          return route.fulfill({ response });
        const body =
          variant === 'strip'
            ? stripImages(await response.json())
            : noPlaceholders(await response.json());
        return route.fulfill({ response, body: JSON.stringify(body) });
      });
      if (variant === 'block') await context.route(/\/media\//, () => undefined);
      const load = async () => {
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
        const events: TraceEvent[] = [];
        cdp.on('Tracing.dataCollected', ({ value }) =>
          events.push(...(value as unknown as TraceEvent[])),
        );
        const traced = new Promise<void>((resolve) =>
          cdp.once('Tracing.tracingComplete', () => resolve()),
        );
        if (!process.env.TRACE_NOTRACE)
          await cdp.send('Tracing.start', {
            categories:
              'devtools.timeline,toplevel,blink.user_timing,disabled-by-default-devtools.timeline',
            transferMode: 'ReportEvents',
          });
        const before = descendantsCpu();
        await page.goto(shellUrl, { waitUntil: 'commit' });
        await page.waitForFunction(
          () => (globalThis as unknown as Observed).__bench.visible > 0,
          undefined,
          {
            timeout: 60_000,
            polling: 50,
          },
        );
        await page.waitForTimeout(1000);
        const m = await page.evaluate(() => ({ ...(globalThis as unknown as Observed).__bench }));
        const after = descendantsCpu();
        if (!process.env.TRACE_NOTRACE) {
          await cdp.send('Tracing.end');
          await traced;
        }
        await page.close();
        return {
          ...m,
          ...threadCpu(events, m.visible),
          apiCpu: after.api - before.api,
          kinds: Object.fromEntries(
            Object.entries(after.kinds).map(([k, v]) => [k, v - (before.kinds[k] ?? 0)]),
          ),
          browserCpu: after.browser - before.browser,
        } as Measured;
      };
      if (CACHE === 'warm') await load();
      const m = await load();
      results.get(variant)!.push(m);
      console.log(
        `  round ${run + 1} ${variant}: visible ${m.visible.toFixed(0)} ms, TBT ${m.tbt.toFixed(0)} ms, main CPU to visible ${m.cpuToVisible.toFixed(0)} ms, main CPU ${m.taskCpu.toFixed(0)} ms, renderer CPU ${m.rendererCpu.toFixed(0)} ms, API process ${m.apiCpu.toFixed(0)} ms, browser processes ${m.browserCpu.toFixed(0)} ms ${JSON.stringify(m.kinds)}`,
      );
      await context.close();
    }
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const longest = (m: { long: string[] }) =>
    Math.max(0, ...m.long.map((l) => Number(l.split('+')[1])));
  for (const [variant, ms] of results)
    console.log(
      `${variant}: visible median ${med(ms.map((m) => m.visible)).toFixed(0)} ms, TBT median ${med(ms.map((m) => m.tbt)).toFixed(0)} ms, longest task median ${med(ms.map(longest)).toFixed(0)} ms; thread CPU medians: main to visible ${med(ms.map((m) => m.cpuToVisible)).toFixed(0)} ms, main thread ${med(ms.map((m) => m.taskCpu)).toFixed(0)} ms, all renderer threads ${med(ms.map((m) => m.rendererCpu)).toFixed(0)} ms; process CPU medians: API ${med(ms.map((m) => m.apiCpu)).toFixed(0)} ms, browser ${med(ms.map((m) => m.browserCpu)).toFixed(0)} ms`,
    );
}

async function main() {
  const stop = await startComposition({ distDir: process.env.BENCH_WEB_DIST });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const env = e2eEnvironment();
    let last: TraceEvent[] = [];
    if (process.env.TRACE_AB) {
      await ab(browser, `${env.shellUrl}/`, env.apiUrl);
      return;
    }
    for (let run = 0; run < RUNS; run += 1) {
      const { user, cookies } = await signIn(env.apiUrl, 'ada.okafor@campus.edu');
      const context = await browser.newContext({ viewport: VIEWPORT });
      await context.addCookies(cookies);
      await context.addInitScript(
        `window.localStorage.setItem('campus.auth', ${JSON.stringify(JSON.stringify({ user }))});`,
      );
      if (CACHE === 'warm') {
        const warm = await context.newPage();
        await warm.goto(`${env.shellUrl}/`);
        await warm.locator('main article').first().waitFor({ timeout: 60_000 });
        await warm.waitForTimeout(1500);
        await warm.close();
      }
      if (process.env.TRACE_VARIANT === 'strip')
        await context.route(/\/api\/posts/, async (route) => {
          const response = await route.fetch();
          const type = response.headers()['content-type'] ?? '';
          if (!type.includes('json')) return route.fulfill({ response });
          return route.fulfill({
            response,
            body: JSON.stringify(stripImages(await response.json())),
          });
        });
      if (process.env.TRACE_PROFILE) {
        console.log(`run ${run + 1} (${CACHE}, ${CPU}x), CPU profile:`);
        await profileOnce(context, `${env.shellUrl}/`);
        await context.close();
        continue;
      }
      last = await traceOnce(context, `${env.shellUrl}/`);
      await context.close();
      const { reports, forcedStacks, fcp, totalLong } = analyse(last);
      console.log(
        `run ${run + 1} (${CACHE}, ${CPU}x): FCP ${fcp.toFixed(0)} ms, long tasks ${totalLong.toFixed(0)} ms`,
      );
      console.log(reports.join('\n'));
      const forced = [...forcedStacks].sort((a, b) => b[1].ms - a[1].ms).slice(0, 10);
      if (forced.length) {
        console.log('    style/layout with a JS stack (forced), by stack:');
        for (const [key, { count, ms }] of forced)
          console.log(`      ${ms.toFixed(1).padStart(7)} ms ×${count}  ${key}`);
      }
    }
    if (process.env.TRACE_OUT) await writeFile(process.env.TRACE_OUT, JSON.stringify(last));
  } finally {
    await browser.close();
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
