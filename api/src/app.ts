import cors from '@koa/cors';
import Koa, { type Context } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { createAppContext } from './app-context';
import type { AppContext, Clock, HttpContext } from './context';
import type { Models } from './models';
import { accountApplicationRoutes } from './modules/account-applications/routes';
import { accountLifecycleRoutes } from './modules/account-lifecycle/routes';
import { adminRoutes } from './modules/admin/routes';
import { appealRoutes } from './modules/appeals/routes';
import { analyticsRoutes } from './modules/analytics/routes';
import { authRoutes } from './modules/auth/routes';
import { bookmarkRoutes } from './modules/bookmarks/routes';
import { commentRoutes } from './modules/comments/routes';
import { feedbackRoutes } from './modules/feedback/routes';
import { followRoutes } from './modules/follows/routes';
import { invitationRoutes } from './modules/invitations/routes';
import { mentionRoutes } from './modules/mentions/routes';
import { notificationRoutes } from './modules/notifications/routes';
import { postRoutes } from './modules/posts/routes';
import { profileRoutes } from './modules/profiles/routes';
import { closeReportsOfGoneContent } from './modules/reports/gone-targets';
import { reportRoutes } from './modules/reports/routes';
import { safetyRoutes } from './modules/safety/routes';
import { settingsRoutes } from './modules/settings/routes';
import { createStreamHub } from './modules/stream/create';
import type { StreamHub } from './modules/stream/hub';
import { streamRoutes } from './modules/stream/routes';
import { uploadRoutes } from './modules/uploads/routes';
import { mediaRoutes } from './modules/media/routes';
import { sessionEnded } from './modules/sessions/browser-sessions';
import { sessionRoutes } from './modules/sessions/routes';
import { createAuthenticator } from './modules/users/authenticate';
import { requireAuth, type AppState } from './platform/auth';
import { userRoutes } from './modules/users/routes';
import { searchRoutes } from './modules/search/routes';
import { tagRoutes } from './modules/tags/routes';
import type { Config } from './platform/config';
import type { Database } from './platform/db';
import { assertFromOurPages } from './platform/csrf';
import { errorMiddleware, logResponseError } from './platform/errors';
import { healthChecks } from './platform/health';
import { requestLog, requireJsonBodies, routeTree, securityHeaders } from './platform/http';
import type { InFlight } from './platform/in-flight';
import type { Logger } from './platform/logger';
import type { MailTransport } from './platform/mailer';
import { createMetrics, exposition, metricsEndpoint, type AppMetrics } from './platform/metrics';
import { createRateLimits } from './platform/rate-limit';
import { REQUEST_ID_HEADER, requestIds } from './platform/request-context';

export interface AppDeps {
  config: Config;
  logger: Logger;
  /** How mail leaves (default: SMTP_URL, else the outbox directory under DATA_DIR). */
  mailTransport?: MailTransport;
  jwtSecret: string;
  /**
   * The database the app works on: its models (bound to its own connection, see models.ts) and
   * its reachability.
   */
  database: Pick<Database<Models>, 'models' | 'requireReachable' | 'reachable' | 'observeCommands'>;
  /** Counts requests being handled, for a graceful shutdown (main.ts). */
  inFlight?: InFlight;
  /**
   * What `GET /metrics` answers on the API port (METRICS_TOKEN): by default this app's metrics;
   * main.ts adds the process's own, or asks the primary for every process's.
   */
  metricsText?: () => Promise<string>;
  /** The app's time (default: the system's; tests move a clock of their own). */
  clock?: Clock;
}

/**
 * The Koa app with the context it is built around (`appContext`: what every use case takes) and
 * `close()` to let go of what it holds.
 */
export type CampusApp = Koa<AppState> & {
  /** (Koa's own `app.context` is the prototype of its request contexts: this is another.) */
  readonly appContext: AppContext;
  readonly models: Models;
  readonly caches: AppContext['caches'];
  readonly events: AppContext['events'];
  /** The live streams (`GET /api/stream`) open on this app; `close()` ends them. */
  readonly streams: StreamHub;
  /** The app's Prometheus metrics (platform/metrics.ts). */
  readonly metrics: AppMetrics;
  /** Resolves once the app follows the outbox: every later commit of any process reaches it. */
  ready(): Promise<void>;
  /** Resolves once every commit made before the call, by any process, has reached the app. */
  caughtUp(): Promise<void>;
  /** Ends the live streams and stops following events; the database belongs to the caller. */
  close(): Promise<void>;
};

export function createApp(deps: AppDeps): CampusApp {
  const { config, logger, database, inFlight } = deps;
  // Behind N proxies the client is the address the outermost proxy saw (Koa takes the leftmost of
  // the last N X-Forwarded-For entries); with none, the header (anyone can write it) is ignored.
  const app = new Koa<AppState>({
    proxy: config.trustProxyHops > 0,
    maxIpsCount: config.trustProxyHops,
  });
  const { context, eventStream } = createAppContext(deps);
  const { models, caches } = context;
  const unsubscribe = caches.subscribe(context.events);
  // Following starts now; requests need not wait for it (a failure is retried and logged).
  eventStream.ready().catch(() => undefined);
  // This process sends queued mail too (any process may: each mail is claimed by one).
  context.mailQueue.start();
  // And deletes the images and uploads that expired or were deleted (modules/media/janitor.ts).
  const stopMediaJanitor = context.media.janitor.start(context.events);
  // And closes the reports of what its commits deleted (issue 41: modules/reports/gone-targets.ts).
  const goneReports = closeReportsOfGoneContent(context, context.events);
  // Accounts, posts and applications stored before search terms, tags and applicant keys get
  // theirs from the migrations (src/migrations/0001-post-tags.ts, 0002-people-search-terms.ts,
  // 0003-applicants.ts), once, before any process listens.
  // Counted in the database, so every API process shares them; the member limiters are shared by
  // every route of an action (liking posts and comments count together).
  const rateLimits = createRateLimits(models.RateLimitWindow, config.memberLimits, () =>
    context.clock.now().getTime(),
  );
  const allowedOrigins = new Set(config.allowedOrigins);
  const http: HttpContext = {
    ...context,
    requireAuth: requireAuth({
      tokens: context.tokens,
      loadUser: createAuthenticator(context, caches.accounts),
      sessionEnded: (sessionId, userId) =>
        sessionEnded(context, caches.sessions, sessionId, userId),
      // Writes authenticated by the session cookie come from the allowed origins only.
      checkCookieWrite: (ctx) => assertFromOurPages(ctx, allowedOrigins),
    }),
    limits: rateLimits.members,
    rateLimits,
  };
  // Live streams: the app's events fanned out to its open streams (modules/stream).
  const streams = createStreamHub(context, { ready: eventStream.ready });
  // Every route, from the call table: filed by path (platform/http.ts `routeTree`).
  const routes = routeTree([
    authRoutes(http),
    sessionRoutes(http),
    accountLifecycleRoutes(http),
    userRoutes(http),
    // Before profiles: `/api/users/mention-suggestions` is not a member's id.
    mentionRoutes(http),
    profileRoutes(http),
    followRoutes(http),
    safetyRoutes(http),
    uploadRoutes(http),
    mediaRoutes(http),
    feedbackRoutes(http),
    accountApplicationRoutes(http),
    settingsRoutes(http),
    postRoutes(http),
    commentRoutes(http),
    bookmarkRoutes(http),
    searchRoutes(http),
    tagRoutes(http),
    notificationRoutes(http),
    analyticsRoutes(http),
    streamRoutes(http, streams),
    // Admin operations: invitations, members' reports, the /api/admin routes.
    invitationRoutes(http),
    reportRoutes(http),
    appealRoutes(http),
    adminRoutes(http),
  ]);
  // Ready to serve members: the database answers and the app hears every process's writes.
  const stopChecks = [
    context.readiness.add('database', () =>
      database.reachable ? true : { ready: false, reason: 'the database is unreachable' },
    ),
    context.readiness.add('eventStream', () =>
      eventStream.following()
        ? true
        : { ready: false, reason: "other processes' writes are not followed yet (retrying)" },
    ),
  ];
  const metrics = createMetrics({
    liveStreams: () => streams.size,
    imageProcessing: () => context.media.pool.counts(),
    mailAttempts: () => context.mailQueue.attempts(),
    mailDepth: () => context.mailQueue.depth(),
    cacheCounts: () => caches.counts(),
    readiness: () => context.readiness.report(),
    databaseReachable: () => database.reachable,
    patternOf: routes.patternOf,
    logger,
  });
  const stopTimingCommands = database.observeCommands(metrics.command);
  // Errors after the response started reach Koa itself: a client that hung up (every closed live
  // stream, an upload cut off) is a debug line, anything else a warning.
  app.on('error', (err: unknown, ctx?: Context) => logResponseError(logger, err, ctx));

  if (inFlight) app.use(inFlight.middleware);
  app.use(requestIds(config.trustProxyHops));
  app.use(requestLog(logger, routes.patternOf));
  app.use(metrics.http);
  app.use(errorMiddleware(logger));
  app.use(securityHeaders({ crossOriginResourcePolicy: { policy: 'cross-origin' } }));
  // Before the database is looked at: they answer during an outage too.
  app.use(healthChecks(context.readiness));
  app.use(
    metricsEndpoint(
      config.metrics.token,
      deps.metricsText ?? (() => exposition([metrics.registry])),
      logger,
    ),
  );
  app.use(
    cors({
      // Only the configured origins get CORS headers; any other origin is never reflected.
      origin: (ctx) => (allowedOrigins.has(ctx.get('Origin')) ? ctx.get('Origin') : ''),
      credentials: true,
      // Last-Event-ID: a live stream reconnecting from another origin (the shell's) says where it was.
      // X-Requested-With: the kit's proof that a cookie-authenticated write is ours (csrf.ts).
      allowHeaders: ['Authorization', 'Content-Type', 'Last-Event-ID', 'X-Requested-With'],
      exposeHeaders: ['Retry-After', REQUEST_ID_HEADER],
      allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      maxAge: 600,
    }),
  );
  app.use(database.requireReachable);
  app.use(context.storage.serve());
  app.use(context.media.store.serve());
  app.use(requireJsonBodies);
  app.use(
    koaBody({
      json: true,
      jsonLimit: config.jsonBodyLimit,
      multipart: false,
      urlencoded: false,
      text: false,
      patchNode: false,
      // DELETE too: deleting an account carries the member's password.
      parsedMethods: [
        HttpMethodEnum.POST,
        HttpMethodEnum.PUT,
        HttpMethodEnum.PATCH,
        HttpMethodEnum.DELETE,
      ],
    }),
  );
  app.use(routes);
  const close = async () => {
    streams.close();
    unsubscribe();
    stopTimingCommands();
    for (const stop of stopChecks) stop();
    await context.mailQueue.close();
    stopMediaJanitor();
    await context.media.janitor.close();
    goneReports.stop();
    await goneReports.settled();
    await context.media.pool.close();
    await eventStream.close();
  };
  return Object.assign(app, {
    appContext: context,
    models,
    caches,
    events: context.events,
    streams,
    metrics,
    ready: eventStream.ready,
    caughtUp: eventStream.caughtUp,
    close,
  });
}
