import {
  callPath,
  type AnyCallRoute,
  type CallBody,
  type CallParams,
  type CallQuery,
  type CallResponse,
} from '@campus/contracts';
import { apiRequest, getJson, type ApiRequestOptions } from './api-client';

type Empty = Record<string, never>;
/** An option the call does not take may be left out; one it takes is required unless empty. */
type Field<K extends string, T> = [T] extends [never]
  ? { readonly [P in K]?: undefined }
  : Empty extends T
    ? { readonly [P in K]?: T }
    : { readonly [P in K]: T };

/**
 * Where a call goes: its path parameters and its query (the discriminator is added for you).
 * `cacheBust`: a timestamp sent as `_` after the query, so that no cache between the page and the
 * API answers (spec §7: the feed's first page); the API ignores it, prefetch keys leave it out.
 */
export type CallTargetOptions<R> = Field<'params', CallParams<R>> &
  Field<'query', CallQuery<R>> & { readonly cacheBust?: number };

/** What a call sends: path parameters, query, body (JSON, or FormData for an upload). */
export type CallOptions<R> = CallTargetOptions<R> &
  Field<'body', CallBody<R>> &
  Pick<ApiRequestOptions, 'signal'>;

/** The options argument, left out when the call needs none. */
type OptionsArgument<O> = Empty extends Omit<O, 'signal' | 'on401'> ? [options?: O] : [options: O];

interface LooseOptions {
  params?: Readonly<Record<string, string | number>>;
  query?: Readonly<Record<string, unknown>>;
  cacheBust?: number;
  body?: unknown;
  signal?: AbortSignal;
  on401?: ApiRequestOptions['on401'];
}

/**
 * The path and query string of a call, relative to the API: `callPath`'s path, then the call's
 * discriminator and every query field that has a value, in the order given
 * (`callTarget(callRoutes.commentPage, { params: { id: 3 }, query: { cursor } })` →
 * `/api/posts/3/comments?cursor=...`).
 */
export function callTarget<R extends AnyCallRoute>(
  route: R,
  ...[options]: OptionsArgument<CallTargetOptions<R>>
): string {
  const { params = {}, query = {}, cacheBust } = (options ?? {}) as LooseOptions;
  const path = callPath(route as { name: string; path: string }, params);
  const search = new URLSearchParams(
    'discriminator' in route ? (route.discriminator as Record<string, string>) : undefined,
  );
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  if (cacheBust !== undefined) search.set('_', String(cacheBust));
  const queryString = search.toString();
  return queryString ? `${path}?${queryString}` : path;
}

function requestOf(route: AnyCallRoute, options: LooseOptions | undefined) {
  const { body, signal, on401 } = options ?? {};
  const target = callTarget(route, options as never);
  return { target, options: { method: route.method, body, signal, on401 } };
}

/**
 * Makes a call of the table (`callRoutes` or `calls` of @campus/contracts), typed by it:
 * `callApi(callRoutes.likePost, { params: { id } })` answers `Promise<LikeResponse>`. Built on
 * `apiRequest`, with its rules: a failure rejects with an ApiError ("STATUS: body"), a 401/403
 * outside login and registration signs the member out, FormData goes as multipart. With
 * `on401: 'returnNull'`, a 401 answers null instead of signing out.
 */
export function callApi<R extends AnyCallRoute>(
  route: R,
  options: CallOptions<R> & { readonly on401: 'returnNull' },
): Promise<CallResponse<R> | null>;
export function callApi<R extends AnyCallRoute>(
  route: R,
  ...options: OptionsArgument<CallOptions<R> & { readonly on401?: 'logout' }>
): Promise<CallResponse<R>>;
export async function callApi(route: AnyCallRoute, options?: LooseOptions): Promise<unknown> {
  const request = requestOf(route, options);
  return apiRequest(request.target, request.options);
}

/**
 * The default read of a GET call (spec §7, `getJson`): a 401/403 answers null after signing the
 * member out, any other failure rejects with the "STATUS: body" error.
 */
export function readCall<R extends AnyCallRoute & { readonly method: 'GET' }>(
  route: R,
  ...options: OptionsArgument<CallTargetOptions<R> & Pick<ApiRequestOptions, 'signal' | 'on401'>>
): Promise<CallResponse<R> | null>;
export async function readCall(route: AnyCallRoute, options?: LooseOptions): Promise<unknown> {
  const request = requestOf(route, options);
  return getJson(request.target, request.options);
}
