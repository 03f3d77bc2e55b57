/**
 * The API's Prometheus metrics (prom-client), one registry per app (`app.metrics`): nothing here
 * is process-wide, so two apps in one process count apart. What each metric is, and how to read
 * them, is in docs/deploy.md ("Health and metrics"); docs/grafana-campus.json draws them.
 *
 * Counted as things happen: requests by route (the call table's path pattern, never the raw
 * path), their latency, rate-limit refusals (429s) and the database's command latency (the
 * driver's command events, db.ts `observeCommands`). Read when Prometheus scrapes: open live
 * streams, the mail queue (this worker's attempts, and the queue's depth from the database), the
 * read caches' hits and misses and the readiness checks. The process's own figures (memory,
 * event-loop lag, GC) are prom-client's default metrics, collected once per process
 * (`processMetrics`, main.ts), not per app.
 *
 * Metrics are never public (docs/deploy.md): served on a port of their own (METRICS_PORT,
 * metrics-server.ts) and on the API port only with METRICS_TOKEN (`metricsEndpoint`).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppState } from './auth';
import type { CommandListener } from './db';
import type { ReadinessReport } from './health';
import { routeOf, type PatternOf } from './http';
import type { Logger } from './logger';
import type { AttemptOutcome } from './mail-queue';
import type { CacheCounts } from './read-cache';

/** Seconds: from a cached feed page (a few ms) to a slow upload or a 503 after a timeout. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: an indexed find (well under a ms on a warm database) to a long aggregation. */
const COMMAND_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** The app's image processing (media/image-pool.ts) since it started. */
export interface ImageProcessingCounts {
  /** Images waiting for a worker. */
  waiting: number;
  /** Worker processes running, and how many of them are processing an image. */
  workers: number;
  busy: number;
  /** Images processed (`done`), refused by the worker (413, 415) and failed (the worker died). */
  done: number;
  refused: number;
  failed: number;
  /** Seconds from an image's turn to its answer, summed over every image. */
  seconds: number;
}

/** What the metrics read when they are scraped (each app's own). */
export interface MetricSources {
  /** The app's image processing for post pictures. */
  imageProcessing(): ImageProcessingCounts;
  /** Live streams open on the app. */
  liveStreams(): number;
  /** The app's mail worker's attempts since it started. */
  mailAttempts(): Readonly<Record<AttemptOutcome, number>>;
  /** The mail queue's mails by state (a database query: skipped while it is unreachable). */
  mailDepth(): Promise<Record<string, number>>;
  /** Every read cache's lookups since the app started. */
  cacheCounts(): Record<string, CacheCounts>;
  readiness(): Promise<ReadinessReport>;
  databaseReachable(): boolean;
  /** The route that would have answered a request answered before its route ran (a 503). */
  patternOf: PatternOf;
  logger: Logger;
}

export interface AppMetrics {
  readonly registry: Registry;
  /** Counts and times every request by route; put before the error middleware (final status). */
  readonly http: Middleware<AppState>;
  /** Times one database command (db.ts `observeCommands`). */
  readonly command: CommandListener;
}

/** Sets a counter to totals kept elsewhere (the source only grows: a counter to Prometheus). */
function setCounter(counter: Counter<string>, totals: Array<[Record<string, string>, number]>) {
  counter.reset();
  for (const [labels, value] of totals) counter.inc(labels, value);
}

export function createMetrics(sources: MetricSources): AppMetrics {
  const registry = new Registry();
  const registers = [registry];

  const requests = new Counter({
    name: 'campus_http_requests_total',
    help: 'Requests answered, by method, route (the call table path pattern) and status',
    labelNames: ['method', 'route', 'status'],
    registers,
  });
  const latency = new Histogram({
    name: 'campus_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being ready, by method and route',
    labelNames: ['method', 'route'],
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const refusals = new Counter({
    name: 'campus_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit or a sign-in delay (429), by route',
    labelNames: ['route'],
    registers,
  });
  const commands = new Histogram({
    name: 'campus_db_command_duration_seconds',
    help: 'Database commands the app sent, by command name, from send to reply',
    labelNames: ['command'],
    buckets: COMMAND_BUCKETS,
    registers,
  });
  const commandFailures = new Counter({
    name: 'campus_db_command_failures_total',
    help: 'Database commands that failed (an error reply or a network error), by command name',
    labelNames: ['command'],
    registers,
  });

  new Gauge({
    name: 'campus_live_streams_open',
    help: 'Live streams (GET /api/stream) open on this process',
    registers,
    collect() {
      this.set(sources.liveStreams());
    },
  });
  new Counter({
    name: 'campus_mail_attempts_total',
    help: 'E-mails this process tried to send, by outcome: sent, retry (failed, tried again later), failed (for good)',
    labelNames: ['outcome'],
    registers,
    collect() {
      setCounter(
        this,
        Object.entries(sources.mailAttempts()).map(([outcome, n]) => [{ outcome }, n]),
      );
    },
  });
  new Gauge({
    name: 'campus_mail_queue_mails',
    help: 'E-mails in the queue (every process), by state: queued, sending, failed (kept 30 days for the administrator)',
    labelNames: ['state'],
    // Every process reads the same queue: several processes show one figure, not their sum.
    aggregator: 'max',
    registers,
    async collect() {
      // While the database is away the last figures stay (a scrape must not wait for it).
      if (!sources.databaseReachable()) return;
      try {
        for (const [state, n] of Object.entries(await sources.mailDepth())) this.set({ state }, n);
      } catch (err) {
        sources.logger.debug({ err }, 'metrics: the mail queue could not be counted');
      }
    },
  });
  new Counter({
    name: 'campus_cache_lookups_total',
    help: 'Read cache lookups, by cache and result (hit or miss)',
    labelNames: ['cache', 'result'],
    registers,
    collect() {
      setCounter(
        this,
        Object.entries(sources.cacheCounts()).flatMap(([cache, { hits, misses }]) => [
          [{ cache, result: 'hit' }, hits],
          [{ cache, result: 'miss' }, misses],
        ]),
      );
    },
  });
  new Gauge({
    name: 'campus_media_images_waiting',
    help: 'Post pictures waiting for an image worker on this process',
    registers,
    collect() {
      this.set(sources.imageProcessing().waiting);
    },
  });
  new Gauge({
    name: 'campus_media_workers',
    help: 'Image worker processes of this process, by state: busy (processing a picture) or idle',
    labelNames: ['state'],
    registers,
    collect() {
      const { workers, busy } = sources.imageProcessing();
      this.set({ state: 'busy' }, busy);
      this.set({ state: 'idle' }, workers - busy);
    },
  });
  new Counter({
    name: 'campus_media_images_processed_total',
    help: 'Post pictures through the image workers of this process, by outcome: done, refused (not an image, over a cap: 413, 415), failed (the worker died)',
    labelNames: ['outcome'],
    registers,
    collect() {
      const { done, refused, failed } = sources.imageProcessing();
      setCounter(this, [
        [{ outcome: 'done' }, done],
        [{ outcome: 'refused' }, refused],
        [{ outcome: 'failed' }, failed],
      ]);
    },
  });
  new Counter({
    name: 'campus_media_processing_seconds_total',
    help: 'Seconds image workers spent on post pictures (from a picture reaching a worker to its answer)',
    registers,
    collect() {
      this.reset();
      this.inc(sources.imageProcessing().seconds);
    },
  });
  new Gauge({
    name: 'campus_ready',
    help: 'Readiness checks (GET /readyz): 1 passing, 0 failing, by check',
    labelNames: ['check'],
    aggregator: 'min',
    registers,
    async collect() {
      const report = await sources.readiness();
      this.reset();
      for (const [check, { ready }] of Object.entries(report.checks))
        this.set({ check }, ready ? 1 : 0);
    },
  });

  const http: Middleware<AppState> = async (ctx, next) => {
    const stop = latency.startTimer();
    try {
      await next();
    } finally {
      const route = routeOf(ctx, sources.patternOf);
      stop({ method: ctx.method, route });
      requests.inc({ method: ctx.method, route, status: String(ctx.status) });
      if (ctx.status === 429) refusals.inc({ route });
    }
  };
  const command: CommandListener = ({ name, ms, failed }) => {
    commands.observe({ command: name }, ms / 1000);
    if (failed) commandFailures.inc({ command: name });
  };
  return { registry, http, command };
}

/**
 * The process's own metrics (prom-client's defaults: memory, CPU, event-loop lag, GC, handles),
 * in a registry of their own: once per process (main.ts), since each set keeps an event-loop
 * delay monitor running for good.
 */
export function processMetrics(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** The text of several registries, in Prometheus's exposition format. */
export async function exposition(registries: Registry[]): Promise<string> {
  return Registry.merge(registries).metrics();
}

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/**
 * Whether `authorization` (an `Authorization` header) carries `token` as a bearer token,
 * compared in constant time.
 */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/i.exec(authorization ?? '');
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]!.trim()), digest(token));
}

/**
 * `GET /metrics` on the API port, only with METRICS_TOKEN set and sent as a bearer token: the
 * metrics of `text` (this app's, or every process's: main.ts). Without a token configured the
 * path is not served at all (404, as any unknown path); a wrong or missing token is a 401. The
 * gateway never passes it on (it forwards /api and /uploads only).
 */
export function metricsEndpoint(
  token: string | undefined,
  text: () => Promise<string>,
  logger: Logger,
): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path !== '/metrics' || token === undefined) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    ctx.state.route = '/metrics';
    ctx.state.probe = true;
    ctx.set('Cache-Control', 'no-store');
    if (!bearerMatches(ctx.get('Authorization'), token)) {
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.status = 401;
      ctx.body = { message: 'Authentication required' };
      return;
    }
    let body: string;
    try {
      body = await text();
    } catch (err) {
      logger.warn({ err }, 'metrics could not be collected');
      ctx.status = 503;
      ctx.body = { message: 'Metrics unavailable' };
      return;
    }
    ctx.type = METRICS_CONTENT_TYPE;
    ctx.body = body;
  };
}
