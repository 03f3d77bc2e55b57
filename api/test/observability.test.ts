/**
 * What an operator watches (issue 36): `/livez` and `/readyz` and their registry of named checks,
 * the Prometheus metrics (their format, their routes, who may read them), request ids and client
 * addresses on the log lines, and expected conditions logged without stacks. The real app on its
 * embedded database; the database outage is test/outage-logs.test.ts.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { CampusApp } from '../src/app';
import { exposition, processMetrics } from '../src/platform/metrics';
import { startMetricsServer } from '../src/platform/metrics-server';
import { eventually } from './eventually';
import { captureLogs } from './log-capture';
import { openStream } from './stream-client';
import { useTestApp } from './test-app';

const METRICS_TOKEN = 'metrics-token-for-the-observability-tests-0123456789';
const t = useTestApp({ metrics: { port: undefined, host: '127.0.0.1', token: METRICS_TOKEN } });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The app's metrics, as Prometheus scrapes them from the API port with the token. */
async function scrape(client = t.http()): Promise<string> {
  const res = await client.get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
  expect(res.status).toBe(200);
  return res.text;
}

/** The value of one series in an exposition (0 when it is absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '').split(/,(?=[a-zA-Z_]+=")/);
    if (wanted.every((pair) => have.includes(pair))) return Number(match[3]);
  }
  return 0;
}

describe('health', () => {
  test('when /livez is asked, under / or /api/, then it answers 200 and no proxy may cache it', async () => {
    for (const url of ['/livez', '/api/livez']) {
      const res = await t.http().get(url).expect(200);
      expect(res.body).toEqual({ live: true });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  test('when the database answers and the event stream is followed, then /readyz is 200 and names each check', async () => {
    await t.caughtUp();
    for (const url of ['/readyz', '/api/readyz']) {
      const res = await t.http().get(url).expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        ready: true,
        checks: { database: { ready: true }, eventStream: { ready: true } },
      });
    }
  });

  test('when a registered check fails, then /readyz is 503 naming it and why, until it passes or goes', async () => {
    await t.caughtUp();
    let pending = 2;
    const remove = t.context.readiness.add('migrations', () =>
      pending === 0 ? true : { ready: false, reason: `${pending} migrations to run` },
    );
    try {
      const res = await t.http().get('/readyz').expect(503);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        ready: false,
        checks: {
          database: { ready: true },
          eventStream: { ready: true },
          migrations: { ready: false, reason: '2 migrations to run' },
        },
      });
      pending = 0;
      expect((await t.http().get('/readyz').expect(200)).body.checks.migrations).toEqual({
        ready: true,
      });
      pending = 1;
      await t.http().get('/api/readyz').expect(503);
    } finally {
      remove();
    }
    const res = await t.http().get('/readyz').expect(200);
    expect(Object.keys(res.body.checks)).toEqual(['database', 'eventStream']);
  });

  test('when a check throws, then it fails without its error in the public answer', async () => {
    const remove = t.context.readiness.add('broken', () => {
      throw new Error('secret internals at mongodb://user:pw@db');
    });
    try {
      const res = await t.http().get('/readyz').expect(503);
      expect(res.body.checks.broken).toEqual({ ready: false, reason: 'the check failed' });
      expect(res.text).not.toContain('secret internals');
    } finally {
      remove();
    }
  });

  test('when the event stream fails while the database answers, then /readyz is 503 for the stream alone, and 200 once it follows again', async () => {
    await t.caughtUp();
    const admin = t.database.connection.getClient().db('admin');
    // Every change stream read and open fails (BadValue: no resume), as a broken stream would.
    await admin.command({
      configureFailPoint: 'failCommand',
      mode: 'alwaysOn',
      data: { failCommands: ['getMore', 'aggregate'], errorCode: 2 },
    });
    try {
      expect(await eventually(async () => (await t.http().get('/readyz')).status === 503)).toBe(
        true,
      );
      const res = await t.http().get('/readyz').expect(503);
      expect(res.body.checks.database).toEqual({ ready: true });
      expect(res.body.checks.eventStream.ready).toBe(false);
      expect(res.body.checks.eventStream.reason).toMatch(/not followed/);
    } finally {
      await admin.command({ configureFailPoint: 'failCommand', mode: 'off' });
    }
    expect(await eventually(async () => (await t.http().get('/readyz')).status === 200)).toBe(true);
  });

  test('when a check never answers, then the others are still reported (each has its own time limit)', async () => {
    // Reported by CHECK_TIMEOUT_MS at the latest; nothing here measures how long that took.
    const remove = t.context.readiness.add('hung', () => new Promise<boolean>(() => undefined));
    try {
      const res = await t.http().get('/readyz').expect(503);
      expect(res.body.checks.hung.ready).toBe(false);
      expect(res.body.checks.hung.reason).toMatch(/no answer within/);
      expect(res.body.checks.database).toEqual({ ready: true });
    } finally {
      remove();
    }
  });

  test('when /api/settings is asked, then it keeps its own caching (the spec’s 60 s settings cache)', async () => {
    const res = await t.http().get('/api/settings').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
  });
});

describe('metrics', () => {
  test('when scraped with the token, then they are in Prometheus text format with the app’s and the route’s series', async () => {
    const text = await scrape();
    expect(text).toMatch(/^# HELP campus_http_requests_total /m);
    expect(text).toMatch(/^# TYPE campus_http_requests_total counter$/m);
    expect(text).toMatch(/^# TYPE campus_http_request_duration_seconds histogram$/m);
    expect(text).toMatch(/^# TYPE campus_db_command_duration_seconds histogram$/m);
    for (const name of [
      'campus_rate_limit_refusals_total',
      'campus_live_streams_open',
      'campus_mail_attempts_total',
      'campus_mail_queue_mails',
      'campus_cache_lookups_total',
      'campus_media_images_waiting',
      'campus_media_workers',
      'campus_media_images_processed_total',
      'campus_media_processing_seconds_total',
      'campus_ready',
    ])
      expect(text).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
    const res = await t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('when a request is answered, then its route’s counter grows by one, under the route’s pattern, not its path', async () => {
    const member = await t.createMember();
    const settings = { method: 'GET', route: '/api/settings', status: '200' };
    const profile = { method: 'GET', route: '/api/users/:id', status: '200' };
    const before = await scrape();
    await t.http().get('/api/settings').expect(200);
    await t.http().get(`/api/users/${member.id}`).set('Authorization', member.auth).expect(200);
    const after = await scrape();
    expect(sample(after, 'campus_http_requests_total', settings)).toBe(
      sample(before, 'campus_http_requests_total', settings) + 1,
    );
    expect(sample(after, 'campus_http_requests_total', profile)).toBe(
      sample(before, 'campus_http_requests_total', profile) + 1,
    );
    expect(
      sample(after, 'campus_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/users/:id',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain(`route="/api/users/${member.id}"`);
    // The database's commands are timed by name.
    expect(
      sample(after, 'campus_db_command_duration_seconds_count', { command: 'find' }),
    ).toBeGreaterThan(0);
    // A preflight, answered by CORS before any route runs, is filed under the route it asks for.
    await t
      .http()
      .options(`/api/users/${member.id}`)
      .set('Origin', 'http://localhost:3000')
      .set('Access-Control-Request-Method', 'PUT')
      .expect(204);
    expect(
      sample(await scrape(), 'campus_http_requests_total', {
        method: 'OPTIONS',
        route: '/api/users/:id',
        status: '204',
      }),
    ).toBe(1);
    // An unknown path is one series, whatever the path.
    await t.http().get('/no/such/path/12345').expect(404);
    const unknown = await scrape();
    expect(unknown).not.toContain('/no/such/path');
    expect(
      sample(unknown, 'campus_http_requests_total', {
        method: 'GET',
        route: 'unmatched',
        status: '404',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  test('when a rate limit refuses, then the refusal is counted for its route', async () => {
    const limited = t.another({
      metrics: t.config.metrics,
      rateLimits: { passwordReset: { max: 1, windowMs: 60 * 60_000 } },
    });
    const route = '/api/auth/forgot-password';
    const before = sample(await scrape(limited.http()), 'campus_rate_limit_refusals_total', {
      route,
    });
    const email = `nobody.${Date.now()}@campus.edu`;
    await limited.http().post(route).send({ email });
    const refused = await limited.http().post(route).send({ email });
    expect(refused.status).toBe(429);
    const after = await scrape(limited.http());
    expect(sample(after, 'campus_rate_limit_refusals_total', { route })).toBe(before + 1);
  });

  test('when a token is asked for again, then the cache counts a hit, and the mail queue and readiness are read', async () => {
    const member = await t.createMember();
    const hits = () =>
      scrape().then((text) =>
        sample(text, 'campus_cache_lookups_total', { cache: 'tokens', result: 'hit' }),
      );
    const before = await hits();
    await t.http().get('/api/auth/me').set('Authorization', member.auth).expect(200);
    await t.http().get('/api/auth/me').set('Authorization', member.auth).expect(200);
    expect(await hits()).toBeGreaterThan(before);
    const text = await scrape();
    expect(text).toMatch(/^campus_mail_queue_mails\{state="queued"\} \d+$/m);
    expect(text).toMatch(/^campus_mail_attempts_total\{outcome="sent"\} \d+$/m);
    expect(sample(text, 'campus_ready', { check: 'database' })).toBe(1);
  });

  test('when no token is configured, then /metrics is not served on the API port; without the right token it is refused', async () => {
    const open = t.another({ metrics: { port: undefined, host: '127.0.0.1', token: undefined } });
    await open.http().get('/metrics').expect(404);
    const missing = await t.http().get('/metrics').expect(401);
    expect(missing.text).not.toContain('campus_');
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    await t.http().get('/metrics').set('Authorization', 'Bearer not-the-token').expect(401);
    await t.http().get('/metrics').set('Authorization', METRICS_TOKEN).expect(401);
    // The gateway passes /api/ on: there is no metrics route there.
    await t.http().get('/api/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(404);
  });

  test('when served on a port of their own, then that port answers /metrics only, with the token when one is set', async () => {
    const { logger } = captureLogs('silent');
    const app = t.another({ metrics: { port: undefined, host: '127.0.0.1', token: undefined } });
    const text = () => exposition([app.app.metrics.registry]);
    const open = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      token: undefined,
      text,
      logger,
    });
    const guarded = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      token: METRICS_TOKEN,
      text,
      logger,
    });
    try {
      const base = `http://127.0.0.1:${open.port}`;
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^# TYPE campus_http_requests_total counter$/m);
      expect((await fetch(`${base}/api/settings`)).status).toBe(404);
      expect((await fetch(`${base}/livez`)).status).toBe(404);
      const url = `http://127.0.0.1:${guarded.port}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      const allowed = await fetch(url, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain('campus_http_requests_total');
    } finally {
      await open.close();
      await guarded.close();
    }
  });

  test('when the Grafana dashboard is read, then every metric it draws is one the API exposes', async () => {
    const dashboard = await fs.readFile(
      path.resolve(__dirname, '../../docs/grafana-campus.json'),
      'utf8',
    );
    const exprs = [...dashboard.matchAll(/"expr": "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
    expect(exprs.length).toBeGreaterThan(8);
    const used = new Set(
      exprs.flatMap((expr) =>
        [...expr.matchAll(/\b((?:campus|nodejs|process)_\w+)/g)].map((m) => m[1]!),
      ),
    );
    const text = await exposition([
      (t.another({}).app as CampusApp).metrics.registry,
      processMetrics(),
    ]);
    const exposed = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
    const missing = [...used].filter(
      (name) => !exposed.has(name) && !exposed.has(name.replace(/_(bucket|sum|count)$/, '')),
    );
    expect(missing).toEqual([]);
  });
});

describe('request ids and client addresses', () => {
  test('when no proxy is trusted, then every answer carries a new request id, and one sent by the client is ignored', async () => {
    const a = await t.http().get('/api/settings').expect(200);
    const b = await t
      .http()
      .get('/api/settings')
      .set('X-Request-Id', 'chosen-by-client')
      .expect(200);
    expect(a.headers['x-request-id']).toMatch(UUID);
    expect(b.headers['x-request-id']).toMatch(UUID);
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
    // Errors too: the id is set before anything can fail.
    const missing = await t.http().get('/api/posts').expect(401);
    expect(missing.headers['x-request-id']).toMatch(UUID);
  });

  test('when the trusted proxy sends a request id, then it is echoed and on every line of that request, with the address the proxy saw', async () => {
    const logs = captureLogs('debug');
    const proxied = t.another({ trustProxyHops: 1 }, undefined, logs.logger);
    const remove = proxied.app.appContext.readiness.add('logs-inside', () => {
      throw new Error('logged within the request');
    });
    try {
      const res = await proxied
        .http()
        .get('/readyz')
        .set('X-Request-Id', '0f3c9a7e5b1d4c2a8e6f0b9d7c5a3e1f')
        .set('X-Forwarded-For', '203.0.113.7')
        .expect(503);
      expect(res.headers['x-request-id']).toBe('0f3c9a7e5b1d4c2a8e6f0b9d7c5a3e1f');
    } finally {
      remove();
    }
    const ofRequest = logs.lines.filter((l) => l.reqId === '0f3c9a7e5b1d4c2a8e6f0b9d7c5a3e1f');
    expect(ofRequest.map((l) => l.msg).sort()).toEqual(['readiness check failed', 'request']);
    const line = ofRequest.find((l) => l.msg === 'request')!;
    expect(line).toMatchObject({ ip: '203.0.113.7', route: '/readyz', status: 503, method: 'GET' });
    // A probe every few seconds: its line is a debug line.
    expect(line.levelName).toBe('debug');

    // A malformed id from the proxy is replaced, not logged.
    const odd = await proxied
      .http()
      .get('/api/settings')
      .set('X-Request-Id', 'has spaces; and more');
    expect(odd.headers['x-request-id']).toMatch(UUID);
    const settingsLine = logs.lines.find((l) => l.reqId === odd.headers['x-request-id']);
    expect(settingsLine).toMatchObject({
      msg: 'request',
      route: '/api/settings',
      levelName: 'info',
    });
  });

  test('when no proxy is trusted, then X-Forwarded-For is ignored and the socket address is logged', async () => {
    const logs = captureLogs('info');
    const direct = t.another({ trustProxyHops: 0 }, undefined, logs.logger);
    const res = await direct
      .http()
      .get('/api/settings')
      .set('X-Forwarded-For', '203.0.113.7')
      .set('X-Request-Id', 'forged-id')
      .expect(200);
    const line = logs.lines.find((l) => l.msg === 'request')!;
    expect(line.reqId).toBe(res.headers['x-request-id']);
    expect(line.reqId).not.toBe('forged-id');
    expect(line.ip).not.toBe('203.0.113.7');
    expect(line.ip).toMatch(/127\.0\.0\.1|::1/);
  });
});

describe('live streams in the logs and the metrics', () => {
  let listener: http.Server;
  let baseUrl = '';
  let app: CampusApp;
  const logs = captureLogs('debug');

  beforeAll(async () => {
    app = t.another({ metrics: t.config.metrics }, undefined, logs.logger).app;
    listener = http.createServer(app.callback());
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
  });

  test('when a member closes their live stream, then it is counted while open and its end is no warning', async () => {
    const member = await t.createMember();
    const open = () =>
      fetch(`${baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
        .then((res) => res.text())
        .then((text) => sample(text, 'campus_live_streams_open'));
    const stream = await openStream(baseUrl, member.auth);
    expect(stream.status).toBe(200);
    await stream.next((e) => e.event === 'unread');
    expect(await open()).toBe(1);
    const warningsBefore = logs.atLeast('warn').length;
    stream.close();
    await stream.ended;
    expect(await eventually(async () => (await open()) === 0)).toBe(true);
    const closedLine = () =>
      logs.lines.find((l) => l.msg.startsWith('the client closed') && l.path === '/api/stream');
    expect(await eventually(() => closedLine() !== undefined)).toBe(true);
    expect(closedLine()).toMatchObject({ levelName: 'debug', code: 'ERR_STREAM_PREMATURE_CLOSE' });
    expect(closedLine()!.err).toBeUndefined();
    expect(logs.atLeast('warn').slice(warningsBefore)).toEqual([]);
  });
});
