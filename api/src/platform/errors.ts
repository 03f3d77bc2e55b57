import type { Context, Middleware } from 'koa';
import mongoose from 'mongoose';
import { ZodError } from 'zod';
import { loggablePath, type Logger } from './logger';
import { REQUEST_ID_HEADER } from './request-context';

/** An error whose status and message are safe to show to the client. */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  /**
   * Fields the answer carries besides `message` (e-mail verification's `error`, a suspended
   * member's `suspension`).
   */
  readonly fields: Record<string, unknown>;

  constructor(
    status: number,
    message: string,
    headers: Record<string, string> = {},
    cause?: unknown,
    fields: Record<string, unknown> = {},
  ) {
    super(message, { cause });
    this.name = 'HttpError';
    this.status = status;
    this.headers = headers;
    this.fields = fields;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

const STATUS_MESSAGES: Record<number, string> = {
  400: 'Bad request',
  401: 'Authentication required',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Request body is too large',
  415: 'Unsupported content type',
  429: 'Too many requests. Please try again later.',
};

export const DATABASE_UNAVAILABLE = 'The database is unavailable. Please try again in a moment.';
/** Seconds a client should wait before retrying while the database is unavailable. */
const DATABASE_RETRY_AFTER = '5';

/** Errors of the driver and of mongoose that mean "the database cannot be reached right now". */
const UNAVAILABLE_ERRORS = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoClientClosedError',
  'MongoPoolClearedError',
  // The pool cleared after a network error (a MongoNetworkError, under a name of its own).
  'PoolClearedOnNetworkError',
]);

/**
 * Socket errors the driver lets through unwrapped. When a command is written to a connection the
 * database has just closed (it was killed, say), mongodb 7.8 rethrows the socket's own error, e.g.
 * EPIPE "This socket has been ended by the other party", instead of a MongoNetworkError. The
 * database is the only peer a request handler talks to over a socket directly (the mailer's
 * failures are caught where it is called), so these mean the database went away. Errors of the
 * client's own connection (an upload cut off) carry an HTTP status from the body parser instead.
 */
const SOCKET_ERROR_CODES = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_WRITE_AFTER_END',
  'ERR_SOCKET_CLOSED',
]);

function hasHttpStatus(err: object): boolean {
  return ['status', 'statusCode', 'httpCode'].some((key) => key in err);
}

/** Whether `err` means the database cannot be reached right now (an outage, not a bug). */
export function isDatabaseUnavailable(err: object): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { name, message, code } = e as { name?: unknown; message?: unknown; code?: unknown };
    if (typeof name === 'string' && UNAVAILABLE_ERRORS.has(name)) return true;
    if (typeof code === 'string' && SOCKET_ERROR_CODES.has(code) && !hasHttpStatus(e)) return true;
    // mongoose queues operations while disconnected and gives up after bufferTimeoutMS.
    if (
      name === 'MongooseError' &&
      typeof message === 'string' &&
      /buffering timed out/.test(message)
    )
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Logs a failure of background work (the event stream, the mail queue, live streams): a warning
 * with its stack, or, when it is the database being unreachable, one debug line. An outage is
 * logged once when it starts and once when it ends (db.ts), not once per retry.
 */
export function logFailure(logger: Logger, err: unknown, message: string): void {
  if (typeof err === 'object' && err !== null && isDatabaseUnavailable(err)) {
    logger.debug({ cause: err instanceof Error ? err.message : String(err) }, message);
  } else {
    logger.warn({ err }, message);
  }
}

/**
 * Errors of a response whose client went away before it ended: a closed live stream (every one
 * ends so), a download cut off. Expected, and nothing to do about them.
 */
const CLIENT_GONE_CODES = new Set([
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
]);

/**
 * Koa's `error` event: an error after the response started. A client that went away is a debug
 * line without a stack; anything else a warning with it.
 */
export function logResponseError(logger: Logger, err: unknown, ctx?: Context): void {
  const code = (err as { code?: unknown } | null)?.code;
  const where = ctx
    ? {
        method: ctx.method,
        path: loggablePath(ctx.path),
        reqId: ctx.response.get(REQUEST_ID_HEADER),
      }
    : {};
  if (typeof code === 'string' && CLIENT_GONE_CODES.has(code)) {
    logger.debug({ ...where, code }, 'the client closed the connection before the answer ended');
  } else {
    logger.warn({ ...where, err }, 'response error');
  }
}

export const databaseUnavailable = () =>
  new HttpError(503, DATABASE_UNAVAILABLE, { 'Retry-After': DATABASE_RETRY_AFTER });

const FORMIDABLE_TOTAL_TOO_BIG = 1009;
const FORMIDABLE_FILE_TOO_BIG = 1016;

interface ClientError {
  status: number;
  message: string;
  headers: Record<string, string>;
  fields?: Record<string, unknown>;
}

function numberProp(err: object, key: string): number | undefined {
  const value = (err as Record<string, unknown>)[key];
  return typeof value === 'number' ? value : undefined;
}

/** Maps what middleware and libraries throw to a status and a message fit for the client. */
export function toClientError(err: unknown): ClientError | undefined {
  if (err instanceof HttpError) {
    return { status: err.status, message: err.message, headers: err.headers, fields: err.fields };
  }
  if (err instanceof ZodError) {
    return { status: 400, message: err.issues[0]?.message ?? 'Invalid input', headers: {} };
  }
  if (typeof err !== 'object' || err === null) return undefined;
  if (isDatabaseUnavailable(err)) {
    return {
      status: 503,
      message: DATABASE_UNAVAILABLE,
      headers: { 'Retry-After': DATABASE_RETRY_AFTER },
    };
  }
  if (err instanceof mongoose.Error.CastError || err instanceof mongoose.Error.ValidationError) {
    return { status: 400, message: 'Invalid input', headers: {} };
  }
  const status = numberProp(err, 'status') ?? numberProp(err, 'statusCode');
  if (numberProp(err, 'httpCode') !== undefined) {
    // formidable (multipart parsing): too large, or any other malformed upload.
    const code = numberProp(err, 'code');
    if (code === FORMIDABLE_FILE_TOO_BIG || code === FORMIDABLE_TOTAL_TOO_BIG) {
      return { status: 413, message: 'File is too large', headers: {} };
    }
    return { status: 400, message: 'Upload failed', headers: {} };
  }
  if (status === 413) return { status: 413, message: STATUS_MESSAGES[413]!, headers: {} };
  if (status === 400 && (err as { type?: string }).type === 'entity.parse.failed') {
    return { status: 400, message: 'Malformed JSON body', headers: {} };
  }
  if (status !== undefined && status >= 400 && status < 500) {
    const exposed = (err as { expose?: boolean }).expose === true;
    const message = exposed && err instanceof Error ? err.message : STATUS_MESSAGES[status];
    return { status, message: message ?? 'Bad request', headers: {} };
  }
  return undefined;
}

/** The one error middleware: `{ message }` with the right status; a logged, generic 500 otherwise. */
export function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status >= 400 && ctx.body === undefined) {
        const status = ctx.status; // setting a body would otherwise turn Koa's default 404 into 200
        ctx.body = { message: STATUS_MESSAGES[status] ?? 'Request failed' };
        ctx.status = status;
      }
    } catch (err) {
      const clientError = toClientError(err);
      if (clientError?.status === 503 && clientError.message === DATABASE_UNAVAILABLE) {
        // Expected during an outage, which the database logs once (db.ts): no stack per request.
        const cause = err instanceof Error ? err.message : undefined;
        logger.debug({ cause, method: ctx.method, route: ctx.routerPath }, clientError.message);
      } else if (clientError && clientError.status >= 500) {
        logger.error({ err, method: ctx.method, route: ctx.routerPath }, clientError.message);
      }
      if (clientError) {
        ctx.status = clientError.status;
        ctx.set(clientError.headers);
        ctx.body = { ...clientError.fields, message: clientError.message };
        return;
      }
      logger.error({ err, method: ctx.method, route: ctx.routerPath }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { message: 'Internal server error' };
    }
  };
}
