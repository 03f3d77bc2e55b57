/**
 * The middleware every app runs before its routes (request log lines, JSON-only bodies, the
 * security headers) and the one dispatch of its routers (`routeTree`).
 */
import type Router from '@koa/router';
import type { Middleware, ParameterizedContext } from 'koa';
import helmet from 'koa-helmet';
import { calls } from '@campus/contracts';
import type { AppState } from './auth';
import { HttpError } from './errors';
import { loggablePath, type Logger } from './logger';

/** The routes whose body is not JSON: the calls that read a multipart upload (the call table). */
export const MULTIPART_PATHS: ReadonlySet<string> = new Set(
  Object.values(calls)
    .filter((call) => {
      const body = (call as { body?: object }).body;
      return body !== undefined && 'multipart' in body;
    })
    .map((call) => call.path),
);

/** The pattern of the route that answers `method path` (`/api/users/:id`), if any does. */
export type PatternOf = (path: string, method: string) => string | undefined;

/**
 * The route a request matched, as its pattern (`/api/users/:id`, the call table's path), never
 * the raw path: what metrics count by (a label per user id would be a series per user). A request
 * answered before its route ran (a 503 while the database is away, a CORS preflight) is filed
 * under the route that would have answered it (`patternOf`, the route tree's); `unmatched`: no
 * route would (a 404).
 */
export function routeOf(ctx: ParameterizedContext<AppState>, patternOf?: PatternOf): string {
  const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
  if (matched !== undefined) return String(matched);
  return ctx.state.route ?? patternOf?.(ctx.path, ctx.method) ?? 'unmatched';
}

/**
 * One line per request, when it ends: what was asked, what was answered and for whom, with the
 * client's address as TRUST_PROXY_HOPS decides (Koa's `ctx.ip`: the socket's, or the address the
 * outermost trusted proxy saw) and the request id (`reqId`, request-context.ts). Health checks
 * and metrics scrapes, every few seconds, are logged at debug level.
 */
export function requestLog(logger: Logger, patternOf?: PatternOf): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const line = {
        method: ctx.method,
        path: loggablePath(ctx.path),
        route: routeOf(ctx, patternOf),
        status: ctx.status,
        ms: Math.round(performance.now() - started),
        ip: ctx.ip,
        userId: ctx.state.user?.id,
      };
      if (ctx.state.probe) logger.debug(line, 'request');
      else logger.info(line, 'request');
    }
  };
}

/** Bodies are JSON everywhere but on the upload routes: anything else is a 415. */
export const requireJsonBodies: Middleware = async (ctx, next) => {
  const hasBody = (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
  if (hasBody && !MULTIPART_PATHS.has(ctx.path) && !ctx.is('application/json')) {
    throw new HttpError(415, 'Request bodies must be JSON (Content-Type: application/json)');
  }
  return next();
};

/**
 * Helmet's headers, worked out once: the options are fixed, so every response gets the same
 * headers, set here without running helmet's dozen middlewares per request.
 */
export function securityHeaders(options: Parameters<typeof helmet>[0]): Middleware {
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
export function chain(middlewares: Array<Middleware<AppState>>): Middleware<AppState> {
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
export function routeTree(
  routers: Array<Router<AppState>>,
): Middleware<AppState> & { patternOf: PatternOf } {
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
  const patternOf: PatternOf = (path, method) => {
    const key = routeKey(path);
    for (const { router, keys } of filed) {
      if (keys !== 'any' && !keys.has(key)) continue;
      // HEAD is answered by the GET route; a preflight (OPTIONS) is filed under any method's.
      const { pathAndMethod, path: onPath } = router.match(
        path,
        method === 'HEAD' ? 'GET' : method,
      );
      const layers = method === 'OPTIONS' ? onPath : pathAndMethod;
      const route = layers.findLast((layer) => layer.methods.length > 0);
      if (route) return String(route.path);
    }
    return undefined;
  };
  // Every route, as a router's middleware shows them (`.router.stack`), for whoever lists them.
  return Object.assign(dispatch, {
    router: { stack: routers.flatMap((r) => r.stack) },
    patternOf,
  });
}
