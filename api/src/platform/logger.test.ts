import { Writable } from 'node:stream';
import { createLogger, loggablePath } from './logger';

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

  test('when a verification path is logged, then the token is replaced', () => {
    expect(loggablePath('/api/auth/verify/SECRET_TOKEN')).toBe('/api/auth/verify/[redacted]');
    expect(loggablePath('/api/users/1')).toBe('/api/users/1');
  });
});
