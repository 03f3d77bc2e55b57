import net from 'node:net';
import { Writable } from 'node:stream';
import Koa from 'koa';
import request from 'supertest';
import { z } from 'zod';
import {
  DATABASE_UNAVAILABLE,
  errorMiddleware,
  HttpError,
  logFailure,
  logResponseError,
  toClientError,
} from './errors';
import { createLogger } from './logger';

describe('toClientError', () => {
  test('when an HttpError is thrown, then its status, message, headers and fields are kept', () => {
    expect(toClientError(new HttpError(429, 'slow down', { 'Retry-After': '3' }))).toEqual({
      status: 429,
      message: 'slow down',
      headers: { 'Retry-After': '3' },
      fields: {},
    });
    expect(toClientError(new HttpError(400, 'gone', {}, undefined, { error: 'gone' }))).toEqual({
      status: 400,
      message: 'gone',
      headers: {},
      fields: { error: 'gone' },
    });
  });

  test('when a zod error is thrown, then 400 with the first message', () => {
    const result = z.object({ a: z.string('a must be text') }).safeParse({ a: 1 });
    expect(toClientError(result.error)).toMatchObject({ status: 400, message: 'a must be text' });
  });

  test('when body parsing fails, then 413 or 400 with a generic message', () => {
    expect(
      toClientError(Object.assign(new Error('request entity too large'), { status: 413 })),
    ).toMatchObject({ status: 413, message: 'Request body is too large' });
    expect(
      toClientError(
        Object.assign(new Error('Unexpected token'), { status: 400, type: 'entity.parse.failed' }),
      ),
    ).toMatchObject({ status: 400, message: 'Malformed JSON body' });
    expect(
      toClientError(
        Object.assign(new Error('maxFileSize exceeded'), { httpCode: 413, code: 1016 }),
      ),
    ).toMatchObject({ status: 413, message: 'File is too large' });
    expect(
      toClientError(Object.assign(new Error('parser failed'), { httpCode: 500, code: 1012 })),
    ).toMatchObject({ status: 400, message: 'Upload failed' });
  });

  test('when a socket error the driver did not wrap is thrown, then 503 database unavailable', async () => {
    // The error Node gives a write to a socket whose peer has closed: what mongodb 7.8 rethrows
    // as is when the database is killed while a command is being written.
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => socket.once('end', resolve));
    const written = await new Promise<Error>((resolve) => {
      socket.once('error', resolve);
      socket.write('endSessions');
    });
    server.close();
    expect(written).toMatchObject({
      code: 'EPIPE',
      message: 'This socket has been ended by the other party',
    });
    expect(toClientError(written)).toEqual({
      status: 503,
      message: DATABASE_UNAVAILABLE,
      headers: { 'Retry-After': '5' },
    });
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(toClientError(new Error('wrapped', { cause: reset }))).toMatchObject({ status: 503 });
  });

  test('when the driver’s pool was cleared by a network error, then 503 database unavailable', () => {
    const cleared = Object.assign(new Error('Connection pool was cleared'), {
      name: 'PoolClearedOnNetworkError',
    });
    expect(toClientError(cleared)).toMatchObject({ status: 503, message: DATABASE_UNAVAILABLE });
  });

  test('when the client cuts its own upload off, then it is not called a database failure', () => {
    const aborted = Object.assign(new Error('request aborted'), {
      code: 'ECONNRESET',
      status: 400,
    });
    expect(toClientError(aborted)).not.toMatchObject({ status: 503 });
  });

  test('when an unknown error is thrown, then it is not a client error', () => {
    expect(toClientError(new Error('database exploded'))).toBeUndefined();
    expect(toClientError('a string')).toBeUndefined();
  });
});

describe('errorMiddleware', () => {
  test('when a route throws an unexpected error, then 500 with a generic message and the error is logged', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = new Koa();
    app.use(errorMiddleware(createLogger('info', sink)));
    app.use(() => {
      throw new Error('secret internal detail');
    });
    const res = await request(app.callback()).get('/');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: 'Internal server error' });
    expect(lines.join('')).toContain('secret internal detail');
  });
});

/** A logger whose lines are kept, parsed. */
function keptLines() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('debug', sink) };
}

describe('expected conditions in the log', () => {
  test('when the database is unavailable to a request, then its 503 is one debug line without a stack', async () => {
    const { lines, logger } = keptLines();
    const app = new Koa();
    app.use(errorMiddleware(logger));
    app.use(() => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), {
        name: 'MongoServerSelectionError',
      });
    });
    const res = await request(app.callback()).get('/');
    expect(res.status).toBe(503);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 20,
      msg: DATABASE_UNAVAILABLE,
      cause: 'connect ECONNREFUSED 127.0.0.1:27017',
    });
    expect(JSON.stringify(lines[0])).not.toContain('stack');
  });

  test('when background work fails, then a database outage is a debug line and anything else a warning with its stack', () => {
    const { lines, logger } = keptLines();
    const outage = Object.assign(new Error('no server'), { name: 'MongoServerSelectionError' });
    logFailure(logger, outage, 'mail queue: the database failed the worker; trying again soon');
    logFailure(
      logger,
      new Error('a bug'),
      'mail queue: the database failed the worker; trying again soon',
    );
    expect(lines.map((l) => [l.level, l.cause ?? (l.err as { message: string }).message])).toEqual([
      [20, 'no server'],
      [40, 'a bug'],
    ]);
    expect(JSON.stringify(lines[1])).toContain('stack');
  });

  test('when a client closes its connection before the answer ended, then it is a debug line; another response error is a warning', () => {
    const { lines, logger } = keptLines();
    const closed = Object.assign(new Error('Premature close'), {
      code: 'ERR_STREAM_PREMATURE_CLOSE',
    });
    logResponseError(logger, closed);
    logResponseError(logger, new Error('something else'));
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [20, 'the client closed the connection before the answer ended'],
      [40, 'response error'],
    ]);
    expect(lines[0]!.err).toBeUndefined();
  });
});
