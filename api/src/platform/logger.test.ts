import { Writable } from 'node:stream';
import { createLogger, loggablePath, outsideRequest, withLogFields } from './logger';

describe('logger', () => {
  test('when an object with passwords, tokens or an Authorization header is logged, then those values never appear', () => {
    let output = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        output += String(chunk);
        done();
      },
    });
    const logger = createLogger('info', sink);
    logger.info(
      {
        password: 'hunter22',
        body: { password: 'hunter23', token: 'tok-1' },
        req: { headers: { authorization: 'Bearer abc.def' } },
      },
      'x',
    );
    expect(output).not.toMatch(/hunter22|hunter23|tok-1|abc\.def/);
    expect(output).toContain('[redacted]');
  });

  test('when lines are logged within a request’s fields, then each carries them, across awaits, but not work set going outside the request', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    const logger = createLogger('info', sink);
    let background: Promise<void> | undefined;
    await withLogFields({ reqId: 'r-1' }, async () => {
      logger.info('first');
      await new Promise((resolve) => setImmediate(resolve));
      logger.child({ part: 'use case' }).info('second');
      background = outsideRequest(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        logger.info('background');
      });
    });
    logger.info('after');
    await background;
    const reqIdOf = Object.fromEntries(lines.map((l) => [l.msg, l.reqId]));
    expect(reqIdOf).toEqual({
      first: 'r-1',
      second: 'r-1',
      background: undefined,
      after: undefined,
    });
  });

  test('when a verification path is logged, then the token is replaced', () => {
    expect(loggablePath('/api/auth/verify/SECRET_TOKEN')).toBe('/api/auth/verify/[redacted]');
    expect(loggablePath('/api/users/1')).toBe('/api/users/1');
  });
});
