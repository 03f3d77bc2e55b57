/**
 * `npm run bench:api`: autocannon against a bare Koa hello-world (the ceiling), then against the
 * API (its own process, on the bench dataset, rate limits off, signed in) for each feed tab and
 * Top Posts (first and tenth page), a post with its comments, the mention autocomplete (issue 40,
 * `BENCH_ONLY='mention autocomplete'`), the notifications and the four
 * analytics endpoints (as the admin), post search and a tag's page (issue 40; see
 * discoveryEndpoints), then each tab's first page for a member with 500 blocks and
 * mutes and 50 muted words beside a member with none who follows the same people (issue 38,
 * safety-member.ts; `BENCH_ONLY=safety` runs these alone). Prints req/s, p50/p99 latency, the CPU per request of the
 * API process and of the database process and its ratio to the hello-world's (each row
 * BENCH_REPEATS times, interleaved with the hello-world, medians), the latency of a single request
 * on an idle server, and the database round trips per request.
 *
 * BENCH_DURATION (seconds per row, default 10), BENCH_HELLO_DURATION (seconds of hello-world
 * before each repetition, default half of it), BENCH_REPEATS (default 3), BENCH_CONNECTIONS
 * (default 50), BENCH_ONLY (substrings of endpoint names to run, separated by `|`, e.g.
 * `GET /api/posts|notifications`; one that starts with `=` is a whole name), BENCH_READ_CACHE_MS
 * (the API's READ_CACHE_MS: `0` measures the feed without its read caches, every page read from
 * the database; printed in the report), BENCH_WARMUP (seconds of unmeasured load on the 404 and
 * on each row first, default 1), BENCH_WRITE=0 (print only; BENCHMARKS.md is left alone, as it is
 * for a run of some rows only or of another checkout's code: see report.ts). Feed
 * rows also measure the 404 for BENCH_HELLO_DURATION seconds just before each repetition: the
 * cached-page target compares each feed row with that 404. BENCH_API_ROOT (a worktree of another
 * commit, after its `npm ci`) runs that commit's API process instead; the round trips and the
 * rows' paths still come from this checkout. BENCH_DB_ROOT (another commit's worktree) runs that
 * commit's embedded database server instead (see processes.ts). `--scale N` (or BENCH_SCALE)
 * serves the dataset `bench:data --scale N` made (issue 42); BENCH_JSON=<file> also writes the
 * rows' figures there as JSON (what `bench:scale` reads).
 */
import http from 'node:http';
import { trusted } from 'mongoose';
import { createApp } from '../../api/src/app';
import { loadConfig } from '../../api/src/platform/config';
import type { Models } from '../../api/src/models';
import type { Database } from '../../api/src/platform/db';
import { createLogger } from '../../api/src/platform/logger';
import { mailTransportFor } from '../../api/src/platform/mailer';
import { BENCH_DIR, openBenchDatabase } from './database';
import { cpuMeter, perRequestUs } from './cpu';
import { CONNECTIONS, countRoundTrips, median, runLoad, signToken, type LoadResult } from './load';
import { BENCH_JWT_SECRET, LOOPBACK, READ_CACHE_MS, startApi, startKoaCeiling } from './processes';
import { fmt, table, writeJsonFigures, writeSection } from './report';
import {
  createSafetyMembers,
  SAFETY_BLOCKS,
  SAFETY_MUTES,
  SAFETY_WORDS,
  type SafetyMembers,
} from './safety-member';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const HELLO_DURATION = Number(process.env.BENCH_HELLO_DURATION ?? Math.max(2, DURATION / 2));
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const ONLY = process.env.BENCH_ONLY;
const ADMIN_USER_ID = Number(process.env.ADMIN_USER_ID ?? 107);
const PAGE = 20;
const TENTH_PAGE = 9 * PAGE;
/** Seconds of load on the 404 and on each row before anything is measured (BENCH_WARMUP). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const FLOOR_PATH = '/api/no-such-route';

/** A feed page row (`GET /api/posts`, a tab): compared with the 404 measured beside it. */
function isFeedRow(name: string): boolean {
  return name.startsWith('GET /api/posts ') && !name.includes(':id');
}

interface CpuPerRequest {
  /** Microseconds of the API process's CPU per request. */
  apiUs: number;
  /** Microseconds of the database process's CPU per request. */
  dbUs: number;
}

interface Row extends CpuPerRequest {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  statusCodes: Array<Record<string, number>>;
  helloUs: number;
  helloRequestsPerSecond: number;
  /** API CPU per request ÷ the hello-world's. */
  apiRatio: number;
  /** API + database CPU per request ÷ the hello-world's. */
  totalRatio: number;
  /**
   * Feed rows: API CPU per request ÷ the 404's, measured just before the row in the same
   * repetition (the median of the repetitions' ratios).
   */
  floorRatio?: number;
  floorUs?: number;
  /**
   * False when a repetition of the row, or of the hello-world or 404 before it, answered no request
   * (a machine too loaded to answer within the row's seconds): its CPU per request and ratios
   * are then no figures, and no target is judged on them.
   */
  measured: boolean;
}

interface Endpoint {
  name: string;
  /** One path, or several that each connection cycles through. */
  paths: string[];
  /**
   * A latency target for one caller (issue 40): the row is also measured with one caller
   * sending its requests one after another for BENCH_DURATION seconds, p50 and p99 printed.
   */
  oneCaller?: { p50?: number; p99: number; target: string };
}

/**
 * What members type after '@' (issue 40): the first 1 to 4 letters of 25 members' names, and a
 * name with the first letter of its second word, as the autocomplete asks while they type.
 */
async function mentionQueries(database: Database<Models>): Promise<string[]> {
  const users = await database.models.User.find({ isVerified: true }, { name: 1 })
    .sort({ _id: 1 })
    .limit(500)
    .lean();
  const queries: string[] = [];
  for (const { name } of users.filter((_, i) => i % 20 === 0)) {
    for (let n = 1; n <= 4; n++) queries.push(name.slice(0, n));
    const [first, second] = name.split(' ');
    if (second) queries.push(`${first} ${second[0]}`);
  }
  return queries;
}

/** Posts with 20+ visible top-level comments and replies (issue 21), and each one's page-2 cursor. */
interface CommentedPosts {
  ids: number[];
  secondPageCursors: Array<{ id: number; cursor: string }>;
}

/**
 * Issue 40's rows: post search over the dataset's words (a common word, a middling one, two
 * words, a phrase; each connection cycles through them), and the most used tag's page (page 1,
 * and page 2 by its cursor) to set beside the Following page.
 */
function discoveryEndpoints(tag: { name: string; secondPage: string | null } | null): Endpoint[] {
  const searches = ['library', 'hackathon designer', 'thesis', '"machine learning"', 'career fair'];
  return [
    {
      name: 'GET /api/search/posts (post search)',
      paths: searches.map((q) => `/api/search/posts?q=${encodeURIComponent(q)}`),
      oneCaller: { p50: 20, p99: 100, target: 'post search p50 ≤ 20 ms and p99 ≤ 100 ms' },
    },
    ...(tag
      ? [
          { name: 'GET /api/tags/:tag (tag page), page 1', paths: [`/api/tags/${tag.name}`] },
          ...(tag.secondPage
            ? [
                {
                  name: 'GET /api/tags/:tag (tag page), page 2',
                  paths: [`/api/tags/${tag.name}?cursor=${tag.secondPage}`],
                },
              ]
            : []),
        ]
      : []),
  ];
}

function endpoints(
  postIds: number[],
  commented: CommentedPosts,
  mentionQueries: string[],
  tag: { name: string; secondPage: string | null } | null = null,
  profileIds: number[] = [],
): Endpoint[] {
  const feed = (name: string, query: string): Endpoint[] => [
    {
      name: `GET /api/posts ${name}, page 1`,
      paths: [`/api/posts?${query}limit=${PAGE}&offset=0`],
    },
    {
      name: `GET /api/posts ${name}, page 10`,
      paths: [`/api/posts?${query}limit=${PAGE}&offset=${TENTH_PAGE}`],
    },
  ];
  return [
    ...feed('For You', ''),
    ...feed('Following', 'tab=following&'),
    ...feed('JD', 'tab=jd&'),
    ...feed('Top Posts', 'topFilter=true&'),
    { name: 'GET /api/posts/:id', paths: postIds.map((id) => `/api/posts/${id}`) },
    {
      name: 'GET /api/posts/:id, 20+ top-level comments',
      paths: commented.ids.map((id) => `/api/posts/${id}`),
    },
    {
      name: 'GET /api/posts/:id/comments, page 2',
      paths: commented.secondPageCursors.map(
        (c) => `/api/posts/${c.id}/comments?cursor=${c.cursor}`,
      ),
    },
    {
      // What the composer asks as a member types '@' and a name (issue 40).
      name: 'GET /api/users/mention-suggestions, mention autocomplete',
      paths: mentionQueries.map((q) => `/api/users/mention-suggestions?q=${encodeURIComponent(q)}`),
      oneCaller: { p99: 30, target: 'mention autocomplete p99 ≤ 30 ms' },
    },
    {
      // Issue 42: a member's profile (with its first page of posts), and people search, as the
      // header's search box asks (a name's first letters, a whole name, the e-mail domain).
      name: 'GET /api/users/:id (profile)',
      paths: profileIds.map((id) => `/api/users/${id}`),
    },
    {
      name: 'GET /api/users?q= (people search)',
      paths: [...mentionQueries.filter((_, i) => i % 5 === 2), 'campus.edu'].map(
        (q) => `/api/users?q=${encodeURIComponent(q)}`,
      ),
    },
    { name: 'GET /api/notifications', paths: ['/api/notifications'] },
    { name: 'GET /api/notifications?grouped=true', paths: ['/api/notifications?grouped=true'] },
    { name: 'GET /api/analytics/overview', paths: ['/api/analytics/overview'] },
    { name: 'GET /api/analytics/user-growth', paths: ['/api/analytics/user-growth'] },
    { name: 'GET /api/analytics/engagement', paths: ['/api/analytics/engagement'] },
    { name: 'GET /api/analytics/active-users', paths: ['/api/analytics/active-users'] },
    ...discoveryEndpoints(tag),
  ].filter(
    (e) =>
      e.paths.length > 0 &&
      (!ONLY ||
        ONLY.toLowerCase()
          .split('|')
          .some((part) =>
            part.startsWith('=')
              ? e.name.toLowerCase() === part.slice(1)
              : e.name.toLowerCase().includes(part),
          )),
  );
}

/**
 * The 20 newest posts with at least 20 visible top-level comments and some replies (what a post
 * detail with a full first page of comments reads), and the cursor of each one's second page.
 */
async function commentedPosts(database: Database<Models>): Promise<CommentedPosts> {
  const { Post, Comment } = database.models;
  const candidates = await Post.find(
    { deletedAt: null, originalPostId: null, commentsCount: trusted({ $gte: 40 }) },
    { _id: 1 },
  )
    .sort({ createdAt: -1 })
    .limit(200)
    .lean();
  const result: CommentedPosts = { ids: [], secondPageCursors: [] };
  for (const { _id: postId } of candidates) {
    if (result.ids.length >= 20) break;
    const visible = { postId, deletedAt: null, authorSuspended: trusted({ $ne: true }) };
    const top = await Comment.find({ ...visible, parentId: null }, { _id: 1, createdAt: 1 })
      .sort({ createdAt: 1, _id: 1 })
      .lean();
    if (top.length < PAGE) continue;
    if (!(await Comment.exists({ ...visible, parentId: trusted({ $ne: null }) }))) continue;
    result.ids.push(postId);
    const last = top[PAGE - 1]!;
    if (top.length > PAGE)
      result.secondPageCursors.push({
        id: postId,
        cursor: `${last.createdAt.getTime()}.${last._id}`,
      });
  }
  return result;
}

/**
 * The dataset's most used tag among the newest 5,000 posts and its page-2 cursor (as the API
 * makes it: the 20th post's time and id), or null for a dataset without tags (made before
 * issue 40: the tag rows are left out).
 */
async function benchTag(
  database: Database<Models>,
): Promise<{ name: string; secondPage: string | null } | null> {
  const { Post } = database.models;
  const recent = await Post.find({ deletedAt: null }, { tags: 1 })
    .sort({ createdAt: -1 })
    .limit(5_000)
    .lean();
  const counts = new Map<string, number>();
  for (const p of recent) for (const t of p.tags ?? []) counts.set(t, (counts.get(t) ?? 0) + 1);
  const name = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!name) {
    console.log('No tagged posts in the dataset (made before issue 40): no tag page rows.');
    return null;
  }
  const first = await Post.find(
    { tags: name, deletedAt: null, authorSuspended: trusted({ $ne: true }) },
    { createdAt: 1 },
  )
    .sort({ createdAt: -1, _id: -1 })
    .limit(PAGE)
    .lean();
  const last = first.length === PAGE ? first[PAGE - 1]! : undefined;
  return { name, secondPage: last ? `${last.createdAt.getTime()}.${last._id}` : null };
}

/** The members among `ids` whose profile anyone may open (verified, not suspended). */
async function profileIds(database: Database<Models>, ids: number[]): Promise<number[]> {
  const users = await database.models.User.find(
    { _id: trusted({ $in: ids }), isVerified: true, suspendedAt: null },
    { _id: 1 },
  ).lean();
  return users.map((u) => u._id);
}

/** The API in this process, for counting its database operations (not for timing). */
async function inProcessApi(database: Database<Models>): Promise<{
  url: string;
  close(): void;
  /** Empties the read caches but the caller's account (feed, authors, notification and comment pages). */
  emptyReadCaches(): void;
}> {
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: BENCH_DIR,
    JWT_SECRET: BENCH_JWT_SECRET,
    // Production has no default for its addresses: the benchmark's own, explicitly.
    PUBLIC_URL: `http://${LOOPBACK}`,
    WEB_URL: `http://${LOOPBACK}:3000`,
    ALLOWED_ORIGINS: `http://${LOOPBACK}:3000`,
    ...(READ_CACHE_MS === undefined ? {} : { READ_CACHE_MS }),
  });
  const logger = createLogger('silent');
  const app = createApp({
    config,
    logger,
    mailTransport: mailTransportFor({ ...config, smtpUrl: undefined, dataDir: BENCH_DIR }, logger),
    jwtSecret: BENCH_JWT_SECRET,
    database,
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://${LOOPBACK}:${port}`,
    close: async () => {
      await app.close();
      server.close();
    },
    emptyReadCaches() {
      app.caches.feed.clear();
      app.caches.authors.clear();
      app.caches.notifications.clear();
      app.caches.comments.clear();
    },
  };
}

/**
 * Waits until the API answers a cheap request quickly again: a row that overloads the database
 * (50 concurrent analytics overviews) leaves a backlog that would otherwise land on the next row.
 */
async function drain(url: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const started = performance.now();
    const res = await fetch(`${url}/api/settings`);
    await res.arrayBuffer();
    if (res.status === 200 && performance.now() - started < 50) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** One row of several measurements of it (each of one repetition): their medians. */
interface OneCaller {
  requests: number;
  errors: number;
  p50: number;
  p99: number;
}

/**
 * One caller's latency on an otherwise idle API: requests sent one after another (cycling
 * through `paths`), at least `requests` of them and for `seconds`; p50 (the median) and p99 of
 * their times.
 */
async function oneCaller(
  url: string,
  paths: string[],
  headers: Record<string, string>,
  { requests, seconds }: { requests: number; seconds: number },
): Promise<OneCaller> {
  const times: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  while (times.length < requests || performance.now() < until) {
    const started = performance.now();
    const res = await fetch(`${url}${paths[times.length % paths.length]}`, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) errors += 1;
    times.push(performance.now() - started);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] ?? 0;
  return { requests: times.length, errors, p50: median(times), p99 };
}

function medianRow(rows: Row[]): Row {
  const of = (pick: (r: Row) => number) => median(rows.map(pick));
  return {
    name: rows[0]!.name,
    requestsPerSecond: of((r) => r.requestsPerSecond),
    p50: of((r) => r.p50),
    p99: of((r) => r.p99),
    errors: rows.reduce((sum, r) => sum + r.errors, 0),
    statusCodes: rows.flatMap((r) => r.statusCodes),
    apiUs: of((r) => r.apiUs),
    dbUs: of((r) => r.dbUs),
    helloUs: of((r) => r.helloUs),
    helloRequestsPerSecond: of((r) => r.helloRequestsPerSecond),
    apiRatio: of((r) => r.apiRatio),
    totalRatio: of((r) => r.totalRatio),
    measured: rows.every((r) => r.measured),
  };
}

async function main() {
  const db = await openBenchDatabase({});
  const children: Array<{ stop(): Promise<void> }> = [];
  let safetyMembers: SafetyMembers | undefined;
  try {
    const database = await db.connect();
    const { Post } = database.models;
    const posts = await Post.countDocuments({});
    if (posts === 0) throw new Error('The bench database is empty: run `npm run bench:data` first');
    // Posts to open: recent originals that have comments (the detail page people open).
    const recent = await Post.find(
      { deletedAt: null, originalPostId: null, commentsCount: trusted({ $gt: 0 }) },
      { _id: 1, authorId: 1 },
    )
      .sort({ createdAt: -1 })
      .limit(20)
      .lean();
    const list = endpoints(
      recent.map((p) => p._id),
      await commentedPosts(database),
      await mentionQueries(database),
      await benchTag(database),
      await profileIds(database, [...new Set(recent.map((p) => p.authorId))]),
    );
    const token = signToken(ADMIN_USER_ID);
    const headers = { authorization: `Bearer ${token}` };
    console.log(
      `${fmt(posts)} posts; ${CONNECTIONS} connections, ${DURATION} s per row × ${REPEATS}, ${HELLO_DURATION} s of hello-world before each\n`,
    );

    // Round trips, with the API in this process (mongoose debug), before the load runs: with
    // the read caches empty (only the caller's account known), then with them warm.
    const local = await inProcessApi(database);
    const roundTrips = new Map<string, { cold: string[]; warm: string[] }>();
    for (const e of list) {
      const call = () =>
        fetch(`${local.url}${e.paths[0]}`, { headers }).then((r) => r.arrayBuffer());
      await call(); // the first request may also record the caller's activity
      local.emptyReadCaches();
      const cold = await countRoundTrips(database.connection, call);
      roundTrips.set(e.name, { cold, warm: await countRoundTrips(database.connection, call) });
    }
    await local.close();

    const ceiling = await startKoaCeiling();
    children.push(ceiling);
    const api = await startApi({ mongodbUri: db.uri, dataDir: BENCH_DIR });
    children.push(api);
    const helloPid = ceiling.process.pid;
    const apiPid = api.process.pid;

    /**
     * A row: REPEATS times, the hello-world then the row, each with the CPU its processes used;
     * the medians of the repetitions (the ratio is taken within each repetition, then its median).
     */
    const measure = async (
      name: string,
      options: {
        url: string;
        headers?: Record<string, string>;
        paths: string[];
        /** Also the 404 (HELLO_DURATION s) just before the row in each repetition. */
        withFloor?: boolean;
        /** Repetitions (default BENCH_REPEATS). */
        repeats?: number;
      },
    ): Promise<Row> => {
      const reps: Array<
        { load: LoadResult; hello: LoadResult; helloUs: number; floorUs?: number } & CpuPerRequest
      > = [];
      for (let i = 0; i < (options.repeats ?? REPEATS); i++) {
        const helloMeter = cpuMeter({ hello: helloPid });
        const hello = await runLoad({ url: ceiling.url, duration: HELLO_DURATION });
        const helloCpu = helloMeter.stop();
        let floorUs: number | undefined;
        if (options.withFloor) {
          const floorMeter = cpuMeter({ api: apiPid });
          const floorLoad = await runLoad({
            url: `${api.url}${FLOOR_PATH}`,
            duration: HELLO_DURATION,
          });
          floorUs = perRequestUs(floorMeter.stop().api, floorLoad.total);
        }
        const meter = cpuMeter({ api: apiPid, db: db.pid });
        const load = await runLoad({
          url: options.url,
          duration: DURATION,
          headers: options.headers,
          requests: options.paths.map((p) => ({ method: 'GET', path: p })),
        });
        const cpu = meter.stop();
        reps.push({
          load,
          hello,
          helloUs: perRequestUs(helloCpu.hello, hello.total),
          floorUs,
          apiUs: perRequestUs(cpu.api, load.total),
          dbUs: perRequestUs(cpu.db, load.total),
        });
      }
      const ratio = (r: (typeof reps)[number]) => (r.helloUs > 0 ? r.apiUs / r.helloUs : 0);
      const ratioAll = (r: (typeof reps)[number]) =>
        r.helloUs > 0 ? (r.apiUs + r.dbUs) / r.helloUs : 0;
      return {
        name,
        requestsPerSecond: median(reps.map((r) => r.load.requestsPerSecond)),
        p50: median(reps.map((r) => r.load.p50)),
        p99: median(reps.map((r) => r.load.p99)),
        errors: reps.reduce((s, r) => s + r.load.errors, 0),
        measured: reps.every(
          (r) => r.load.total > 0 && r.hello.total > 0 && (!options.withFloor || r.floorUs! > 0),
        ),
        statusCodes: reps.map((r) => r.load.statusCodes),
        apiUs: median(reps.map((r) => r.apiUs)),
        dbUs: median(reps.map((r) => r.dbUs)),
        helloUs: median(reps.map((r) => r.helloUs)),
        helloRequestsPerSecond: median(reps.map((r) => r.hello.requestsPerSecond)),
        apiRatio: median(reps.map(ratio)),
        totalRatio: median(reps.map(ratioAll)),
        ...(options.withFloor
          ? {
              floorUs: median(reps.map((r) => r.floorUs ?? 0)),
              floorRatio: median(reps.map((r) => (r.floorUs ? r.apiUs / r.floorUs : 0))),
            }
          : {}),
      };
    };
    const cpuText = (r: Row) =>
      `CPU/request: API ${fmt(r.apiUs)} µs, database ${fmt(r.dbUs)} µs, hello-world ${fmt(r.helloUs)} µs ` +
      `(API ${fmt(r.apiRatio, 2)}×, API + database ${fmt(r.totalRatio, 2)}× the hello-world's)`;

    // What the API's middleware alone costs (logging, errors, security headers, CORS, routing):
    // an unknown path, answered 404 without authentication or database.
    // Not measured: the API's first seconds (modules loaded on first use, code not yet optimized).
    for (const path of [FLOOR_PATH, ...list.map((e) => e.paths[0]!)])
      await runLoad({ url: `${api.url}${path}`, duration: WARMUP, headers });
    const floor = await measure('API middleware only (unknown path, 404)', {
      url: api.url,
      paths: [FLOOR_PATH],
    });
    // Its 404s are the answer it should give: only other statuses are errors.
    floor.errors -= floor.statusCodes.reduce((s, codes) => s + (codes['404'] ?? 0), 0);
    console.log(
      `Koa hello-world: ${fmt(floor.helloRequestsPerSecond)} req/s, CPU/request ${fmt(floor.helloUs)} µs`,
    );
    console.log(
      `${floor.name}: ${fmt(floor.requestsPerSecond)} req/s, p50 ${floor.p50} ms, p99 ${floor.p99} ms; ${cpuText(floor)}`,
    );
    const rows: Row[] = [floor];
    const extra = new Map<string, { single: number; ops: { cold: string[]; warm: string[] } }>();
    const oneCallers: Array<OneCaller & { endpoint: Endpoint }> = [];
    for (const e of list) {
      await drain(api.url);
      const single = await oneCaller(api.url, e.paths, headers, { requests: 11, seconds: 0 });
      let singleErrors = single.errors;
      if (e.oneCaller) {
        const caller = await oneCaller(api.url, e.paths, headers, {
          requests: 20,
          seconds: DURATION,
        });
        singleErrors += caller.errors;
        oneCallers.push({ endpoint: e, ...caller });
        console.log(
          `${e.name}, one caller: ${caller.requests} requests in ${DURATION} s, p50 ${fmt(caller.p50, 1)} ms, p99 ${fmt(caller.p99, 1)} ms`,
        );
      }
      const row = await measure(e.name, {
        url: api.url,
        headers,
        paths: e.paths,
        withFloor: isFeedRow(e.name),
      });
      row.errors += singleErrors;
      const ops = roundTrips.get(e.name) ?? { cold: [], warm: [] };
      extra.set(e.name, { single: single.p50, ops });
      rows.push(row);
      if (singleErrors)
        console.log(
          `${e.name}: ${singleErrors} of its sequential requests (single request, one caller) failed`,
        );
      console.log(
        `${e.name}: ${fmt(row.requestsPerSecond)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms; ${cpuText(row)}; ` +
          (row.floorRatio === undefined
            ? ''
            : `404 beside it ${fmt(row.floorUs ?? 0)} µs (API ${fmt(row.floorRatio, 2)}× the 404's); `) +
          `single request ${fmt(single.p50, 1)} ms; round trips ${ops.cold.length} cold (${ops.cold.join(', ')}), ${ops.warm.length} cached` +
          (row.errors ? `; ${row.errors} errors (${JSON.stringify(row.statusCodes)})` : ''),
      );
    }

    // Issue 38: feed pages of a member with 500 blocks and mutes and 50 muted words against a
    // member with none who follows the same people, in the same run (BENCH_ONLY=safety: these
    // rows alone).
    const safetyRatios: Array<{ tab: string; ratio: number; rows: Row[] }> = [];
    if (!ONLY || ONLY.toLowerCase().includes('safety')) {
      safetyMembers = await createSafetyMembers(database);
      const as = (id: number) => ({ authorization: `Bearer ${signToken(id)}` });
      const tabs: Array<[string, string]> = [
        ['For You', ''],
        ['Following', 'tab=following&'],
        ['JD', 'tab=jd&'],
        ['Top Posts', 'topFilter=true&'],
      ];
      for (const [tab, query] of tabs) {
        const paths = [`/api/posts?${query}limit=${PAGE}&offset=0`];
        for (const id of [safetyMembers.plainId, safetyMembers.safetyId])
          await runLoad({ url: `${api.url}${paths[0]}`, duration: WARMUP, headers: as(id) });
        await drain(api.url);
        // The two members in pairs, the pair's order alternating (the machine's drift during a
        // row falls on both alike), the ratio taken within each pair, then its median.
        const members: Record<
          'plain' | 'hiding',
          { name: string; headers: Record<string, string> }
        > = {
          plain: {
            name: `GET /api/posts ${tab}, page 1, a member who hides nobody`,
            headers: as(safetyMembers.plainId),
          },
          hiding: {
            name: `GET /api/posts ${tab}, page 1, a member with ${SAFETY_BLOCKS + SAFETY_MUTES} blocks and mutes and ${SAFETY_WORDS} muted words`,
            headers: as(safetyMembers.safetyId),
          },
        };
        const pairs: Array<Record<'plain' | 'hiding', Row>> = [];
        for (let i = 0; i < REPEATS; i++) {
          const order =
            i % 2 === 0 ? (['plain', 'hiding'] as const) : (['hiding', 'plain'] as const);
          const pair: Partial<Record<'plain' | 'hiding', Row>> = {};
          for (const who of order) {
            const { name, headers } = members[who];
            pair[who] = await measure(name, { url: api.url, headers, paths, repeats: 1 });
          }
          pairs.push(pair as Record<'plain' | 'hiding', Row>);
        }
        const plain = medianRow(pairs.map((p) => p.plain));
        const hiding = medianRow(pairs.map((p) => p.hiding));
        rows.push(plain, hiding);
        const ratio = median(
          pairs.map((p) => (p.plain.apiUs > 0 ? p.hiding.apiUs / p.plain.apiUs : 0)),
        );
        safetyRatios.push({ tab, ratio, rows: [plain, hiding] });
        console.log(
          `${tab}, page 1: a member who hides nobody ${fmt(plain.apiUs)} µs, a member with ${SAFETY_BLOCKS + SAFETY_MUTES} blocks and mutes and ${SAFETY_WORDS} muted words ${fmt(hiding.apiUs)} µs API CPU/request (${fmt(ratio, 2)}×)` +
            (plain.errors + hiding.errors ? `; ${plain.errors + hiding.errors} errors` : ''),
        );
      }
    }
    const worstSafety = safetyRatios.length ? Math.max(...safetyRatios.map((s) => s.ratio)) : 0;

    const unmeasured = rows.filter((r) => !r.measured).map((r) => r.name);
    const feeds = rows.filter((r) => isFeedRow(r.name));
    const worstFeed = feeds.length ? Math.max(...feeds.map((r) => r.apiUs)) : 0;
    const worstFeedRatio = feeds.length ? Math.max(...feeds.map((r) => r.floorRatio ?? 0)) : 0;
    const overview = rows.find((r) => r.name === 'GET /api/analytics/overview');
    const analytics = rows.filter((r) => r.name.includes('analytics'));
    const worstAnalyticsP99 = analytics.length ? Math.max(...analytics.map((r) => r.p99)) : 0;
    const uncached = READ_CACHE_MS !== undefined && Number(READ_CACHE_MS) <= 0;
    const judged = (ok: boolean, ...of: Row[]) =>
      of.every((r) => r.measured) ? (ok ? 'met' : 'not met') : 'not measured';
    const targets = [
      `- the 404 row's API CPU/request ≤ 2× the hello-world's: ${fmt(floor.apiRatio, 2)}× → **${judged(floor.apiRatio <= 2, floor)}**`,
      feeds.length && !uncached
        ? `- cached feed pages' API CPU/request ≤ 2× the 404's, the 404 measured beside each row in each repetition: highest ${fmt(worstFeedRatio, 2)}× → **${judged(worstFeedRatio <= 2, floor, ...feeds)}** (against the 404 row above: highest ${fmt(worstFeed)} µs = ${fmt(worstFeed / floor.apiUs, 2)}×)`
        : '',
      overview || analytics.length
        ? `- analytics p99 ≤ 500 ms at ${CONNECTIONS} connections: highest ${worstAnalyticsP99} ms → **${judged(worstAnalyticsP99 <= 500, ...analytics)}**`
        : '',
      safetyRatios.length
        ? `- feed pages of a member with ${SAFETY_BLOCKS + SAFETY_MUTES} blocks and mutes and ${SAFETY_WORDS} muted words ≤ 1.15× the API CPU/request of a member with none (same follows, same run): ${safetyRatios.map((s) => `${s.tab} ${fmt(s.ratio, 2)}×`).join(', ')} → **${judged(worstSafety <= 1.15, ...safetyRatios.flatMap((s) => s.rows))}**`
        : '',
      ...oneCallers.map(({ endpoint, p50, p99, requests }) => {
        const goal = endpoint.oneCaller!;
        const ok = (goal.p50 === undefined || p50 <= goal.p50) && p99 <= goal.p99;
        return `- ${goal.target} for one caller: p50 ${fmt(p50, 1)} ms, p99 ${fmt(p99, 1)} ms over ${requests} requests → **${requests >= 20 ? (ok ? 'met' : 'not met') : 'not measured'}**`;
      }),
      unmeasured.length
        ? `- not measured (a repetition, or the hello-world or 404 before it, answered no request within its ${DURATION} s; the machine was too busy): ${unmeasured.join('; ')}`
        : '',
    ].filter(Boolean);
    console.log(`\n${targets.join('\n')}`);

    writeJsonFigures({
      posts,
      rows: rows.map(({ name, requestsPerSecond, p50, p99, apiUs, dbUs, errors, measured }) => ({
        name,
        requestsPerSecond,
        p50,
        p99,
        apiUs,
        dbUs,
        errors,
        measured,
      })),
    });
    const tableRows = [
      [
        'Koa hello-world (same run, median)',
        fmt(floor.helloRequestsPerSecond),
        '–',
        '–',
        fmt(floor.helloUs),
        '–',
        '1.00×',
        '1.00×',
        '–',
        '–',
        '–',
        0,
      ],
      ...rows.map((r) => {
        const x = extra.get(r.name);
        const figure = (text: string) => (r.measured ? text : 'not measured');
        return [
          r.name,
          fmt(r.requestsPerSecond),
          r.p50,
          r.p99,
          figure(fmt(r.apiUs)),
          figure(fmt(r.dbUs)),
          figure(`${fmt(r.apiRatio, 2)}×`),
          figure(`${fmt(r.totalRatio, 2)}×`),
          r.floorRatio === undefined ? '–' : figure(`${fmt(r.floorRatio, 2)}×`),
          x ? fmt(x.single, 1) : '–',
          x ? `${x.ops.cold.length} / ${x.ops.warm.length}` : '–',
          r.errors,
        ];
      }),
    ];
    writeSection(
      uncached ? 'bench:api:uncached' : 'bench:api',
      [
        `${fmt(posts)} posts in ${db.embedded ? 'the embedded database' : 'MONGODB_URI'}; autocannon, ${CONNECTIONS} connections, ${DURATION} s per row, each row ${REPEATS} times interleaved with ${HELLO_DURATION} s of the hello-world (medians), loopback; ` +
          `the API in its own process (\`NODE_ENV=production\`, \`LOG_LEVEL=warn\`, rate limits off${READ_CACHE_MS === undefined ? '' : `, \`READ_CACHE_MS=${READ_CACHE_MS}\`${uncached ? ': no read caches, every feed page and post read from the database' : ''}`}), signed in as user ${ADMIN_USER_ID} (the admin).`,
        '',
        table(
          [
            'endpoint',
            'req/s',
            'p50 ms',
            'p99 ms',
            'API CPU µs/req',
            'DB CPU µs/req',
            'API ÷ hello',
            'API + DB ÷ hello',
            'API ÷ 404 beside it',
            'single request ms',
            'DB round trips (cold / cached)',
            'errors',
          ],
          tableRows,
        ),
        '',
        'Pages are 20 posts (page 10: `offset=180`). `GET /api/posts/:id` cycles through the 20 newest posts that have comments. ' +
          '"CPU µs/req": user + system CPU time of the API process and of the database process (`/proc/<pid>/stat`, sampled before and after each repetition) divided by the requests answered; ' +
          '"÷ hello": that CPU per request divided by the bare Koa hello-world\'s, measured just before in the same repetition (the median of the repetitions\' ratios). ' +
          `"÷ 404 beside it" (feed pages): the API's CPU per request divided by the 404's, measured for ${HELLO_DURATION} s between the hello-world and the row in each repetition (the median of the ratios), so both see the same moment of a shared machine. ` +
          `Before anything is measured, ${WARMUP} s of load on the 404 and on each row (the API's first requests load modules and run unoptimized code). ` +
          "On a shared machine req/s and latencies move with the neighbours' load; CPU per request barely does. " +
          '"single request": median of 11 sequential requests on the otherwise idle API. ' +
          "\"DB round trips\": database operations of one request, counted with mongoose's debug hook with the API running in the benchmark's process, first with the read caches empty (`READ_CACHE_MS`, `AUTHOR_CACHE_MS`), then again with them filled by that request; the caller's account lookup is reused for 5 s (`AUTH_CACHE_MS`), so it shows in neither. " +
          (uncached
            ? 'With `READ_CACHE_MS=0` no feed page, post or viewer flag is kept: every request makes its round trips (authors stay cached for `AUTHOR_CACHE_MS`). '
            : 'Under load every row but the first seconds reads from warm caches: the dataset does not change during `bench:api` (see `bench:mixed` for reads among writes). ') +
          '"API middleware only": the same API process answering an unknown path (404) with no authentication and no database.',
        '',
        `Targets: ${targets.map((target) => target.replace(/^- /, '')).join('; ')}.`,
      ].join('\n'),
      { skip: ONLY ? 'BENCH_ONLY runs some rows only' : undefined },
    );
  } finally {
    await safetyMembers?.remove();
    for (const child of children) await child.stop();
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
