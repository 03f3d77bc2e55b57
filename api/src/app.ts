import { randomUUID } from 'node:crypto';
import path from 'node:path';
import cors from '@koa/cors';
import type Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import helmet from 'koa-helmet';
import { accountApplicationRoutes } from './modules/account-applications/routes';
import { accountLifecycleRoutes } from './modules/account-lifecycle/routes';
import { adminRoutes } from './modules/admin/routes';
import { invitationRoutes } from './modules/invitations/routes';
import { reportRoutes } from './modules/reports/routes';
import { analyticsRoutes } from './modules/analytics/routes';
import { authRoutes } from './modules/auth/routes';
import { commentRoutes } from './modules/comments/routes';
import { feedbackRoutes } from './modules/feedback/routes';
import { followRoutes } from './modules/follows/routes';
import { notificationRoutes } from './modules/notifications/routes';
import { createStreamHub } from './modules/stream/create';
import type { StreamHub } from './modules/stream/hub';
import { streamRoutes } from './modules/stream/routes';
import { backfillSearchTerms } from './modules/users/search-terms';
import { postRoutes } from './modules/posts/routes';
import { profileRoutes } from './modules/profiles/routes';
import { settingsRoutes } from './modules/settings/routes';
import { uploadRoutes } from './modules/uploads/routes';
import { userRoutes } from './modules/users/routes';
import { createTokenService, requireAuth, type AppState } from './platform/auth';
import type { Config } from './platform/config';
import type { Database } from './platform/db';
import { errorMiddleware, HttpError } from './platform/errors';
import { EventBus } from './platform/event-bus';
import { followEventStream } from './platform/event-stream';
import { createTransactions, type Transactions } from './platform/transactions';
import type { DomainEvent } from './domain-events';
import type { InFlight } from './platform/in-flight';
import { loggablePath, type Logger } from './platform/logger';
import type { Mailer } from './platform/mailer';
import { createRateLimits } from './platform/rate-limit';
import { createUploadStorage, type UploadStorage } from './platform/storage';
import { notificationSources } from './notification-sources';
import type { Models } from './models';
import { createReadCaches, type ReadCaches } from './read-caches';
import { createServices, type Services } from './services';

export interface AppDeps {
  config: Config;
  logger: Logger;
  mailer: Mailer;
  jwtSecret: string;
  /**
   * The database the app works on: its models (bound to its own connection, see models.ts) and
   * its reachability.
   */
  database: Pick<Database<Models>, 'models' | 'requireReachable'>;
  /** Counts requests being handled, for a graceful shutdown (main.ts). */
  inFlight?: InFlight;
}

const UPLOAD_PATH = '/api/upload/avatar';

function requestLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.info(
        {
          method: ctx.method,
          path: loggablePath(ctx.path),
          status: ctx.status,
          ms: Math.round(performance.now() - started),
          userId: ctx.state.user?.id,
        },
        'request',
      );
    }
  };
}

/** Bodies are JSON everywhere but on the upload route: anything else is a 415. */
const requireJsonBodies: Middleware = async (ctx, next) => {
  const hasBody = (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
  if (hasBody && ctx.path !== UPLOAD_PATH && !ctx.is('application/json')) {
    throw new HttpError(415, 'Request bodies must be JSON (Content-Type: application/json)');
  }
  return next();
};

/**
 * Helmet's headers, worked out once: the options are fixed, so every response gets the same
 * headers, set here without running helmet's dozen middlewares per request.
 */
function securityHeaders(options: Parameters<typeof helmet>[0]): Middleware {
  const headers: Array<[string, string]> = [];
  const res = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
    getHeader: () => undefined,
  };
  // Helmet sets its headers synchronously, before the promise it answers settles.
  void helmet(options)({ req: {}, res } as never, () => Promise.resolve());
  return (ctx, next) => {
    for (const [name, value] of headers) ctx.res.setHeader(name, value);
    return next();
  };
}

/** Middlewares run one after the other, as if each had been given to `app.use` in turn. */
function chain(middlewares: Array<Middleware<AppState>>): Middleware<AppState> {
  return (ctx, next) => {
    const dispatch = (i: number): Promise<unknown> =>
      i === middlewares.length
        ? Promise.resolve(next())
        : Promise.resolve(middlewares[i]!(ctx, () => dispatch(i + 1)));
    return dispatch(0);
  };
}

/** `/api/posts/12/like` → `/api/posts`: the key routers are filed under (lower case, as routes match). */
function routeKey(path: string): string {
  const first = path.indexOf('/', 1);
  const second = first < 0 ? -1 : path.indexOf('/', first + 1);
  return (second < 0 ? path : path.slice(0, second)).toLowerCase();
}

/**
 * One dispatch for all the routers: each router is filed under the first two segments of its
 * routes' paths (`/api/posts`), so a request runs only the routers that may answer it (in their
 * order), and a path no router knows goes on at once (a 404) instead of through every router. A
 * router with a route whose first two segments are not literal runs for every path.
 */
function routeTree(routers: Array<Router<AppState>>): Middleware<AppState> {
  const keysOf = (router: Router<AppState>): Set<string> | 'any' => {
    const keys = new Set<string>();
    for (const layer of router.stack) {
      if (layer.methods.length === 0) continue; // router.use(): runs only with a matched route
      const key = routeKey(String(layer.path));
      if (/[:(*?[]/.test(key)) return 'any';
      keys.add(key);
    }
    return keys;
  };
  const filed = routers.map((router) => ({ router, keys: keysOf(router) }));
  const group = (key: string | undefined) => {
    const members = filed.filter(
      ({ keys }) => keys === 'any' || (key !== undefined && keys.has(key)),
    );
    return members.length === 0
      ? undefined
      : chain(
          members.flatMap(({ router }) => [
            router.routes() as unknown as Middleware<AppState>,
            router.allowedMethods() as unknown as Middleware<AppState>,
          ]),
        );
  };
  const byKey = new Map<string, Middleware<AppState>>();
  for (const { keys } of filed) {
    if (keys === 'any') continue;
    for (const key of keys) if (!byKey.has(key)) byKey.set(key, group(key)!);
  }
  const rest = group(undefined);
  const dispatch: Middleware<AppState> = (ctx, next) => {
    const run = byKey.get(routeKey(ctx.path)) ?? rest;
    return run ? run(ctx, next) : next();
  };
  // Every route, as a router's middleware shows them (`.router.stack`), for whoever lists them.
  return Object.assign(dispatch, { router: { stack: routers.flatMap((r) => r.stack) } });
}

/**
 * The Koa app with the state it owns: its models and services (on its database's connection),
 * its read caches, and `close()` to let go of them.
 */
export type CampusApp = Koa<AppState> & {
  readonly models: Models;
  readonly services: Services;
  readonly caches: ReadCaches;
  /** The live streams (`GET /api/stream`) open on this app; `close()` ends them. */
  readonly streams: StreamHub;
  /** Uploaded files, kept in the database (GridFS) on the app's connection. */
  readonly storage: UploadStorage;
  /** The app's domain events: its own after their commit, every other process's from the outbox. */
  readonly events: EventBus<DomainEvent>;
  /** The app's transactions and the events they publish (platform/transactions.ts). */
  readonly writes: Transactions<DomainEvent>;
  /** Resolves once the app follows the outbox: every later commit of any process reaches it. */
  ready(): Promise<void>;
  /** Resolves once every commit made before the call, by any process, has reached the app. */
  caughtUp(): Promise<void>;
  /** Ends the live streams and stops following events; the database belongs to the caller. */
  close(): Promise<void>;
};

export function createApp({
  config,
  logger,
  mailer,
  jwtSecret,
  database,
  inFlight,
}: AppDeps): CampusApp {
  // Behind N proxies the client is the address the outermost proxy saw (Koa takes the leftmost of
  // the last N X-Forwarded-For entries); with none, the header (anyone can write it) is ignored.
  const app = new Koa<AppState>({
    proxy: config.trustProxyHops > 0,
    maxIpsCount: config.trustProxyHops,
  });
  const { models } = database;
  const connection = models.User.db;
  // Domain events (src/domain-events.ts): published by the app's transactions, delivered to its
  // subscribers after each commit; other processes' arrive through the outbox's change stream.
  const origin = randomUUID();
  const events = new EventBus<DomainEvent>((err, event) =>
    logger.error({ err, event: event?.type }, 'an event subscriber failed'),
  );
  const writes = createTransactions<DomainEvent>({
    connection,
    Outbox: models.Outbox,
    origin,
    deliver: (published) => events.deliver(published, { local: true }),
  });
  const services = createServices(models, writes);
  const storage = createUploadStorage(connection, config.publicUrl);
  const caches = createReadCaches(config, {
    Post: models.Post,
    User: models.User,
    likes: services.likes,
    reposts: services.reposts,
  });
  const unsubscribe = caches.subscribe(events);
  const eventStream = followEventStream<DomainEvent>({
    Outbox: models.Outbox,
    Position: models.EventPosition,
    consumer: config.instanceName,
    origin,
    deliver: (received) => events.deliver(received, { local: false }),
    reset: () => events.reset(),
    logger,
  });
  // Following starts now; requests need not wait for it (a failure is retried and logged).
  eventStream.ready().catch(() => undefined);
  const tokens = createTokenService({
    secret: jwtSecret,
    issuer: config.jwtIssuer,
    expiresIn: config.jwtExpiresIn,
    verified: caches.tokens,
  });
  const authenticated = requireAuth({
    tokens,
    loadUser: services.users.createAuthenticator({
      adminUserId: config.adminUserId,
      activityThrottleMs: config.activityThrottleMs,
      accounts: caches.accounts,
    }),
  });
  // What presenting posts and comments needs, handed to the routes that present them.
  const reads = { publicUrl: config.publicUrl, feed: caches.feed, authors: caches.authors };
  // Comment pages (post detail) are kept too.
  const postReads = { ...reads, comments: caches.comments };
  const allowedOrigins = new Set(config.allowedOrigins);
  // People search reads each user's search terms; accounts stored before them get theirs now.
  backfillSearchTerms(models.User).catch((err: unknown) =>
    logger.warn({ err }, 'search terms could not be filled in for older accounts'),
  );
  // Live streams: one change stream for all of this app's open streams (modules/stream).
  const streams = createStreamHub(services, {
    events,
    ready: eventStream.ready,
    writes,
    LiveStream: models.LiveStream,
    sources: notificationSources(services, config.publicUrl, caches),
    logger,
    adminUserId: config.adminUserId,
    activityThrottleMs: config.activityThrottleMs,
  });
  // Errors after the response started (e.g. a client that hangs up mid-upload) reach Koa itself.
  app.on('error', (err: unknown) => logger.warn({ err }, 'response error'));

  if (inFlight) app.use(inFlight.middleware);
  app.use(requestLog(logger));
  app.use(errorMiddleware(logger));
  app.use(securityHeaders({ crossOriginResourcePolicy: { policy: 'cross-origin' } }));
  app.use(
    cors({
      // Only the configured origins get CORS headers; any other origin is never reflected.
      origin: (ctx) => (allowedOrigins.has(ctx.get('Origin')) ? ctx.get('Origin') : ''),
      credentials: true,
      // Last-Event-ID: a live stream reconnecting from another origin (the shell's) says where it was.
      allowHeaders: ['Authorization', 'Content-Type', 'Last-Event-ID'],
      exposeHeaders: ['Retry-After'],
      allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      maxAge: 600,
    }),
  );
  app.use(database.requireReachable);
  app.use(storage.serve());
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

  // Counted in the database, so every API process shares them; the member limiters are shared by
  // every route of an action (liking posts and comments count together).
  const rateLimits = createRateLimits(models.RateLimitWindow, config.memberLimits);
  const limits = rateLimits.members;
  const routers = [
    authRoutes(services.auth, authenticated, {
      institutionDomains: config.institutionDomains,
      adminUserId: config.adminUserId,
      bcryptRounds: config.bcryptRounds,
      webUrl: config.webUrl,
      publicUrl: config.publicUrl,
      mailer,
      tokens,
      rateLimits,
      rules: config.rateLimits,
    }),
    accountLifecycleRoutes(services.accountLifecycle, authenticated, {
      bcryptRounds: config.bcryptRounds,
      webUrl: config.webUrl,
      adminUserId: config.adminUserId,
      mailer,
      tokens,
      storage,
      rateLimits,
      rules: config.rateLimits,
    }),
    userRoutes(services.users, authenticated, {
      publicUrl: config.publicUrl,
      storage,
      people: services.people,
    }),
    profileRoutes(services.profiles, authenticated, reads),
    followRoutes(services.follows, authenticated, {
      publicUrl: config.publicUrl,
      limits,
      authors: caches.authors,
    }),
    uploadRoutes(authenticated, {
      storage,
      tempDir: path.join(config.dataDir, 'tmp'),
      maxBytes: config.avatarMaxBytes,
      maxPixels: config.avatarMaxPixels,
      size: config.avatarSize,
      limits,
    }),
    feedbackRoutes(services.feedback, authenticated, {
      adminUserId: config.adminUserId,
      rateLimits,
      rules: config.rateLimits,
    }),
    accountApplicationRoutes(services.accountApplications, {
      adminUserId: config.adminUserId,
      rateLimits,
      rules: config.rateLimits,
    }),
    settingsRoutes(services.settings),
    postRoutes(services.posts, authenticated, { ...postReads, timezone: config.timezone, limits }),
    commentRoutes(services.comments, authenticated, {
      isPostVisible: services.posts.isPostVisible,
      limits,
    }),
    notificationRoutes(
      services.notifications,
      authenticated,
      notificationSources(services, config.publicUrl, caches),
      { timezone: config.timezone, pages: caches.notifications },
    ),
    analyticsRoutes(services.analytics, authenticated, {
      timezone: config.timezone,
      cacheMs: config.readCacheMs,
    }),
    streamRoutes(streams, authenticated, { tokens }),
    // Admin operations (issue 18): invitations, members' reports, the /api/admin routes.
    invitationRoutes(services.invitations, { rateLimits, rules: config.rateLimits }),
    reportRoutes(services.reports, authenticated, { rateLimits, rules: config.rateLimits }),
    adminRoutes(services.admin, authenticated, {
      adminUserId: config.adminUserId,
      webUrl: config.webUrl,
      publicUrl: config.publicUrl,
      mailer,
    }),
  ];
  app.use(routeTree(routers));
  const close = async () => {
    streams.close();
    unsubscribe();
    await eventStream.close();
  };
  return Object.assign(app, {
    models,
    services,
    caches,
    streams,
    storage,
    events,
    writes,
    ready: eventStream.ready,
    caughtUp: eventStream.caughtUp,
    close,
  });
}
