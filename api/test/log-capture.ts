import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../src/platform/logger';

/** One log line as pino wrote it (JSON), with its level as a name. */
export interface LogLine {
  level: number;
  levelName: string;
  msg: string;
  [field: string]: unknown;
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/**
 * A logger of the app's own kind (createLogger: its redaction, its request ids) whose lines are
 * kept, parsed, for a test to read.
 */
export function captureLogs(level = 'debug'): {
  logger: Logger;
  lines: LogLine[];
  /** The lines at `level` or above (warn: warnings, errors and fatal ones). */
  atLeast(level: 'debug' | 'info' | 'warn' | 'error'): LogLine[];
} {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n')) {
        if (!text) continue;
        const line = JSON.parse(text) as LogLine;
        lines.push({ ...line, levelName: LEVEL_NAMES[line.level] ?? String(line.level) });
      }
      done();
    },
  });
  const threshold = { debug: 20, info: 30, warn: 40, error: 50 };
  return {
    logger: createLogger(level, sink),
    lines,
    atLeast: (name) => lines.filter((line) => line.level >= threshold[name]),
  };
}
