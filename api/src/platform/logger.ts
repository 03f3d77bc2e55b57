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

/** JSON lines on stdout (pretty-printed on a terminal), or on `destination` when given. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = { level, redact: { paths: REDACT, censor: '[redacted]' } };
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
