import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

/** Paths that never reach a log line, whatever object is logged. */
const REDACT = [
  'password',
  '*.password',
  'token',
  '*.token',
  'verificationToken',
  '*.verificationToken',
  'authorization',
  '*.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
];

export type Logger = pino.Logger;

/**
 * Fields every log line written within a request carries (its request id), whichever logger
 * writes it: the request's middleware, a use case through `ctx.logger`, the database's errors.
 * An AsyncLocalStorage follows the request through every await, so no function takes a logger
 * of its request. Several apps in one process each run their requests in their own scopes.
 */
const logScope = new AsyncLocalStorage<Readonly<Record<string, unknown>>>();

/** Runs `work` with `fields` on every line logged within it (and within what it awaits). */
export function withLogFields<T>(fields: Readonly<Record<string, unknown>>, work: () => T): T {
  return logScope.run(fields, work);
}

/**
 * Runs `work` outside any request's scope: background work a request merely sets going (the mail
 * worker woken by its commit, a timer that outlives it) must not log under its request id.
 */
export function outsideRequest<T>(work: () => T): T {
  return logScope.exit(work);
}

const scopeFields = () => logScope.getStore() ?? {};

/** JSON lines on stdout (pretty-printed on a terminal), or on `destination` when given. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: REDACT, censor: '[redacted]' },
    mixin: scopeFields,
  };
  if (destination) return pino(options, destination);
  const pretty = process.stdout.isTTY && level !== 'silent';
  return pino({
    ...options,
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true } } } : {}),
  });
}

/** Request paths with secrets in them (the verification token) are logged without the secret. */
export function loggablePath(path: string): string {
  return path.replace(/^(\/api\/auth\/verify\/)[^/?]+/, '$1[redacted]');
}
