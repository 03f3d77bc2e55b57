/**
 * The API's routes are registered from the call table (@campus/contracts `calls`): each route is
 * a call's method and path, its input read with the call's schemas (path parameters, then the
 * query, then the body: a 404 or a 400 with the first problem) and its answer sent with the call's
 * success status. A handler's answer is typed by the call's response schema, so a route and the
 * clients that call it through the same table cannot disagree unnoticed; the API's tests check
 * every real answer against the same schema (test/contract-responses.test.ts).
 */
import type Router from '@koa/router';
import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { Middleware } from 'koa';
import type { z } from 'zod';
import type { Call } from '@campus/contracts';
import type { AppState } from './auth';
import { badRequest, notFound } from './errors';
import { chain } from './http';
import { parseInput } from './validation';

export type RouteContext = RouterContext<AppState>;

/** What a route reads, as the call's schemas parse it. */
export interface CallInput<C extends Call> {
  params: z.output<C['params']>;
  query: C['query'] extends z.ZodType ? z.output<C['query']> : Record<string, never>;
  body: C['body'] extends z.ZodType ? z.output<C['body']> : undefined;
}

/**
 * A handler's answer: the call's response (as its schema reads or writes it), or its JSON as
 * bytes already made (a cached feed or notification page), or nothing for a 204.
 */
type Answer<C extends Call> = z.input<C['response']> | z.output<C['response']> | Buffer | string;

export interface BindOptions {
  /** Middleware run before the input is read: authentication, rate limits. */
  before?: Array<Middleware<AppState>>;
  /** The 404's message when the path parameters name nothing (default: 'Not found'). */
  notFound?: string;
  /** Cache-Control of the answer (default: none set). */
  cacheControl?: string;
  /**
   * Path parameters that are not valid are a 400 with the schema's message (a tag that cannot
   * be one, issue 40), not a 404: for paths that name no stored thing.
   */
  invalidParamsAreBadRequests?: boolean;
}

/** Parsed query strings kept per route, at most this many (the same few come again and again). */
const QUERIES_KEPT = 1_000;

/** Registers `call` on `router`: its input parsed, its answer sent with its status. */
export function bindCall<C extends Call>(
  router: Router<AppState>,
  call: C,
  options: BindOptions,
  handler: (ctx: RouteContext, input: CallInput<C>) => Promise<Answer<C> | void>,
): void {
  const { discriminator } = call;
  const [key, value] = discriminator ? Object.entries(discriminator)[0]! : [];
  const queries = new Map<string, Readonly<Record<string, unknown>>>();
  const readQuery = (ctx: RouteContext) => {
    if (!call.query) return {};
    const kept = queries.get(ctx.querystring);
    if (kept) return kept;
    const parsed = Object.freeze(parseInput(call.query, ctx.query));
    if (queries.size >= QUERIES_KEPT) queries.clear();
    queries.set(ctx.querystring, parsed);
    return parsed;
  };
  const respond: RouterMiddleware<AppState> = async (ctx) => {
    const params = call.params.safeParse(ctx.params);
    if (!params.success) {
      if (options.invalidParamsAreBadRequests)
        throw badRequest(params.error.issues[0]?.message ?? 'Invalid path');
      throw notFound(options.notFound ?? 'Not found');
    }
    const query = readQuery(ctx);
    const body =
      call.body && 'parse' in call.body ? parseInput(call.body, ctx.request.body) : undefined;
    if (options.cacheControl) ctx.set('Cache-Control', options.cacheControl);
    const answer = await handler(ctx, { params: params.data, query, body } as CallInput<C>);
    ctx.status = call.status;
    if (call.status === 204) return;
    if (typeof answer === 'string' || Buffer.isBuffer(answer)) ctx.type = 'application/json';
    ctx.body = answer;
  };
  const stack = [...(options.before ?? []), respond] as Array<Middleware<AppState>>;
  if (key === undefined) {
    router.register(call.path, [call.method], stack);
    return;
  }
  // A call told apart by a query parameter answers only with it; the others on its path go on.
  const run = chain(stack);
  router.register(
    call.path,
    [call.method],
    [(ctx, next) => (ctx.query[key] === value ? run(ctx, next) : next())],
  );
}
