/**
 * `npm run bench:api`: autocannon against a bare Koa hello-world (the ceiling), then against the
 * API (its own process, on the bench dataset, rate limits off, signed in) for each feed tab and
 * Top Posts (first and tenth page), a post with its comments, the notifications and the four
 * analytics endpoints (as the admin). Prints req/s, p50/p99 latency, the ratio to the ceiling,
 * the latency of a single request on an idle server, and the database round trips per request.
 *
 * BENCH_DURATION (seconds per endpoint, default 10), BENCH_CONNECTIONS (default 50),
 * BENCH_ONLY (substring of endpoint names to run, e.g. `feed`).
 */
import http from 'node:http';
import path from 'node:path';
import { trusted } from 'mongoose';
import { createApp } from '../../api/src/app';
import { loadConfig } from '../../api/src/platform/config';
import type { Models } from '../../api/src/models';
import type { Database } from '../../api/src/platform/db';
import { createLogger } from '../../api/src/platform/logger';
import { createMailer } from '../../api/src/platform/mailer';
import { BENCH_DIR, openBenchDatabase } from './database';
import { CONNECTIONS, countRoundTrips, median, runLoad, signToken, type LoadResult } from './load';
import { BENCH_JWT_SECRET, LOOPBACK, startApi, startKoaCeiling } from './processes';
import { fmt, table, writeSection } from './report';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ONLY = process.env.BENCH_ONLY;
const ADMIN_USER_ID = Number(process.env.ADMIN_USER_ID ?? 107);
const PAGE = 20;
const TENTH_PAGE = 9 * PAGE;

interface Endpoint {
  name: string;
  /** One path, or several that each connection cycles through. */
  paths: string[];
}

function endpoints(postIds: number[]): Endpoint[] {
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
    { name: 'GET /api/notifications', paths: ['/api/notifications'] },
    { name: 'GET /api/analytics/overview', paths: ['/api/analytics/overview'] },
    { name: 'GET /api/analytics/user-growth', paths: ['/api/analytics/user-growth'] },
    { name: 'GET /api/analytics/engagement', paths: ['/api/analytics/engagement'] },
    { name: 'GET /api/analytics/active-users', paths: ['/api/analytics/active-users'] },
  ].filter((e) => !ONLY || e.name.toLowerCase().includes(ONLY.toLowerCase()));
}

/** The API in this process, for counting its database operations (not for timing). */
async function inProcessApi(database: Database<Models>): Promise<{
  url: string;
  close(): void;
  /** Empties the feed and author caches (the caller's account stays known). */
  emptyReadCaches(): void;
}> {
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: BENCH_DIR,
    JWT_SECRET: BENCH_JWT_SECRET,
  });
  const logger = createLogger('silent');
  const app = createApp({
    config,
    logger,
    mailer: createMailer({
      from: config.mailFrom,
      smtpUrl: undefined,
      outboxDir: path.join(BENCH_DIR, 'outbox'),
      logger,
    }),
    jwtSecret: BENCH_JWT_SECRET,
    database,
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://${LOOPBACK}:${port}`,
    close: () => {
      app.close();
      server.close();
    },
    emptyReadCaches() {
      app.caches.feed.clear();
      app.caches.authors.clear();
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

async function main() {
  const db = await openBenchDatabase({});
  const children: Array<{ stop(): Promise<void> }> = [];
  try {
    const database = await db.connect();
    const { Post } = database.models;
    const posts = await Post.countDocuments({});
    if (posts === 0) throw new Error('The bench database is empty: run `npm run bench:data` first');
    // Posts to open: recent originals that have comments (the detail page people open).
    const recent = await Post.find(
      { deletedAt: null, originalPostId: null, commentsCount: trusted({ $gt: 0 }) },
      { _id: 1 },
    )
      .sort({ createdAt: -1 })
      .limit(20)
      .lean();
    const list = endpoints(recent.map((p) => p._id));
    const token = signToken(ADMIN_USER_ID);
    const headers = { authorization: `Bearer ${token}` };
    console.log(`${fmt(posts)} posts; ${CONNECTIONS} connections, ${DURATION} s per endpoint\n`);

    const ceiling = await startKoaCeiling();
    children.push(ceiling);
    const koa = await runLoad({ url: ceiling.url, duration: DURATION });
    await ceiling.stop();
    console.log(
      `Koa hello-world (ceiling): ${fmt(koa.requestsPerSecond)} req/s, p50 ${koa.p50} ms, p99 ${koa.p99} ms`,
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
    local.close();

    const api = await startApi({ mongodbUri: db.uri, dataDir: BENCH_DIR });
    children.push(api);
    // What the API's middleware alone allows (logging, errors, security headers, CORS, routing):
    // an unknown path, answered 404 without authentication or database.
    const floor = await runLoad({ url: `${api.url}/api/no-such-route`, duration: DURATION });
    const floorRatio = (100 * floor.requestsPerSecond) / koa.requestsPerSecond;
    console.log(
      `API middleware only (404): ${fmt(floor.requestsPerSecond)} req/s (${fmt(floorRatio, 1)} % of Koa), p50 ${floor.p50} ms, p99 ${floor.p99} ms`,
    );
    const rows: Array<Array<string | number>> = [
      [
        'Koa hello-world (ceiling)',
        fmt(koa.requestsPerSecond),
        koa.p50,
        koa.p99,
        '100 %',
        '–',
        '–',
        0,
      ],
      [
        'API middleware only (unknown path, 404)',
        fmt(floor.requestsPerSecond),
        floor.p50,
        floor.p99,
        `${fmt(floorRatio, 1)} %`,
        '–',
        '–',
        '–',
      ],
    ];
    const results: Array<{ name: string; load: LoadResult; single: number }> = [];
    for (const e of list) {
      await drain(api.url);
      const single: number[] = [];
      let singleErrors = 0;
      for (let i = 0; i < 11; i++) {
        const started = performance.now();
        const res = await fetch(`${api.url}${e.paths[i % e.paths.length]}`, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) singleErrors += 1;
        single.push(performance.now() - started);
      }
      const load = await runLoad({
        url: api.url,
        duration: DURATION,
        headers,
        requests: e.paths.map((p) => ({ method: 'GET', path: p })),
      });
      const ops = roundTrips.get(e.name) ?? { cold: [], warm: [] };
      const ratio = (100 * load.requestsPerSecond) / koa.requestsPerSecond;
      results.push({ name: e.name, load, single: median(single) });
      if (singleErrors) console.log(`${e.name}: ${singleErrors} of 11 single requests failed`);
      rows.push([
        e.name,
        fmt(load.requestsPerSecond),
        load.p50,
        load.p99,
        `${fmt(ratio, 1)} %`,
        fmt(median(single), 1),
        `${ops.cold.length} / ${ops.warm.length}`,
        load.errors + singleErrors,
      ]);
      console.log(
        `${e.name}: ${fmt(load.requestsPerSecond)} req/s (${fmt(ratio, 1)} % of Koa), p50 ${load.p50} ms, p99 ${load.p99} ms; ` +
          `single request ${fmt(median(single), 1)} ms; round trips ${ops.cold.length} cold (${ops.cold.join(', ')}), ${ops.warm.length} cached${load.errors ? `; ${load.errors} errors (${JSON.stringify(load.statusCodes)})` : ''}`,
      );
    }

    const feeds = results.filter(
      (r) => r.name.startsWith('GET /api/posts ') && !r.name.includes(':id'),
    );
    const worstFeedRatio = Math.min(
      ...feeds.map((r) => r.load.requestsPerSecond / koa.requestsPerSecond),
    );
    const worstFeedP99 = Math.max(...feeds.map((r) => r.load.p99));
    const analytics = results.filter((r) => r.name.includes('analytics'));
    const slowestAnalytics = Math.max(...analytics.map((r) => r.single));
    const targets = [
      feeds.length
        ? `- GET /api/posts ≥ 35 % of the ceiling with p99 < 50 ms: lowest ratio ${fmt(100 * worstFeedRatio, 1)} %, highest p99 ${worstFeedP99} ms → **${worstFeedRatio >= 0.35 && worstFeedP99 < 50 ? 'met' : 'not met'}**`
        : '',
      analytics.length
        ? `- each analytics call < 200 ms (single request on an idle server): slowest ${fmt(slowestAnalytics, 1)} ms → **${slowestAnalytics < 200 ? 'met' : 'not met'}**`
        : '',
    ].filter(Boolean);
    console.log(`\n${targets.join('\n')}`);

    writeSection(
      'bench:api',
      [
        `${new Date().toISOString()}: ${fmt(posts)} posts in ${db.embedded ? 'the embedded database' : 'MONGODB_URI'}; autocannon, ${CONNECTIONS} connections, ${DURATION} s per row, loopback; ` +
          `the API in its own process (\`NODE_ENV=production\`, \`LOG_LEVEL=warn\`, rate limits off), signed in as user ${ADMIN_USER_ID} (the admin).`,
        '',
        table(
          [
            'endpoint',
            'req/s',
            'p50 ms',
            'p99 ms',
            'of ceiling',
            'single request ms',
            'DB round trips (cold / cached)',
            'errors',
          ],
          rows,
        ),
        '',
        'Pages are 20 posts (page 10: `offset=180`). `GET /api/posts/:id` cycles through the 20 newest posts that have comments. ' +
          '"single request": median of 11 sequential requests on the otherwise idle API. ' +
          "\"DB round trips\": database operations of one request, counted with mongoose's debug hook with the API running in the benchmark's process, first with the read caches empty (`READ_CACHE_MS`, `AUTHOR_CACHE_MS`), then again with them filled by that request; the caller's account lookup is reused for 5 s (`AUTH_CACHE_MS`), so it shows in neither. " +
          'Under load every row but the first seconds reads from warm caches: the dataset does not change during `bench:api` (see `bench:mixed` for reads among writes). ' +
          '"API middleware only": the same API process answering an unknown path (404) with no authentication and no database, the most any endpoint could reach through its middleware.',
        '',
        'Targets:',
        '',
        ...targets,
      ].join('\n'),
    );
  } finally {
    for (const child of children) await child.stop();
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
