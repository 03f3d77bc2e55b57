import type { AuthMeResponse, Role } from '@campus/contracts';
import { readStoredAuth, storeAuth, type SessionUser } from '@campus/kit/api';

/** The API origin every test configures (`configureApi({ baseUrl: TEST_API_URL })`). */
export const TEST_API_URL = 'http://api.test';

/** One request the code under test sent, as a handler sees it. */
export interface ApiCall {
  method: string;
  /** Path and query without the API origin, e.g. '/api/posts?limit=20'. */
  path: string;
  /** The path alone, e.g. '/api/posts'. */
  pathname: string;
  url: URL;
  init: RequestInit;
  /** The JSON body that was sent, parsed; undefined when there was none (or it was a form). */
  body: unknown;
}

/** What the fake API answers: `body` is sent as JSON, `text` as is (for malformed bodies). */
export interface ApiReply {
  status: number;
  body?: unknown;
  text?: string;
  statusText?: string;
}

/**
 * Answers one request; `undefined` means a 404. A handler may be async (to hold an answer back)
 * or throw (a network failure).
 */
export type ApiHandler = (call: ApiCall) => ApiReply | undefined | Promise<ApiReply | undefined>;

export interface MockApiOptions {
  /**
   * true (default): the session check of the stored login succeeds before the handler is asked,
   * so page tests need not answer it. false: the handler answers it (to test a rejected login).
   */
  acceptStoredLogin?: boolean;
  /** The roles the session check gives the stored user (`['member']` by default). */
  roles?: Role[];
}

export type FetchMock = jest.Mock<Promise<Response>, [string, RequestInit?]>;

let signIns = 0;

/**
 * Stores a login as the shell does after signing in (the fake API accepts its session). Each
 * call is a new login, so the session's 5-minute check cache never carries one test's roles into
 * the next.
 */
export function signIn(user: SessionUser): void {
  signIns += 1;
  storeAuth({ user, signedInAt: signIns });
}

function parseBody(init: RequestInit): unknown {
  if (typeof init.body !== 'string') return undefined;
  try {
    return JSON.parse(init.body) as unknown;
  } catch {
    return init.body;
  }
}

/** A valid session: the session check (`GET /api/auth/me`) answers with the stored user. */
function sessionCheck({ method, pathname }: ApiCall, roles: Role[]): ApiReply | undefined {
  const stored = readStoredAuth();
  if (!stored || method !== 'GET' || pathname !== '/api/auth/me') return undefined;
  const me: AuthMeResponse = {
    user: { ...stored.user, bio: '', createdAt: new Date(0).toISOString() },
    roles,
  };
  return { status: 200, body: me };
}

/**
 * Replaces `global.fetch` with a fake API: the session check of the stored login (`signIn`)
 * succeeds, every other request goes to `handler`, and what it leaves unanswered is a 404
 * `{ message }`. Returns the jest mock, to assert on the requests (`callsTo`,
 * `toHaveBeenCalledWith`). This is the one fetch double of every app's tests.
 */
export function mockApi(
  handler: ApiHandler = () => undefined,
  { acceptStoredLogin = true, roles = ['member'] }: MockApiOptions = {},
): FetchMock {
  const fetchMock = jest.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, TEST_API_URL);
    const call: ApiCall = {
      method: init.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      pathname: url.pathname,
      url,
      init,
      body: parseBody(init),
    };
    const reply = (acceptStoredLogin ? sessionCheck(call, roles) : undefined) ??
      (await handler(call)) ?? { status: 404, body: { message: 'Not found' } };
    const text = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    // Only what the kit's api client reads from a Response.
    return {
      status: reply.status,
      ok: reply.status >= 200 && reply.status < 300,
      statusText: reply.statusText ?? '',
      text: async () => text,
    } as Response;
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}

/** The requests sent to `pathname` with `method` (GET by default), in order. */
export function callsTo(fetchMock: FetchMock, pathname: string, method = 'GET') {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(input, TEST_API_URL), init: init ?? {} }))
    .filter(({ url, init }) => url.pathname === pathname && (init.method ?? 'GET') === method);
}
