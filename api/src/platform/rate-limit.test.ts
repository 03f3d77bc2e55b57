import Koa from 'koa';
import request from 'supertest';
import { errorMiddleware } from './errors';
import { createLogger } from './logger';
import { rateLimit } from './rate-limit';

function appWith(max: number, windowMs: number, now: () => number) {
  const app = new Koa();
  app.use(errorMiddleware(createLogger('silent')));
  app.use(rateLimit({ max, windowMs }, now));
  app.use((ctx) => {
    ctx.body = { ok: true };
  });
  return request(app.callback());
}

describe('rateLimit', () => {
  test('when the window has passed, then requests are allowed again', async () => {
    let time = 1_000_000;
    const client = appWith(1, 10_000, () => time);
    await client.get('/').expect(200);
    const limited = await client.get('/');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('10');
    time += 9_500;
    expect((await client.get('/')).headers['retry-after']).toBe('1');
    time += 500;
    await client.get('/').expect(200);
  });

  test('when max is 0, then the limit is off', async () => {
    const client = appWith(0, 10_000, () => 0);
    for (let i = 0; i < 5; i += 1) await client.get('/').expect(200);
  });
});
